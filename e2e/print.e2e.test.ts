import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, type PageProblems, SHOTS } from './support';
import { pdfText } from './pdf-text';

/**
 * Every printable page, printed to PDF by Chromium as a user's "Print" would (`page.pdf()` with
 * the page's own `@page` size): the compensation report's sheet (A4, with every ingredient's
 * columns to the amount, headed by its caption and number), a tree's passport (A5) and each
 * report screen of the menu; the figures on screen must be on the paper, and the sheet must be
 * the size and turn the page asks for.
 */

const baseUrl = inject('baseUrl');
const MM = 72 / 25.4;
/** text compared without its spaces: the PDF's runs split and join words as the glyphs are placed */
const squash = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, '');

interface Report {
  id: number;
  amount: string;
  ingredients: { amount: string; coefficient2: string }[];
}
interface MetaRoute {
  route: string;
  report?: string;
  allowed: boolean;
}

let session: AdminSession;
let page: Page;
let problems: PageProblems;

beforeAll(async () => {
  session = await adminSession(baseUrl, 'print');
  ({ page, problems } = session);
  await page.setViewportSize({ width: 1400, height: 900 });
});
afterAll(async () => {
  await session?.close();
});

/** The page printed: its PDF's text (squashed) and sheet size in millimetres. */
async function print(p: Page): Promise<{ text: string; pages: number; size: [number, number] }> {
  await p.emulateMedia({ media: 'print' });
  const pdf = await p.pdf({ preferCSSPageSize: true, printBackground: true });
  await p.emulateMedia({ media: 'screen' });
  const { pages, sizes } = pdfText(pdf);
  return { text: squash(pages.join('\n')), pages: pages.length, size: [Math.round(sizes[0][0] / MM), Math.round(sizes[0][1] / MM)] };
}

/** The texts of a table's cells on screen (header, body, footer), to look for on paper. */
const cellTexts = (p: Page, table: string) =>
  p.locator(`${table} th, ${table} td`).evaluateAll((cells) => cells.map((c) => (c as HTMLElement).innerText.trim()).filter(Boolean));

describe('printed pages', () => {
  it('the compensation report fits A4 portrait with every column to the amount, titled by its caption and number', async () => {
    // a demo report with the most ingredient lines
    const list = await api<Report[]>(page, `/api/ecofund/subject-report-yearly?range=[0,49]&sort=${encodeURIComponent('["id","asc"]')}`);
    const full = await Promise.all(list.slice(0, 12).map((r) => api<Report>(page, `/api/ecofund/subject-report-yearly/${r.id}`)));
    const report = full.sort((a, b) => b.ingredients.length - a.ingredients.length)[0];
    expect(report.ingredients.length).toBeGreaterThan(1);
    await page.goto(`${baseUrl}/admin/#/print/subject-report-yearly/${report.id}`);
    const table = page.getByTestId('print-table-ingredients');
    await table.locator('tbody tr').first().waitFor();
    const heading = await page.getByTestId('print-heading').innerText();
    expect(heading).toMatch(new RegExp(`^\\D+ № ${report.id}$`));
    expect(heading).not.toContain(`${report.id} № ${report.id}`);
    expect(await page.title()).toBe(heading);
    expect(await page.getByTestId('print-page').getAttribute('data-orientation')).toBe('portrait');
    const cells = await cellTexts(page, '[data-testid=print-table-ingredients]');
    const amounts = await table
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => (r.lastElementChild as HTMLElement).innerText.trim()));
    expect(amounts).toHaveLength(report.ingredients.length);
    // every value of the sheet, once each has come: a reference (the subject) is its own request,
    // answered after the table's rows may be (the sheet shows only filled fields: none stays
    // empty but a yes/no, which is an icon)
    const sheet = page.locator('[data-testid=generic-print] dd');
    await expect
      .poll(() => sheet.evaluateAll((dd) => dd.filter((d) => !(d as HTMLElement).innerText.trim() && !d.querySelector('svg')).length))
      .toBe(0);
    const values = await sheet.evaluateAll((dd) => dd.map((d) => (d as HTMLElement).innerText.trim()));
    expect(values.length).toBeGreaterThan(4);
    const printed = await print(page);
    expect(printed.size).toEqual([210, 297]);
    expect(printed.text).toContain(squash(heading));
    for (const c of cells) expect(printed.text, `"${c}" on the paper`).toContain(squash(c));
    // the last two columns: coefficient 2 and the amount, each line's and the report's
    for (const a of amounts) expect(printed.text).toContain(squash(a));
    // and every value of the sheet: the report's base value and total among them
    for (const v of values) expect(printed.text, `"${v}" on the paper`).toContain(squash(v));
    await page.screenshot({ path: `${SHOTS}/print-report-1400.png`, fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.screenshot({ path: `${SHOTS}/print-report-360.png`, fullPage: true });
    await page.setViewportSize({ width: 1400, height: 900 });
    await expectNoRawKeys(page);
  });

  it("a tree's passport fits A5", async () => {
    const [planting] = await api<{ id: number }[]>(page, '/api/ecofund-plantings/plantings?range=[0,0]');
    await page.goto(`${baseUrl}/admin/#/print/plantings/${planting.id}`);
    await page.getByTestId('print-sheet').waitFor();
    await expect.poll(() => page.getByTestId('print-sheet').innerText()).toMatch(/\d/);
    const sheet = await page.getByTestId('print-sheet').innerText();
    const printed = await print(page);
    expect(printed.size).toEqual([148, 210]);
    expect(printed.pages).toBe(1);
    for (const line of sheet
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /\d/.test(l)))
      expect(printed.text, `"${line}" on the paper`).toContain(squash(line));
  });

  it('every report screen of the menu prints its figures, on A4 turned as wide as its table', { timeout: 300_000 }, async () => {
    const meta = await api<{ routes: MetaRoute[] }>(page, '/api/meta');
    const routes = meta.routes.filter((r) => r.report && r.allowed && !r.route.includes(':'));
    expect(routes.length).toBeGreaterThan(3);
    for (const r of routes) {
      await page.goto(`${baseUrl}/admin/#${r.route.startsWith('/') ? '' : '/'}${r.route}`);
      const table = page.getByTestId('report-table');
      await Promise.race([table.waitFor(), page.getByTestId('report-empty').waitFor()]);
      if (!(await table.count())) continue;
      await table.locator('tbody tr').first().waitFor();
      const columns = await table.locator('thead tr').last().locator('th').count();
      // the header, the first rows and the totals: what a reader checks first
      const cells = await table.evaluate((t) =>
        Array.from(t.querySelectorAll('thead th, tbody tr:nth-child(-n+3) td, tfoot td'))
          .map((c) => (c as HTMLElement).innerText.trim())
          .filter(Boolean),
      );
      const printed = await print(page);
      expect(printed.size, r.route).toEqual(columns > 6 ? [297, 210] : [210, 297]);
      for (const c of cells) expect(printed.text, `${r.route}: "${c}" on the paper`).toContain(squash(c));
    }
    expect(problems.errors).toEqual([]);
  });
});
