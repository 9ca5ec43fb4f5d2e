import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, type PageProblems, SHOTS } from './support';

/**
 * The greening reports and the tree passport in the back-office: a report's chart, table and
 * totals; its year in the URL; its Excel file; a drill link from the organisations' report to one
 * organisation's regions, and on to the plantings list filtered by a `:params` segment; and a
 * planting's printed passport with the QR code of its public page.
 */

interface MetaEntity {
  name: string;
  path: string;
}
interface Meta {
  entities: MetaEntity[];
  routes: { route: string; report?: string; entity?: string }[];
}

const baseUrl = inject('baseUrl');
const today = new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10);
const year = Number(today.slice(0, 4));
const uid = `${Date.now() % 100000}`.padStart(5, '0');
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let session: AdminSession;
let page: Page;
let problems: PageProblems;
let dir: string;
let meta: Meta;
let org: { id: number; name: string };
let region: { id: number; name: { uz: string } | string };
let planting: { id: number };

const pathOf = (entity: string) => {
  const e = meta.entities.find((x) => x.name === entity);
  if (!e) throw new Error(`no entity ${entity} in /api/meta`);
  return e.path;
};
const regionName = () => (typeof region.name === 'string' ? region.name : region.name.uz);
const rows = () => page.getByTestId('report-row');
const shotTo = (name: string) => page.screenshot({ path: `${SHOTS}/h3-${name}.png`, fullPage: true });

/** A report's page once its answer is in: the table (or its empty state) and no spinner. */
async function openReport(path: string) {
  await page.goto(`${baseUrl}/admin/#/${path}`);
  await page.getByTestId('page-screen-report').waitFor();
  await page.locator('[data-testid=report-table], [data-testid=report-empty], [data-testid=report-error]').first().waitFor();
  await page
    .getByTestId('report-loading')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

beforeAll(async () => {
  session = await adminSession(baseUrl, 'plantings');
  ({ page, problems, dir } = session);
  meta = await api<Meta>(page, '/api/meta');

  // an organisation with a plan for this year in a region, and a planting of its own there
  [region] = await api<(typeof region)[]>(page, `${pathOf('regions')}?range=[0,0]&sort=["id","ASC"]`);
  const [species] = await api<{ id: number }[]>(page, `${pathOf('tree-species')}?range=[0,0]`);
  const name = `Sinov yashil tashkiloti ${uid}`;
  const created = await api<{ id: number }>(page, pathOf('planting-orgs'), 'uz', {
    method: 'POST',
    body: {
      name: { uz: name, uk: `Синов яшил ташкилоти ${uid}`, ru: `Тестовая зелёная организация ${uid}` },
      kind: 'organisation',
      region_id: region.id,
      is_active: true,
    },
  });
  org = { id: created.id, name };
  await api(page, pathOf('planting-plans'), 'uz', { method: 'POST', body: { year, region_id: region.id, org_id: org.id, trees: 120 } });
  planting = await api<{ id: number }>(page, pathOf('plantings'), 'uz', {
    method: 'POST',
    body: {
      species_id: species.id,
      count: 40,
      planted_on: today,
      region_id: region.id,
      location: { lat: 41.3111, lng: 69.2797 },
      place_type: 'park',
      place: `Sinov bogʻi ${uid}`,
      height_m: '3.50',
      circumference_cm: '45.0',
      responsible: 'Sinov masʼuli',
      org_id: org.id,
    },
  });
}, 240_000);

afterAll(async () => {
  await session?.close();
});

describe('a greening report', () => {
  it('shows the regions green rating: a drawn chart, rows and totals', async () => {
    await openReport('ecofund-plantings/regions-green-rating');
    await expect.poll(() => page.getByTestId('report-title').innerText()).not.toBe('');
    const canvas = page.locator('[data-testid=report-chart] canvas');
    await canvas.waitFor();
    await expect.poll(() => canvas.getAttribute('data-drawn')).toBe('true');
    expect(await canvas.isVisible()).toBe(true);
    expect(await rows().count()).toBeGreaterThan(0);
    await expect.poll(() => rows().filter({ hasText: regionName() }).count()).toBeGreaterThan(0);
    const totals = page.getByTestId('report-totals');
    expect(await totals.isVisible()).toBe(true);
    expect(await totals.innerText()).toMatch(/\d/);
    // numbers as the table shows them: space thousands, two decimals for percentages and hectares
    const percent = await rows().first().locator('[data-column=percent]').innerText();
    expect(percent).toMatch(/^(\d{1,3}([\s\u00a0]\d{3})*,\d{2})?$/);
    // the current year in Tashkent is the default
    expect(await page.locator('.ra-input-year [role=combobox]').innerText()).toContain(String(year));
    await shotTo('regions-green-rating');
    await expectNoRawKeys(page);
  });

  it('runs again for another year, kept in the URL', async () => {
    const asked = page.waitForResponse(
      (r) => r.url().includes('/api/reports/regions-green-rating?') && r.url().includes(`year=${year - 1}`),
    );
    await page.locator('.ra-input-year [role=combobox]').click();
    await page.getByRole('option', { name: String(year - 1), exact: true }).click();
    expect((await asked).status()).toBe(200);
    await expect.poll(() => page.evaluate(() => location.hash)).toContain(`year=${year - 1}`);
    await page
      .getByTestId('report-loading')
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    // the same address opens the same year
    await page.reload();
    await page.getByTestId('page-screen-report').waitFor();
    await expect.poll(() => page.locator('.ra-input-year [role=combobox]').innerText()).toContain(String(year - 1));
  });

  it('downloads the report as an Excel file with the same parameters', async () => {
    await openReport(`ecofund-plantings/regions-green-rating?year=${year}`);
    const answered = page.waitForResponse((r) => r.url().includes('/api/reports/regions-green-rating/export'));
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByTestId('report-export').click();
    const res = await answered;
    expect(res.status()).toBe(200);
    expect(res.url()).toContain(`year=${year}`);
    expect(res.headers()['content-type']).toContain(XLSX);
    const file = join(dir, (await download).suggestedFilename());
    expect(file).toMatch(/\.xlsx$/);
    await (await download).saveAs(file);
    // an xlsx is a zip: PK\x03\x04
    expect([...readFileSync(file).subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
  });
});

describe('drill links', () => {
  it('go from the organisations to one organisation by region, and on to its plantings', async () => {
    await openReport(`ecofund-plantings/plan-execution-by-org?year=${year}`);
    const link = page.getByTestId('drill-link').filter({ hasText: org.name });
    await link.waitFor();
    await shotTo('plan-execution-by-org');
    await link.click();
    await expect
      .poll(() => page.evaluate(() => location.hash))
      .toContain(`plan-execution-by-org/${encodeURIComponent(`org_id=${org.id};year=${year}`)}`);
    await page.locator(`[data-testid=page-screen-report][data-report=plan-execution-by-org-region]`).waitFor();
    await page.getByTestId('report-table').waitFor();
    const row = rows().filter({ hasText: regionName() });
    await row.first().waitFor();
    expect(await row.first().locator('[data-column=plan]').innerText()).toBe('120');
    expect(await row.first().locator('[data-column=planted]').innerText()).toBe('40');
    // the organisation of the segment is in the parameters bar
    await expect.poll(() => page.locator('.ra-input-org_id input').inputValue()).toBe(org.name);
    await shotTo('plan-execution-by-org-region');
    await expectNoRawKeys(page);
  });

  it('open an entity list filtered by a :params segment', async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund-plantings/plantings/${encodeURIComponent(`org_id=${org.id};region_id=${region.id}`)}`);
    await page.getByTestId('entity-list').waitFor();
    const listRows = page.locator('tbody tr.RaDatagrid-row');
    await expect.poll(() => listRows.count()).toBe(1);
    expect(await listRows.first().innerText()).toContain(String(planting.id));
  });
});

describe('a tree passport', () => {
  it("prints from a planting's page with the QR code of its public page", async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund-plantings/plantings/${planting.id}/show`);
    await page.getByTestId('entity-show').waitFor();
    await page.getByTestId('print-passport').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/print/plantings/${planting.id}`);
    await page.getByTestId('tree-passport').waitFor();
    // no app bar or menu around the sheet
    expect(await page.locator('header.MuiAppBar-root').count()).toBe(0);
    const qr = page.getByTestId('qr-code');
    await expect.poll(() => qr.getAttribute('data-ready')).toBe('true');
    expect(await qr.locator('svg').count()).toBe(1);
    expect(await qr.getAttribute('data-url')).toBe(`${baseUrl}/#/tree/${planting.id}`);
    expect(await page.getByTestId('passport-url').innerText()).toBe(`${baseUrl}/#/tree/${planting.id}`);
    await expect.poll(() => page.getByTestId('passport-species').innerText()).toMatch(/\S+\s+\S+/);
    expect(await page.getByTestId('passport-height').innerText()).toBe('3,50 m');
    expect(await page.getByTestId('passport-circumference').innerText()).toBe('45,0 sm');
    expect(await page.getByTestId('passport-dbh').innerText()).toBe('14,3 sm');
    expect(await page.getByTestId('passport-planted').innerText()).toBe(today.split('-').reverse().join('.'));
    await expect.poll(() => page.getByTestId('passport-region').innerText()).toContain(regionName());
    await expect.poll(() => page.getByTestId('passport-org').innerText()).toBe(org.name);
    await page.screenshot({ path: `${SHOTS}/h3-passport.png`, fullPage: true });
    // as printed: the sheet alone
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByTestId('print-now').isVisible()).toBe(false);
    await page.screenshot({ path: `${SHOTS}/h3-passport-print.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });
});
