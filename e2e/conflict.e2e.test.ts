import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  adminSession,
  type AdminSession,
  api,
  dataSettled,
  expectNoRawKeys,
  login,
  newContext,
  type PageProblems,
  shot,
  watch,
} from './support';

/**
 * A conflicting edit (decision 0077): two pages edit the same row; the first saves; the second's
 * save is refused as stale (409 with `current` and `differs`) and its form then shows, for each
 * differing field, what the user typed and what is now on the server, keeps the input, and saves
 * after the user took the server's value for one field and kept theirs for another. In Uzbek Latin,
 * and the panel in Uzbek Cyrillic and Russian at 1400 and 360 px.
 */

const baseUrl = inject('baseUrl');
const uid = `${Date.now() % 100000}`.padStart(5, '0');
const BANKS = '/api/ecofund-sprav/banks-mfo';

interface Bank {
  id: number;
  version: number;
  mfo: string;
  inn: string | null;
  name: { uz: string; uk?: string; ru?: string };
}

let session: AdminSession;
let page: Page;
let problems: PageProblems;
let bank: Bank;

const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
const panel = (p: Page) => p.getByTestId('conflict-panel');
const row = (p: Page, field: string) => panel(p).locator(`[data-testid=conflict-field][data-field=${field}]`);

async function openForm(p: Page, id: number) {
  await p.goto(`${baseUrl}/admin/#/ecofund-sprav/banks-mfo/${id}`);
  await p.locator('[name="name.uz"]').waitFor();
  await expect.poll(() => p.locator('[name="name.uz"]').inputValue()).not.toBe('');
}

beforeAll(async () => {
  session = await adminSession(baseUrl, 'conflict');
  ({ page, problems } = session);
  bank = await api<Bank>(page, BANKS, 'uz', {
    method: 'POST',
    body: {
      mfo: `8${uid.slice(1)}`,
      name: { uz: `Ziddiyat banki ${uid}`, uk: `Зиддият банки ${uid}`, ru: `Банк конфликта ${uid}` },
      is_active: true,
    },
  });
});

afterAll(async () => {
  if (bank) await api(page, `${BANKS}/${bank.id}`, 'uz', { method: 'DELETE' }).catch(() => undefined);
  await session?.close();
});

describe('a conflicting edit', () => {
  it("shows both versions, keeps the user's input, and saves after the user chose", async () => {
    const other = await session.ctx.newPage();
    const otherProblems = watch(other);
    await openForm(page, bank.id);
    await openForm(other, bank.id);
    // the other page saves first
    await other.locator('[name=inn]').fill('123456789');
    await other.getByTestId('save-button').click();
    await expect.poll(() => other.evaluate(() => window.location.hash)).toMatch(/^#\/ecofund-sprav\/banks-mfo(\?.*)?$/);
    await other.close();

    // this page, still at the version it read, changes the name and saves
    const mine = `Ziddiyat banki ${uid} ATB`;
    await page.locator('[name="name.uz"]').fill(mine);
    await page.getByTestId('save-button').click();
    await panel(page).waitFor();
    // still on the form, the input as typed
    expect(await page.evaluate(() => window.location.hash)).toBe(`#/ecofund-sprav/banks-mfo/${bank.id}`);
    expect(await page.locator('[name="name.uz"]').inputValue()).toBe(mine);
    expect(await panel(page).getByText('Yozuvni siz tahrirlayotganda boshqa foydalanuvchi oʻzgartirdi').count()).toBe(1);
    // each differing field: its caption, yours and the server's, as the list shows them
    const fields = await panel(page)
      .getByTestId('conflict-field')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-field')));
    expect(new Set(fields)).toEqual(new Set(['name', 'inn']));
    expect(flat(await row(page, 'inn').innerText())).toContain('STIR');
    expect(flat(await row(page, 'inn').getByTestId('conflict-yours').innerText())).toBe('Siz kiritgan —');
    // the STIR the user left as it was takes the server's value at once: nothing of the other edit is undone
    expect(await row(page, 'inn').getAttribute('data-choice')).toBe('server');
    expect(await page.locator('[name=inn]').inputValue()).toBe('123456789');
    expect(flat(await row(page, 'inn').getByTestId('conflict-server').innerText())).toBe('Hozir serverda 123456789');
    expect(flat(await row(page, 'name').getByTestId('conflict-yours').innerText())).toBe(`Siz kiritgan ${mine}`);
    expect(flat(await row(page, 'name').getByTestId('conflict-server').innerText())).toBe(`Hozir serverda Ziddiyat banki ${uid}`);
    await shot(page, 'conflict-uz-1400', { quiet: true });
    await expectNoRawKeys(page);

    // the server's STIR, the user's own name
    await row(page, 'inn').getByTestId('conflict-take-server').click();
    expect(await page.locator('[name=inn]').inputValue()).toBe('123456789');
    expect(await row(page, 'inn').getAttribute('data-choice')).toBe('server');
    await row(page, 'name').getByTestId('conflict-keep-mine').click();
    expect(await page.locator('[name="name.uz"]').inputValue()).toBe(mine);
    // taking back one's own puts back what was typed
    await row(page, 'inn').getByTestId('conflict-keep-mine').click();
    expect(await page.locator('[name=inn]').inputValue()).toBe('');
    await row(page, 'inn').getByTestId('conflict-take-server').click();

    await page.getByTestId('save-button').click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toMatch(/^#\/ecofund-sprav\/banks-mfo(\?.*)?$/);
    const saved = await api<Bank>(page, `${BANKS}/${bank.id}`);
    expect(saved).toMatchObject({ inn: '123456789', name: { uz: mine }, version: bank.version + 2 });
    bank = saved;
    expect(problems.errors).toEqual([]);
    expect(otherProblems.errors).toEqual([]);
  });

  it('says it in Uzbek Cyrillic and Russian, at 1400 and 360 px', async () => {
    const expected = {
      uk: { yours: 'Сиз киритган', server: 'Ҳозир серверда', keep: 'Меники қолсин' },
      ru: { yours: 'Ваше значение', server: 'Сейчас на сервере', keep: 'Оставить моё' },
      uz: { yours: 'Siz kiritgan', server: 'Hozir serverda', keep: 'Meniki qolsin' },
    } as const;
    const ctx = await newContext(session.browser, baseUrl);
    const phone = await ctx.newPage();
    await phone.setViewportSize({ width: 360, height: 780 });
    const phoneProblems = watch(phone);
    await login(phone, baseUrl, 'admin', 'ecofond-demo');
    try {
      for (const lang of ['uk', 'ru', 'uz'] as const) {
        for (const [p, width] of [
          [page, 1400],
          [phone, 360],
        ] as const) {
          await p.goto(`${baseUrl}/admin/#/ecofund-sprav/banks-mfo`);
          await p.getByTestId(`lang-${lang}`).click();
          await expect.poll(() => p.getByTestId(`lang-${lang}`).getAttribute('aria-pressed')).toBe('true');
          await openForm(p, bank.id);
          // the form read before the other change: no refetch lands after it
          await dataSettled(p);
          // someone else changes the STIR meanwhile
          const now = await api<Bank>(p, `${BANKS}/${bank.id}`);
          bank = await api<Bank>(p, `${BANKS}/${bank.id}`, lang, {
            method: 'PUT',
            body: { ...now, inn: now.inn === '123456789' ? '987654321' : '123456789' },
          });
          const typed = `Ziddiyat banki ${uid} ${lang} ${width}`;
          await p.locator('[name="name.uz"]').fill(typed);
          await p.getByTestId('save-button').click();
          await panel(p).waitFor();
          const inn = row(p, 'inn');
          expect(flat(await inn.getByTestId('conflict-yours').innerText())).toBe(`${expected[lang].yours} ${now.inn}`);
          expect(flat(await inn.getByTestId('conflict-server').innerText())).toBe(`${expected[lang].server} ${bank.inn}`);
          expect(flat(await inn.getByTestId('conflict-keep-mine').innerText()).toLowerCase()).toBe(expected[lang].keep.toLowerCase());
          // the name differs in its Uzbek part only: outside Uzbek Latin the sides say that part under its language's name
          expect(await row(p, 'name').getByTestId('conflict-yours').locator('[data-lang=uz]').count()).toBe(lang === 'uz' ? 0 : 1);
          expect(await row(p, 'name').getByTestId('conflict-yours').innerText()).toContain(typed);
          if (lang === 'uk') {
            const own = [await panel(p).locator('.MuiAlertTitle-root').innerText(), await inn.innerText()];
            for (const t of own) expect(t, t).not.toMatch(/[A-Za-z]/);
          }
          expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          await shot(p, `conflict-${lang}-${width}`, { quiet: true });
          await expectNoRawKeys(p);
          // the user's choice saved: the server's STIR, their name
          const take = inn.getByTestId('conflict-take-server');
          await take.evaluate((e) => e.scrollIntoView({ block: 'center' }));
          await take.click();
          await p.getByTestId('save-button').click();
          await expect.poll(() => p.evaluate(() => window.location.hash)).toMatch(/^#\/ecofund-sprav\/banks-mfo(\?.*)?$/);
          const saved = await api<Bank>(p, `${BANKS}/${bank.id}`);
          expect(saved).toMatchObject({ inn: bank.inn, name: { uz: typed } });
          bank = saved;
        }
      }
      expect(phoneProblems.errors).toEqual([]);
    } finally {
      await ctx.close();
    }
    expect(problems.errors).toEqual([]);
  });
});
