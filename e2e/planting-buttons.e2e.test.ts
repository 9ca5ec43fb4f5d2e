import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, pageTitle, type PageProblems } from './support';

/**
 * Issue 11's own case: the plantings list has a route right under it (`plantings/:params`, what
 * report drill links open), which once took "Qoʻshish" (`…/plantings/create`) and "Tahrirlash"
 * (`…/plantings/655`) and showed a list instead of the form. The buttons open the forms; a
 * planting is named by its species, never by the species' id; the passport puts a person under
 * the field's own caption.
 */

interface Meta {
  entities: { name: string; path: string }[];
}

const baseUrl = inject('baseUrl');
const LIST = 'ecofund-plantings/plantings';
const today = new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10);

let session: AdminSession;
let page: Page;
let problems: PageProblems;
let planting: { id: number; species_id: number };
let speciesName: string;

const lists = () => page.locator('#main-content [data-testid=entity-list], #main-content [data-testid=list-empty]');

beforeAll(async () => {
  session = await adminSession(baseUrl, 'planting-buttons');
  ({ page, problems } = session);
  const meta = await api<Meta>(page, '/api/meta');
  const path = (name: string) => meta.entities.find((e) => e.name === name)!.path;
  const [species] = await api<{ id: number; name: { uz: string } }[]>(page, `${path('tree-species')}?range=[0,0]&sort=["id","DESC"]`);
  speciesName = species.name.uz;
  const [region] = await api<{ id: number }[]>(page, `${path('regions')}?range=[0,0]`);
  // a planting a person answers for, with no organisation
  planting = await api<{ id: number; species_id: number }>(page, path('plantings'), 'uz', {
    method: 'POST',
    body: {
      species_id: species.id,
      count: 1,
      planted_on: today,
      region_id: region.id,
      location: { lat: 41.3, lng: 69.27 },
      responsible: 'Karimova Dilnoza',
    },
  });
});

afterAll(async () => {
  await session?.close();
});

describe('the plantings list under its `:params` route', () => {
  it('opens the create form from "Qoʻshish", not a list', async () => {
    await page.goto(`${baseUrl}/admin/#/${LIST}`);
    await lists().first().waitFor();
    await page.getByTestId('create-button').click();
    await page.getByTestId('entity-form').waitFor();
    expect(page.url()).toMatch(/#\/ecofund-plantings\/plantings\/create$/);
    expect(await lists().count()).toBe(0);
    expect(await page.locator('#main-content input[name=count]').count()).toBe(1);
    expect(await pageTitle(page)).not.toMatch(/tanlov/);
  });

  it('opens a row\'s page, then its form from "Tahrirlash", both titled by the species', async () => {
    await page.goto(`${baseUrl}/admin/#/${LIST}/${planting.id}/show`);
    await page.getByTestId('entity-show').waitFor();
    await expect.poll(() => pageTitle(page)).toBe(`Ekilgan daraxtlar — ${speciesName}`);
    await page.getByTestId('edit-button').click();
    await page.getByTestId('entity-form').waitFor();
    expect(page.url()).toMatch(new RegExp(`#/ecofund-plantings/plantings/${planting.id}/edit$`));
    expect(await lists().count()).toBe(0);
    await expect.poll(() => pageTitle(page)).toBe(`Ekilgan daraxtlar — ${speciesName}`);
    expect(await pageTitle(page)).not.toMatch(new RegExp(`— ${planting.species_id}$`));
    // the form saves and goes back to the list
    await page.locator('#main-content input[name=count]').fill('2');
    await page.getByTestId('save-button').click();
    await lists().first().waitFor();
    expect(page.url()).toMatch(/#\/ecofund-plantings\/plantings$/);
  });

  it('sends a bare row number under the `:params` route (an old "Tahrirlash" link) to the row\'s page', async () => {
    await page.goto(`${baseUrl}/admin/#/${LIST}/${planting.id}`);
    await page.getByTestId('entity-show').waitFor();
    expect(page.url()).toMatch(new RegExp(`#/ecofund-plantings/plantings/${planting.id}/show$`));
  });

  it('still lists what a `k=v` segment says (the report drill links)', async () => {
    await page.goto(`${baseUrl}/admin/#/${LIST}/${encodeURIComponent(`species_id=${planting.species_id}`)}`);
    await page.getByTestId('entity-list').waitFor();
    await expect.poll(() => page.locator('#main-content tbody tr.RaDatagrid-row').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('entity-form').count()).toBe(0);
  });
});

describe('the passport of a planting a person answers for', () => {
  it('puts the person under the field\'s caption, not "Masʼul tashkilot"', async () => {
    await page.goto(`${baseUrl}/admin/#/print/plantings/${planting.id}`);
    await page.getByTestId('tree-passport').waitFor();
    const value = page.getByTestId('passport-org');
    await expect.poll(() => value.innerText()).toBe('Karimova Dilnoza');
    const label = await value.evaluate((el) => el.previousElementSibling?.textContent?.trim());
    expect(label).toBe('Masʼul shaxs yoki tashkilot');
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });
});
