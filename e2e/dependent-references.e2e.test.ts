import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, dataSettled, expectNoRawKeys, launch, shot, signedIn } from './support';

/**
 * References that depend on another field of the form (`within`, docs/metadata.md), on a subject's
 * create form: the region picker offers only the regions of the caller's scope (the demo `fund`
 * user: their one region), the district picker only the chosen region's districts, and a district
 * chosen under one region is emptied when the region changes to another (the administrator, who
 * may choose any region).
 */

const baseUrl = inject('baseUrl');
let browser: Browser;

interface Named {
  id: number;
  name: { uz: string } | string;
  region_id?: number;
}
const uz = (r: Named) => (typeof r.name === 'string' ? r.name : r.name.uz);

/** The options an autocomplete offers when opened without typing (its first page). */
async function optionsOf(page: Page, name: string): Promise<string[]> {
  const input = page.locator(`input[name="${name}"]`);
  await input.click();
  const options = page.locator('[role=listbox] [role=option]');
  await options.first().waitFor();
  // the list settles once its request (with the filter of the moment) is answered
  await dataSettled(page);
  const texts = (await options.allInnerTexts()).map((t) => t.trim());
  await page.keyboard.press('Escape');
  return texts;
}

async function pick(page: Page, name: string, text: string): Promise<void> {
  const input = page.locator(`input[name="${name}"]`);
  await input.click();
  await input.fill(text.slice(0, 5));
  await page.getByRole('option', { name: text, exact: true }).first().click();
  await expect.poll(() => input.inputValue()).toBe(text);
}

async function openCreate(page: Page): Promise<void> {
  await page.goto(`${baseUrl}/admin/#/ecofund/subject/create`);
  await page.getByTestId('save-button').waitFor();
}

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("a subject's region and district", () => {
  it('the fund user is offered their region only, and then only its districts', async () => {
    const { page, problems, close } = await signedIn(browser, baseUrl, 'fund');
    const regions = await api<Named[]>(page, '/api/ecofund-sprav/regions?range=[0,99]');
    expect(regions).toHaveLength(1);
    const [region] = regions;
    const districts = await api<Named[]>(
      page,
      `/api/ecofund-sprav/areas?range=[0,99]&filter=${encodeURIComponent(JSON.stringify({ region_id: region.id }))}`,
    );
    expect(districts.length).toBeGreaterThan(1);
    const own = new Set(districts.map(uz));

    await openCreate(page);
    expect(await optionsOf(page, 'region_id')).toEqual([uz(region)]);
    await pick(page, 'region_id', uz(region));
    const offered = await optionsOf(page, 'area_id');
    expect(offered.length).toBeGreaterThan(1);
    expect(offered.filter((t) => !own.has(t))).toEqual([]);
    await page.locator('input[name=inn]').fill('712345678');
    await page.locator('input[name=name]').fill('“Bogʻbon” MChJ');
    // the district picker open under the chosen region
    await page.locator('input[name=region_id]').scrollIntoViewIfNeeded();
    await page.locator('input[name=area_id]').click();
    await page.locator('[role=listbox] [role=option]').first().waitFor();
    await shot(page, 'dependent-references-1400');
    await page.keyboard.press('Escape');
    await pick(page, 'area_id', uz(districts[0]));
    await page.setViewportSize({ width: 360, height: 800 });
    await page.locator('input[name=area_id]').scrollIntoViewIfNeeded();
    await shot(page, 'dependent-references-360');
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
    await close();
  });

  it("empties the district when another region is chosen, and offers that region's districts", async () => {
    const { page, problems, close } = await signedIn(browser, baseUrl, 'admin');
    const [a, b] = await api<Named[]>(page, '/api/ecofund-sprav/regions?range=[0,1]&sort=["id","ASC"]');
    const ofRegion = async (r: Named) =>
      new Set(
        (
          await api<Named[]>(
            page,
            `/api/ecofund-sprav/areas?range=[0,99]&filter=${encodeURIComponent(JSON.stringify({ region_id: r.id }))}`,
          )
        ).map(uz),
      );
    const [ofA, ofB] = [await ofRegion(a), await ofRegion(b)];
    await openCreate(page);
    await pick(page, 'region_id', uz(a));
    const [first] = await optionsOf(page, 'area_id');
    expect(ofA.has(first)).toBe(true);
    await pick(page, 'area_id', first);
    await pick(page, 'region_id', uz(b));
    // the district of the region before is gone, and the picker offers the new region's
    await expect.poll(() => page.locator('input[name=area_id]').inputValue()).toBe('');
    const offered = await optionsOf(page, 'area_id');
    expect(offered.filter((t) => !ofB.has(t))).toEqual([]);
    expect(problems.errors).toEqual([]);
    await close();
  });
});
