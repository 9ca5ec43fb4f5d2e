import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, type PageProblems, SHOTS } from './support';
import { formatMoney } from '../shared/numbers';

/**
 * A subject's balance tab opens on the newest year with money of the subject's (payments,
 * accruals, fines, penya), not on an empty current year, with the balance net of what it is
 * charged — the server's one figure; a subject with none says so, in each language. Also the
 * balance of a subject fined for a late report, and a protocol stack's page, looked at in ru and uz
 * at 1400 px (artifacts/screenshots/money-*.png).
 */

const baseUrl = inject('baseUrl');
const uid = `${Date.now() % 100000}`.padStart(5, '0');

interface Balance {
  year: number;
  years: number[];
  paid_in_year: string;
  late_fines_in_year: string;
  balance_start: string;
  balance_end: string;
}
interface Subject {
  id: number;
  inn: string;
}

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
  it('opens on the newest year with money, with its figures', async () => {
    // a demo subject with confirmed payments (of last year) and nothing charged after that year
    const payments = await api<{ subject_id: number }[]>(
      page,
      `/api/ecofund/payments?range=[0,49]&sort=${encodeURIComponent('["id","asc"]')}&filter=${encodeURIComponent(JSON.stringify({ status: 'confirmed' }))}`,
    );
    const thisYear = Number(new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 4));
    let subjectId = 0;
    let latest: Balance | undefined;
    for (const p of payments) {
      latest = await api<Balance>(page, `/api/ecofund/subject/${p.subject_id}/balance`);
      subjectId = p.subject_id;
      if (latest.year < thisYear) break;
    }
    // the demo's payments are of last year: the current year would show zeros
    expect(latest!.years[0]).toBe(latest!.year);
    expect(latest!.year).toBeLessThan(thisYear);
    expect(Number(latest!.paid_in_year)).toBeGreaterThan(0);
    await openBalance(subjectId);
    await expect.poll(() => page.getByTestId('balance-year').innerText()).toBe(String(latest!.year));
    await expect.poll(() => page.getByTestId('balance-paid').innerText()).toBe(formatMoney(latest!.paid_in_year));
    expect(await page.getByTestId('balance-end').innerText()).toBe(formatMoney(latest!.balance_end));
    expect(await page.getByTestId('balance-by-code').count()).toBe(1);
    expect(await page.getByTestId('balance-none').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/balance-1400.png` });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.screenshot({ path: `${SHOTS}/balance-360.png`, fullPage: true });
    await page.setViewportSize({ width: 1400, height: 900 });
    await expectNoRawKeys(page);
  });

  it("nets what a subject is charged, a late-report fine among it, as the compensation report does; a protocol stack's page", async () => {
    // a demo report sent after its deadline: its subject's balance that year holds the fine
    const reports = await api<{ id: number; subject_id: number; late_fine: string | null; sent_on: string | null }[]>(
      page,
      `/api/ecofund/subject-report-yearly?range=[0,99]&filter=${encodeURIComponent(JSON.stringify({ status: ['accepted'] }))}`,
    );
    const late = reports.find((r) => r.late_fine !== null && Number(r.late_fine) > 0)!;
    expect(late, 'a demo report fined for lateness').toBeTruthy();
    const year = Number(late.sent_on!.slice(0, 4));
    const balance = await api<Balance>(page, `/api/ecofund/subject/${late.subject_id}/balance?year=${year}`);
    expect(Number(balance.late_fines_in_year)).toBeGreaterThanOrEqual(Number(late.late_fine));
    const report = await api<{ rows: { subject_id: number; balance: string }[] }>(
      page,
      `/api/reports/compensation-report?year=${year}&subject_id=${late.subject_id}`,
    );
    const row = report.rows.find((r) => r.subject_id === late.subject_id);
    if (row) expect(row.balance).toBe(balance.balance_end);
    const [stack] = await api<{ id: number }[]>(page, `/api/ecofund/stack-protocols?range=[0,0]`);
    for (const lang of ['ru', 'uz']) {
      await page.getByTestId(`lang-${lang}`).click();
      await expect.poll(() => page.getByTestId(`lang-${lang}`).getAttribute('aria-pressed')).toBe('true');
      await openBalance(late.subject_id);
      if (year !== balance.years[0]) {
        await page.getByTestId('balance-year').click();
        await page.getByTestId(`balance-year-${year}`).click();
      }
      await expect.poll(() => page.getByTestId('balance-late-fines').innerText()).toBe(formatMoney(balance.late_fines_in_year));
      expect(await page.getByTestId('balance-end').innerText()).toBe(formatMoney(balance.balance_end));
      await page.screenshot({ path: `${SHOTS}/money-subject-balance-${lang}.png`, fullPage: true });
      await expectNoRawKeys(page);
      // the stack's protocols on their own page, reached from the protocol stacks' list
      await page.goto(`${baseUrl}/admin/#/ecofund/subject-protocols/${stack.id}`);
      await page.getByRole('table').first().waitFor();
      await page.locator('td a').first().waitFor();
      await page.screenshot({ path: `${SHOTS}/money-protocol-stack-${lang}.png`, fullPage: true });
      await page.goto(`${baseUrl}/admin/#/ecofund/stack-protocols/${stack.id}/show`);
      await page.getByTestId('entity-show').waitFor();
      // the stack's category and region by their names, once their rows have come
      for (const f of ['category_id', 'region_id']) {
        await expect
          .poll(async () => (await page.locator(`.ra-field-${f}`).innerText()).split('\n').filter((x) => x.trim()).length)
          .toBe(2);
      }
      await page.screenshot({ path: `${SHOTS}/money-protocol-stacks-show-${lang}.png`, fullPage: true });
      await expectNoRawKeys(page);
    }
  });

  it('says when a subject has no payments yet, in each language', async () => {
    const [region] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/regions?range=[0,0]');
    const [category] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/subject-categories?range=[0,0]');
    const subject = await api<Subject>(page, '/api/ecofund/subject', 'uz', {
      method: 'POST',
      body: { inn: `7${uid}002`, name: `“Balans ${uid}” MChJ`, region_id: region.id, category_id: category.id },
    });
    const texts = {
      uz: 'Subyektning hali tasdiqlangan toʻlovlari ham, hisoblangan toʻlovlari ham yoʻq',
      uk: 'Субъектнинг ҳали тасдиқланган тўловлари ҳам, ҳисобланган тўловлари ҳам йўқ',
      ru: 'У субъекта пока нет ни подтверждённых платежей, ни начислений',
    };
    for (const [lang, text] of Object.entries(texts)) {
      // the language switched (and kept by the session), then the tab opened afresh
      await page.getByTestId(`lang-${lang}`).click();
      await expect.poll(() => page.getByTestId(`lang-${lang}`).getAttribute('aria-pressed')).toBe('true');
      await openBalance(subject.id);
      await page.screenshot({ path: `${SHOTS}/balance-none-${lang}.png` });
      await expect.poll(() => page.getByTestId('balance-none').innerText()).toContain(text);
      await expectNoRawKeys(page);
    }
    await page.screenshot({ path: `${SHOTS}/balance-none-ru-1400.png` });
    await page.getByTestId('lang-uz').click();
    await expect.poll(() => page.getByTestId('lang-uz').getAttribute('aria-pressed')).toBe('true');
    expect(problems.errors).toEqual([]);
  });
});
