import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys } from './support';

/**
 * The fund's reports in the back-office (docs/reports.md): three of them opened from their menu
 * routes; the period changed in the parameters bar (kept in the URL, asked of the API); a drill
 * link from a figure to the payments behind it; and the Excel file read back with the same total
 * as the screen.
 */

const baseUrl = inject('baseUrl');
const today = new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10);
const year = Number(today.slice(0, 4));
const month = Number(today.slice(5, 7));
const quarter = `q${Math.ceil(month / 3)}`;
const uid = `${Date.now() % 100000}`.padStart(5, '0');
const SHOTS = process.env.FUND_REPORT_SHOTS; // screenshots for a person to look at, when asked for

let session: AdminSession;
let page: Page;
let dir: string;
let subject: { id: number; name: string };
let region: { id: number };
const AMOUNTS = ['1250000.50', '2000000.25', '333.33'];

interface ReportAnswer {
  rows: Record<string, unknown>[];
  totals: Record<string, string | number>;
}

const rows = () => page.getByTestId('report-row');
/** What a table cell shows, as the number it is: space (or narrow space) thousands, a point before the decimals. */
const number = (text: string) => text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
const totalOnScreen = async (column: string) =>
  number(await page.getByTestId('report-totals').locator(`[data-column=${column}]`).innerText());

async function openReport(path: string) {
  // a whole page load: a change of the hash alone keeps the last report's table on screen until the
  // new one answers, and a row of it (all subjects) was read as the new report's
  await page.goto('about:blank');
  await page.goto(`${baseUrl}/admin/#/${path}`);
  await page.getByTestId('page-screen-report').waitFor();
  await page.locator('[data-testid=report-table], [data-testid=report-empty], [data-testid=report-error]').first().waitFor();
  await page
    .getByTestId('report-loading')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
  expect(await page.getByTestId('report-error').count()).toBe(0);
}

async function excelTotals(report: string): Promise<Record<string, unknown>> {
  const download = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByTestId('report-export').click();
  const file = join(dir, (await download).suggestedFilename());
  await (await download).saveAs(file);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const values = book.worksheets[0]
    .getSheetValues()
    .filter(Boolean)
    .map((row) => (row as unknown[]).slice(1));
  const headerCells = await page.getByTestId('report-table').locator('thead th').allInnerTexts();
  const header = values.findIndex((row) => row[0] === headerCells[0]);
  expect(header, `${report}: the header row in the Excel file`).toBeGreaterThan(0);
  const columns = await page
    .getByTestId('report-table')
    .locator('thead th')
    .evaluateAll((ths) => ths.map((th) => th.getAttribute('data-column')));
  const last = values[values.length - 1];
  return Object.fromEntries(columns.map((c, i) => [c, last[i]]));
}

async function snap(name: string) {
  if (!SHOTS) return;
  for (const width of [1400, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

beforeAll(async () => {
  session = await adminSession(baseUrl, 'fund-reports');
  ({ page, dir } = session);
  [region] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/regions?range=[0,0]&sort=["id","ASC"]');
  const [category] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/subject-categories?range=[0,0]');
  const name = `“Hisobotlar ${uid}” MChJ`;
  const created = await api<{ id: number }>(page, '/api/ecofund/subject', 'uz', {
    method: 'POST',
    body: { inn: `7${uid}002`, name, region_id: region.id, category_id: category.id },
  });
  subject = { id: created.id, name };
  const [income] = await api<{ id: number }[]>(
    page,
    `/api/ecofund-sprav/income-types?filter=${encodeURIComponent(JSON.stringify({ q: '3450715' }))}`,
  );
  const stack = await api<{ id: number }>(page, '/api/ecofund/stack-payments', 'uz', {
    method: 'POST',
    body: { number: `FR-${uid}`, statement_date: today },
  });
  const ids: number[] = [];
  for (const [i, amount] of AMOUNTS.entries()) {
    const p = await api<{ id: number }>(page, '/api/ecofund/payments', 'uz', {
      method: 'POST',
      body: {
        stack_id: stack.id,
        paid_on: today,
        number: `FR-${uid}-${i}`,
        amount,
        payment_type: 'card',
        income_type_id: income.id,
        payer: name,
      },
    });
    ids.push(p.id);
  }
  await api(page, '/api/ecofund/payments/actions/attach', 'uz', { method: 'POST', body: { ids, subject_id: subject.id } });
  await api(page, '/api/ecofund/payments/actions/confirm', 'uz', { method: 'POST', body: { ids } });
}, 240_000);

afterAll(async () => {
  await session?.close();
});

describe('the fund formation by income code', () => {
  it('opens from its menu route with the year in Tashkent and totals equal to the API', async () => {
    await openReport('ecofund-reports/formation-report-one');
    await expect.poll(() => page.getByTestId('report-title').innerText()).not.toBe('');
    expect(await page.getByTestId('report-title').innerText()).not.toMatch(/report\./);
    expect(await page.locator('.ra-input-year [role=combobox]').innerText()).toContain(String(year));
    const json = await api<ReportAnswer>(page, `/api/reports/formation-report-one?year=${year}`);
    expect(await totalOnScreen('amount')).toBe(json.totals.amount);
    expect(await totalOnScreen('fund')).toBe(json.totals.fund);
    await snap('formation-report-one');
    await expectNoRawKeys(page);
  });

  it('runs again for this quarter, kept in the URL', async () => {
    const asked = page.waitForResponse(
      (r) => r.url().includes('/api/reports/formation-report-one?') && r.url().includes(`quarter=${quarter}`),
    );
    await page.locator('.ra-input-quarter [role=combobox]').click();
    await page.locator(`[role=listbox] [data-value=${quarter}]`).click();
    expect((await asked).status()).toBe(200);
    await expect.poll(() => page.evaluate(() => location.hash)).toContain(`quarter=${quarter}`);
    await page
      .getByTestId('report-loading')
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    const json = await api<ReportAnswer>(page, `/api/reports/formation-report-one?year=${year}&quarter=${quarter}`);
    await expect.poll(() => totalOnScreen('amount')).toBe(json.totals.amount);
    // the quarter has a caption of its own, not its code
    expect(await page.locator('.ra-input-quarter [role=combobox]').innerText()).not.toBe(quarter);
  });

  it('drills from the figure of one income code to the payments behind it', async () => {
    await openReport(`ecofund-reports/formation-report-one?year=${year}&subject_id=${subject.id}`);
    const row = rows().filter({ hasText: '3450715' });
    await row.first().waitFor();
    expect(await row.first().locator('[data-column=payments]').innerText()).toBe('3');
    expect(number(await row.first().locator('[data-column=amount]').innerText())).toBe('3250334.08');
    // the split by the income type's percentages (26 % budget, 74 % fund), as the API has it
    const json = await api<ReportAnswer>(page, `/api/reports/formation-report-one?year=${year}&subject_id=${subject.id}`);
    expect(number(await row.first().locator('[data-column=budget]').innerText())).toBe(json.rows[0].budget);
    expect(number(await row.first().locator('[data-column=fund]').innerText())).toBe(json.rows[0].fund);
    await row.first().getByTestId('drill-link').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('#/ecofund-reports/payments-rows/');
    await page.getByTestId('entity-list').waitFor();
    const listRows = page.locator('tbody tr.RaDatagrid-row');
    await expect.poll(() => listRows.count()).toBe(3);
    for (const i of [0, 1, 2]) expect(await listRows.nth(i).innerText()).toContain(`FR-${uid}-`);
    // the dates of the figure are named by their field, not by the parameter's name
    expect(await page.getByTestId('fixed-filter-from_paid_on').innerText()).toMatch(/ ≥: \d{4}-01-01$/);
    expect(await page.getByTestId('fixed-filter-to_paid_on').innerText()).not.toContain('to_paid_on');
    await snap('formation-report-one-drill');
    await expectNoRawKeys(page);
  });

  it('downloads the Excel file with the total of the screen', async () => {
    await openReport(`ecofund-reports/formation-report-one?year=${year}`);
    const screen = await totalOnScreen('amount');
    const excel = await excelTotals('formation-report-one');
    expect(Number(excel.amount).toFixed(2)).toBe(screen);
    expect(Number(excel.fund).toFixed(2)).toBe(await totalOnScreen('fund'));
  });
});

describe('two more fund reports', () => {
  it('the formation by region: the region of the payments carries them, and the Excel file agrees', async () => {
    await openReport(`ecofund-reports/pkm290?year=${year}&month=${month}`);
    // the month has its name, not its number
    expect(await page.locator('.ra-input-month [role=combobox]').innerText()).not.toBe(String(month));
    const json = await api<ReportAnswer>(page, `/api/reports/pkm290?year=${year}&month=${month}`);
    expect(await totalOnScreen('amount')).toBe(json.totals.amount);
    expect(Number(json.totals.amount)).toBeGreaterThanOrEqual(3250334.08);
    await snap('pkm290');
    const excel = await excelTotals('pkm290');
    expect(Number(excel.amount).toFixed(2)).toBe(await totalOnScreen('amount'));
    await expectNoRawKeys(page);
  });

  it("compensation accrued against paid: the paid total is the fund's compensation income, on screen and in Excel", async () => {
    await openReport(`ecofund-reports/report-compensation-payments-analis?year=${year}`);
    const json = await api<ReportAnswer>(page, `/api/reports/report-compensation-payments-analis?year=${year}`);
    const formation = await api<ReportAnswer>(page, `/api/reports/formation-report-one?year=${year}`);
    const compensation = formation.rows.find((r) => r.income_code === '3450715');
    expect(json.totals.paid).toBe(compensation?.amount);
    expect(await totalOnScreen('paid')).toBe(json.totals.paid);
    // another year: asked of the API and kept in the URL
    const asked = page.waitForResponse(
      (r) => r.url().includes('/api/reports/report-compensation-payments-analis?') && r.url().includes(`year=${year - 1}`),
    );
    await page.locator('.ra-input-year [role=combobox]').click();
    await page.getByRole('option', { name: String(year - 1), exact: true }).click();
    expect((await asked).status()).toBe(200);
    await expect.poll(() => page.evaluate(() => location.hash)).toContain(`year=${year - 1}`);
    await page
      .getByTestId('report-loading')
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    const before = await api<ReportAnswer>(page, `/api/reports/report-compensation-payments-analis?year=${year - 1}`);
    await expect.poll(() => totalOnScreen('paid')).toBe(before.totals.paid);
    await snap('report-compensation-payments-analis');
    const excel = await excelTotals('report-compensation-payments-analis');
    expect(Number(excel.paid).toFixed(2)).toBe(await totalOnScreen('paid'));
  });
});
