import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureBuilt } from './server';
import { api, DEMO_PASSWORD, expectNoRawKeys, launch, login, pickerOf, pickerText, shot, typeDate, watch } from './support';
import adminUz from '../admin/src/i18n/uz.json';
import adminUk from '../admin/src/i18n/uk.json';
import siteUz from '../public-site/src/i18n/uz.json';
import siteUk from '../public-site/src/i18n/uk.json';

/**
 * Dates and files in the user's language, not the browser's (issue 29, docs/decisions/0085). The
 * browser here speaks American English in New York: a native date input would show mm/dd/yyyy and
 * "Choose File", and a date turned into a moment there would slip a day. In the back-office the
 * picker shows DD.MM.YYYY with its placeholders and month names in Uzbek Latin and Cyrillic, is
 * typed by keyboard, and the API gets and keeps the ISO date; a list's date range narrows it. On
 * the public site the planting form's date and photo read in the page's language.
 */

const baseUrl = inject('baseUrl');
const uid = `${Date.now() % 1_000_000}`;
let browser: Browser;
const contexts: BrowserContext[] = [];

type Lang = 'uz' | 'uk';
const PICKER = { uz: adminUz.admin.picker, uk: adminUk.admin.picker };
const SITE = { uz: siteUz, uk: siteUk } as Record<Lang, Record<string, string>>;
/** The months' names in the calendar: dayjs's uz-latn, and the project's own Uzbek Cyrillic spelling (admin/src/generic/DatesProvider.tsx). */
const NOVEMBER = { uz: 'Noyabr', uk: 'ноябрь' };

async function opened(lang: Lang): Promise<{ page: Page; problems: ReturnType<typeof watch> }> {
  const ctx = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    locale: 'en-US',
    timezoneId: 'America/New_York',
  });
  ctx.setDefaultTimeout(30_000);
  contexts.push(ctx);
  await ctx.addInitScript((l) => {
    if (!localStorage.getItem('ecofond.lang')) localStorage.setItem('ecofond.lang', l);
  }, lang);
  const page = await ctx.newPage();
  return { page, problems: watch(page) };
}

const clean = (s: string) => s.replace(/[\u200e\u200f\u2066-\u2069]/g, '').trim();

beforeAll(async () => {
  // the public planting form is served from public-site/dist beside the back-office
  ensureBuilt('build:public', 'public-site/dist');
  browser = await launch();
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe('the back-office date picker', () => {
  for (const lang of ['uz', 'uk'] as const) {
    it(`${lang}: shows its placeholders and months in the language, is typed by keyboard, and the API keeps the ISO date`, async () => {
      const { page, problems } = await opened(lang);
      await login(page, baseUrl, 'fund', DEMO_PASSWORD);
      await page.goto(`${baseUrl}/admin/#/ecofund/stack-payments/create`);
      await page.getByTestId('save-button').waitFor();
      const date = page.locator('input[name=statement_date]');
      await date.waitFor({ state: 'attached' });

      // empty and focused: the order of the sections in the language (kk.oo.yyyy / кк.оо.йййй)
      await pickerOf(date).locator('[role=spinbutton]').first().click();
      const placeholder = `${PICKER[lang].ph_day}.${PICKER[lang].ph_month}.${PICKER[lang].ph_year}`;
      await expect.poll(() => pickerText(date)).toBe(placeholder);
      expect(placeholder).toBe(lang === 'uz' ? 'kk.oo.yyyy' : 'кк.оо.йййй');

      // typed digit by digit: day, month, year
      await typeDate(date, '2025-11-15');
      await expect.poll(() => pickerText(date)).toBe('15.11.2025');

      // the calendar behind the button: the month's name and the buttons in the language
      await pickerOf(date)
        .getByRole('button', { name: new RegExp(PICKER[lang].open_date) })
        .click();
      const calendar = page.getByRole('dialog');
      await calendar.waitFor();
      expect(clean(await calendar.locator('.MuiPickersCalendarHeader-label').innerText())).toBe(`${NOVEMBER[lang]} 2025`);
      await expect.poll(async () => (await calendar.getByRole('button', { name: PICKER[lang].next_month }).count()) > 0).toBe(true);
      // the chosen day is the one typed
      expect(await calendar.locator('[aria-selected=true]').innerText()).toBe('15');
      await shot(page, `date-picker-${lang}`);
      await page.keyboard.press('Escape');
      await calendar.waitFor({ state: 'detached' });

      await page.locator('input[name=number]').fill(`DP-${lang}-${uid}`);
      const sent = page.waitForResponse((r) => r.url().endsWith('/api/ecofund/stack-payments') && r.request().method() === 'POST');
      await page.getByTestId('save-button').click();
      const res = await sent;
      expect(res.status()).toBe(201);
      expect(res.request().postDataJSON().statement_date).toBe('2025-11-15');
      const row = await api<{ statement_date: string }>(page, `/api/ecofund/stack-payments/${(await res.json()).id}`);
      expect(row.statement_date).toBe('2025-11-15');
      await expectNoRawKeys(page);
      expect(problems.errors).toEqual([]);
    });
  }

  it("uz: a date typed in part is refused by the form in the user's words, and nothing is sent", async () => {
    const { page } = await opened('uz');
    await login(page, baseUrl, 'fund', DEMO_PASSWORD);
    await page.goto(`${baseUrl}/admin/#/ecofund/stack-payments/create`);
    await page.getByTestId('save-button').waitFor();
    await page.locator('input[name=number]').fill(`DP-part-${uid}`);
    const date = page.locator('input[name=statement_date]');
    await date.waitFor({ state: 'attached' });
    await pickerOf(date).locator('[role=spinbutton]').first().click();
    await page.keyboard.type('1511');
    await page.keyboard.press('Tab');
    let posted = false;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/ecofund/stack-payments') && r.method() === 'POST') posted = true;
    });
    await page.getByTestId('save-button').click();
    await expect.poll(() => page.locator('.ra-input-statement_date').innerText()).toContain(adminUz.admin.picker.partial);
    expect(posted).toBe(false);
  });

  it('a date range typed into the filters narrows the list', async () => {
    const { page, problems } = await opened('uz');
    await login(page, baseUrl, 'fund', DEMO_PASSWORD);
    const prefix = `DR-${uid}`;
    for (const [n, d] of [
      ['a', '2025-03-10'],
      ['b', '2025-07-20'],
      ['c', '2025-10-05'],
    ])
      await api(page, '/api/ecofund/stack-payments', 'uz', { method: 'POST', body: { number: `${prefix}-${n}`, statement_date: d } });
    await page.goto(`${baseUrl}/admin/#/ecofund/stack-payments?filter=${encodeURIComponent(JSON.stringify({ q: prefix }))}`);
    const list = page.getByTestId('entity-list');
    await expect.poll(() => list.locator('tbody tr').count()).toBe(3);

    // the list asks with the filter as JSON (react-admin's simple REST): the range as ISO dates
    const listed = (param: string, value: string) =>
      page.waitForResponse((r) => {
        if (!r.url().includes('/api/ecofund/stack-payments?')) return false;
        const filter = JSON.parse(new URL(r.url()).searchParams.get('filter') ?? '{}') as Record<string, unknown>;
        return filter[param] === value;
      });
    let asked = listed('from_statement_date', '2025-07-01');
    await typeDate(page.locator('input[name=from_statement_date]'), '2025-07-01');
    await asked;
    await expect.poll(() => list.locator('tbody tr').count()).toBe(2);
    asked = listed('to_statement_date', '2025-08-31');
    await typeDate(page.locator('input[name=to_statement_date]'), '2025-08-31');
    await asked;
    await expect.poll(() => list.locator('tbody tr').count()).toBe(1);
    expect(await list.locator('tbody').innerText()).toContain(`${prefix}-b`);
    expect(await list.locator('tbody').innerText()).toContain('20.07.2025');
    await shot(page, 'date-range-filter');
    expect(problems.errors).toEqual([]);
  });
});

describe('the public planting form', () => {
  for (const lang of ['uz', 'uk'] as const) {
    it(`${lang}: its date reads DD.MM.YYYY with the month's name, and its photo button and file name in the language`, async () => {
      const { page, problems } = await opened(lang);
      await page.goto(`${baseUrl}/#/population-seedlings`);
      const form = page.getByTestId('planting-form');
      await form.waitFor();
      const date = form.locator('[name=planted_on]');
      const t = SITE[lang];
      expect(await date.getAttribute('type')).toBe('text');
      expect(await date.getAttribute('placeholder')).toBe(t['date.placeholder']);
      // today, as Tashkent counts it, shown day first
      const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent' }).format(new Date()).split('-');
      expect(await date.inputValue()).toBe(`${d}.${m}.${y}`);
      // typed by keyboard: the dots come by themselves, the month is spelled out in the language
      await date.fill('');
      await date.pressSequentially('01112025');
      expect(await date.inputValue()).toBe('01.11.2025');
      const spelled = t['date.spelled'].replace('{year}', '2025').replace('{day}', '1').replace('{month}', t['date.m11']);
      const spelledLine = page.locator(`[id="${await date.getAttribute('id')}-spelled"]`);
      await expect.poll(async () => (await spelledLine.innerText()).trim()).toBe(spelled);
      // and screen readers hear it with the field
      expect((await date.getAttribute('aria-describedby'))!.split(' ')).toContain(await spelledLine.getAttribute('id'));

      // the photo: a button and "no file chosen" in the language, then the file's name
      expect((await form.getByTestId('photo-button').innerText()).trim()).toBe(t['file.choose']);
      expect((await form.getByTestId('photo-chosen').innerText()).trim()).toBe(t['file.none']);
      await form.locator('[name=photo]').setInputFiles({
        name: 'daraxt.png',
        mimeType: 'image/png',
        buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
      });
      await expect.poll(() => form.getByTestId('photo-chosen').innerText()).toBe('daraxt.png');
      await shot(page, `public-planting-date-file-${lang}`);
      expect(problems.errors).toEqual([]);
    });
  }
});
