import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, type PageProblems } from './support';

/**
 * A subject's balance tab opens on the newest year with payments (the demo's are of last year),
 * not on an empty current year; a subject with no payments says so, in each language.
 */

const baseUrl = inject('baseUrl');
const uid = `${Date.now() % 100000}`.padStart(5, '0');

interface Balance { year: number; years: number[]; paid_in_year: string }
interface Subject { id: number; inn: string }

let session: AdminSession;
let page: Page;
let problems: PageProblems;

beforeAll(async () => {
  session = await adminSession(baseUrl, 'balance');
  ({ page, problems } = session);
});
afterAll(async () => {
  await api(page, '/api/admin/app/setlang', 'uz', { method: 'POST', body: { lang: 'uz' } }).catch(() => undefined);
  await session?.close();
});

async function openBalance(id: number) {
  await page.goto(`${baseUrl}/admin/#/ecofund/subject/${id}`);
  // a fresh page: the previous subject's tabs are not this one's
  await page.reload();
  await page.getByTestId('entity-show').waitFor();
  await page.getByTestId('show-tab-balance').click();
  await page.getByTestId('subject-balance').waitFor();
}

describe("a subject's balance", () => {
  it('opens on the newest year with payments, with its figures', async () => {
    // a demo subject with confirmed payments (of last year)
    const [payment] = await api<{ subject_id: number }[]>(page, `/api/ecofund/payments?range=[0,0]&sort=${encodeURIComponent('["id","asc"]')}&filter=${encodeURIComponent(JSON.stringify({ status: 'confirmed' }))}`);
    const subjectId = payment.subject_id;
    const latest = await api<Balance>(page, `/api/ecofund/subject/${subjectId}/balance`);
    const thisYear = Number(new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 4));
    // the demo's payments are of last year: the current year would show zeros
    expect(latest.years[0]).toBe(latest.year);
    expect(latest.year).toBeLessThan(thisYear);
    expect(Number(latest.paid_in_year)).toBeGreaterThan(0);
    await openBalance(subjectId);
    await expect.poll(() => page.getByTestId('balance-year').innerText()).toBe(String(latest.year));
    await expect.poll(() => page.getByTestId('balance-paid').innerText()).not.toBe('0.00');
    expect(await page.getByTestId('balance-by-code').count()).toBe(1);
    expect(await page.getByTestId('balance-none').count()).toBe(0);
    await page.screenshot({ path: '/tmp/shots-docs/balance-1400.png' });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.screenshot({ path: '/tmp/shots-docs/balance-360.png', fullPage: true });
    await page.setViewportSize({ width: 1400, height: 900 });
    await expectNoRawKeys(page);
  });

  it('says when a subject has no payments yet, in each language', async () => {
    const [region] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/regions?range=[0,0]');
    const [category] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/subject-categories?range=[0,0]');
    const subject = await api<Subject>(page, '/api/ecofund/subject', 'uz', { method: 'POST', body: { inn: `7${uid}002`, name: `“Balans ${uid}” MChJ`, region_id: region.id, category_id: category.id } });
    const texts = { uz: 'Subyektning tasdiqlangan toʻlovlari hali yoʻq', uk: 'Субъектнинг тасдиқланган тўловлари ҳали йўқ', ru: 'У субъекта пока нет подтверждённых платежей' };
    for (const [lang, text] of Object.entries(texts)) {
      // the language switched (and kept by the session), then the tab opened afresh
      await page.getByTestId(`lang-${lang}`).click();
      await expect.poll(() => page.getByTestId(`lang-${lang}`).getAttribute('aria-pressed')).toBe('true');
      await openBalance(subject.id);
      await page.screenshot({ path: `/tmp/shots-docs/balance-none-${lang}.png` });
      await expect.poll(() => page.getByTestId('balance-none').innerText()).toContain(text);
      await expectNoRawKeys(page);
    }
    await page.screenshot({ path: '/tmp/shots-docs/balance-none-ru-1400.png' });
    await page.getByTestId('lang-uz').click();
    await expect.poll(() => page.getByTestId('lang-uz').getAttribute('aria-pressed')).toBe('true');
    expect(problems.errors).toEqual([]);
  });
});
