import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AxeLog } from '../../e2e/axe';
import { clickMapAt, getJson, LANGS, launch, mapIdle, newContext, watch, type Lang } from './support';

/**
 * axe-core over every page of the public site (issue 29; e2e/axe.ts, docs/accessibility.md): each
 * route of the site in uz at 1280 px — with a row's page for the news, the tree passport, a park, a
 * residents' area and a document check — the planting form with its errors shown, and the map
 * with a popup open; in Uzbek Cyrillic and ru a sample (the landing, the map, a statistics page, the
 * planting form, a tree passport), and the landing at 360 px with its menu open. The counts are
 * printed a page a line and written to artifacts/e2e/axe-public.json; a serious or critical
 * violation fails, naming the page, the rule and the nodes.
 */
const baseUrl = inject('publicBaseUrl');
const seed = inject('publicSeed');

interface Rows {
  rows: { id: number; location?: { lat: number; lng: number } }[];
}

let browser: Browser;
const log = new AxeLog('public');
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  log.write();
  await browser?.close();
});

/** Opens a page of the site and waits until it has loaded what it shows: its title, no spinner, its map idle. */
async function show(page: Page, hash: string): Promise<void> {
  await page.goto(`${baseUrl}/#${hash}`);
  await page.locator('main [data-page-title]').first().waitFor();
  await page
    .locator('main .loading')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
  if (await page.locator('main [data-testid=map]').count()) await mapIdle(page);
}

async function firstId(path: string): Promise<number | undefined> {
  return (await getJson<Rows>(baseUrl, `${path}?perPage=1`)).rows[0]?.id;
}

/**
 * Every route of the site (public-site/src/App.tsx): the pages of its menu as the back-office keeps
 * it (every statistics page among them), the ones no menu item names, a row's page with a real row.
 */
async function routes(): Promise<string[]> {
  const news = await firstId('/api/public/entities/publications');
  const park = await firstId('/api/public/entities/green-areas');
  const area = await firstId('/api/public/entities/resident-planting-areas');
  const menu = (await getJson<{ rows: { path: string }[] }>(baseUrl, '/api/public/entities/menu?perPage=100')).rows.map((r) => r.path);
  const own = [
    '/',
    '/login',
    '/my-gardens',
    '/news',
    `/news/${news}`,
    `/tree/${seed.target.id}`,
    '/map',
    '/resident-planting-areas',
    `/resident-planting-areas/${area}`,
    '/green-area-garden-park',
    `/green-area-garden-park/${park}`,
    '/permits',
    '/illegal-loggers',
    '/population-seedlings',
    '/people-facts',
    '/suggestion',
    '/verify',
    '/verify/K7MQ2-X9RTD',
    '/about',
    '/contacts',
    '/error-404',
    '/error-403',
    '/error',
  ];
  return [...new Set([...own, ...menu])];
}

describe('axe-core over the public site', () => {
  it('finds no serious or critical violation on any page in uz', async () => {
    const ctx = await newContext(browser, baseUrl, { lang: 'uz', mapTiles: '' });
    const problems: string[] = [];
    try {
      const page = await ctx.newPage();
      const errors = watch(page);
      for (const path of await routes()) {
        await show(page, path);
        problems.push(...(await log.check(page, `uz ${path}`)));
      }
      // the planting form sent empty: its errors shown beside the fields
      await show(page, '/population-seedlings');
      await page.getByTestId('submit').click();
      await page.getByTestId('error-first_name').waitFor();
      problems.push(...(await log.check(page, 'uz /population-seedlings with errors')));
      // the map with a layer's popup open (a residents' area, the plantings off so that nothing covers it)
      const area = (await getJson<Rows>(baseUrl, '/api/public/entities/resident-planting-areas?perPage=1')).rows[0];
      await show(page, `/map?lat=${area.location!.lat}&lng=${area.location!.lng}&z=13`);
      const map = page.getByTestId('map');
      const box = page.getByTestId('layer-resident_areas');
      if (!(await box.isVisible())) await page.locator('[data-testid=layer-switch] summary').click();
      await box.check();
      await expect.poll(() => map.getAttribute('data-layer-state-resident_areas')).toBe('idle');
      await page.getByTestId('layer-trees').uncheck();
      await clickMapAt(page, area.location!.lng, area.location!.lat);
      await page.getByTestId('map-popup').waitFor();
      problems.push(...(await log.check(page, 'uz /map with a popup open')));
      expect(errors.errors).toEqual([]);
    } finally {
      await ctx.close();
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('finds none on a sample of pages in uk and ru, nor on a phone with the menu open', async () => {
    const problems: string[] = [];
    for (const lang of LANGS.filter((l): l is Exclude<Lang, 'uz'> => l !== 'uz')) {
      const ctx = await newContext(browser, baseUrl, { lang, mapTiles: '' });
      try {
        const page = await ctx.newPage();
        for (const path of ['/', '/map', '/region-plantings-statistics', '/population-seedlings', `/tree/${seed.target.id}`]) {
          await show(page, path);
          problems.push(...(await log.check(page, `${lang} ${path}`)));
        }
      } finally {
        await ctx.close();
      }
    }
    const phone = await newContext(browser, baseUrl, { width: 360, height: 740, lang: 'uz', mapTiles: '' });
    try {
      const page = await phone.newPage();
      await show(page, '/');
      await page.getByTestId('menu-button').click();
      await page.locator('.menu-panel a[href="#/population-seedlings"]').first().waitFor();
      problems.push(...(await log.check(page, 'uz / at 360 px, the menu open')));
    } finally {
      await phone.close();
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
