import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  adminToken,
  clickMapAt,
  digits,
  expectNoOverflow,
  expectNoRawKeys,
  getJson,
  LANGS,
  launch,
  mapIdle,
  newContext,
  ROOT,
  shot,
  watch,
  type Lang,
  type Problems,
} from './support';

/**
 * The public site in a real browser against a real server (see global-setup.ts): the landing's
 * live count, the map from the whole country down to one planting and its passport, the
 * statistics' charts and numbers, the planting form's errors and thanks, the moderator's approval
 * showing on the landing page, the people-fact form, the three languages and a 360 px wide screen.
 */
const baseUrl = inject('publicBaseUrl');
const seed = inject('publicSeed');
const dict = (l: Lang) => JSON.parse(readFileSync(join(ROOT, `public-site/src/i18n/${l}.json`), 'utf8')) as Record<string, string>;
const CAPTIONS = { uz: dict('uz'), uk: dict('uk'), ru: dict('ru') };
const HTML_LANG = { uz: 'uz-Latn', uk: 'uz-Cyrl', ru: 'ru' };

interface Summary {
  year: number;
  trees: number;
  plantings: number;
  by_region: { region_id: number; trees: number }[];
}
interface Report {
  rows: unknown[];
  totals: Record<string, number | string>;
}
interface Region {
  id: number;
  centre: { lat: number; lng: number };
}
interface Species {
  id: number;
  latin_name: string;
  name: Record<Lang, string>;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function open(ctx: BrowserContext, hash: string): Promise<{ page: Page; problems: Problems }> {
  const page = await ctx.newPage();
  const problems = watch(page);
  await page.goto(`${baseUrl}/#${hash}`);
  await page.locator('main [data-page-title]').first().waitFor();
  return { page, problems };
}

const text = (page: Page, testId: string) => page.getByTestId(testId).first().innerText();

describe('the landing page', () => {
  let ctx: BrowserContext;
  afterAll(async () => {
    await ctx?.close();
  });

  it('shows this year’s live count from /stats/summary, the chart and the news section, with the map and charts left out of its first load', async () => {
    ctx = await newContext(browser, baseUrl);
    const requested: string[] = [];
    const page = await ctx.newPage();
    page.on('request', (r) => requested.push(r.url()));
    const problems = watch(page);
    await page.goto(`${baseUrl}/`);
    const summary = await getJson<Summary>(baseUrl, '/api/public/stats/summary');
    const seeded = seed.plantings.filter((p) => p.planted_on.startsWith(String(seed.year))).reduce((s, p) => s + p.count, 0);
    expect(summary.trees).toBeGreaterThanOrEqual(seeded);
    await expect.poll(async () => digits(await text(page, 'landing-trees'))).toBe(String(summary.trees));
    expect(digits(await text(page, 'landing-plantings'))).toBe(String(summary.plantings));
    await page.locator('#regions [data-testid=chart-canvas][data-drawn=true]').waitFor();
    // the three newest publications (the demo data has some)
    const news = await getJson<{ rows: { title: string }[]; total: number }>(baseUrl, '/api/public/entities/publications?perPage=3');
    expect(news.total).toBeGreaterThan(0);
    await page.getByTestId('latest-news').waitFor();
    expect(await page.locator('[data-testid=latest-news] [data-testid=news-card]').count()).toBe(Math.min(3, news.total));

    // the first load: index.html preloads neither OpenLayers nor Chart.js nor the chat (fetched after the page's load), and the map's code is never fetched here
    const html = await (await fetch(`${baseUrl}/`)).text();
    const preloaded = [...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) => m[1]);
    expect(preloaded.length).toBeGreaterThan(0);
    for (const p of preloaded) expect(p).not.toMatch(/olkit|MapView|BarChart|chart|ChatWidget/i);
    expect(requested.filter((u) => /olkit|MapView|PointMap|LocationPicker/.test(u))).toEqual([]);
    expect(
      requested.some((u) => /BarChart/.test(u)),
      'the chart chunk loads after the page',
    ).toBe(true);
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });

  it('switches between uz, Ўз and ru, remembers the choice, and looks right in each', async () => {
    const page = ctx.pages()[0];
    for (const lang of LANGS) {
      await page.getByTestId(`lang-${lang}`).click();
      await expect.poll(() => page.locator('h1').first().innerText()).toBe(CAPTIONS[lang]['landing.title']);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(HTML_LANG[lang]);
      expect(await page.getByTestId(`lang-${lang}`).getAttribute('aria-pressed')).toBe('true');
      await page.locator('#regions [data-testid=chart-canvas][data-drawn=true]').waitFor();
      await expectNoRawKeys(page);
      await shot(page, `landing-${lang}`, true);
    }
    await page.reload();
    await expect.poll(() => page.locator('h1').first().innerText()).toBe(CAPTIONS.ru['landing.title']);
    expect(await page.evaluate(() => localStorage.getItem('ecofond.lang'))).toBe('ru');
    await page.getByTestId('lang-uz').click();
  });

  it('scrolls smoothly to a section (1000 ms, 50 px below the top) and to the top on every navigation', async () => {
    const page = ctx.pages()[0];
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('.section-nav a[href="#/#regions"]').click();
    await page.waitForTimeout(350);
    const midway = await page.evaluate(() => [window.scrollY, document.getElementById('regions')!.getBoundingClientRect().top]);
    expect(midway[0], 'still moving after 350 ms').toBeGreaterThan(0);
    expect(midway[1], 'not there yet after 350 ms').toBeGreaterThan(60);
    await page.waitForTimeout(900);
    const top = await page.evaluate(() => document.getElementById('regions')!.getBoundingClientRect().top);
    expect(Math.abs(top - 50)).toBeLessThanOrEqual(2);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await page.locator('.top-nav a[href="#/news"]').click();
    await page.getByTestId('news-list').waitFor();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
  });
});

describe('the map', () => {
  let ctx: BrowserContext;
  afterAll(async () => {
    await ctx?.close();
  });

  it('zooms from the whole country down to a single planting and opens its passport (no base layer)', async () => {
    ctx = await newContext(browser, baseUrl, { mapTiles: '' });
    const calls: URL[] = [];
    const { page, problems } = await open(ctx, '/map');
    page.on('request', (r) => {
      if (r.url().includes('/api/public/map/plantings')) calls.push(new URL(r.url()));
    });
    await page.getByTestId('map-no-base').waitFor();
    let view = await mapIdle(page);
    expect(view.layer).toBe('regions');
    expect(view.zoom).toBeLessThanOrEqual(6);

    const regions = await getJson<Region[]>(baseUrl, '/api/public/regions');
    const region = regions.find((r) => r.id === seed.target.region_id)!;
    type Item = { kind: string; lng: number; lat: number; count: number; id?: number; regionId?: number };
    const items = () => page.getByTestId('map').evaluate((n) => (n as unknown as { __ecofond: { items: () => Item[] } }).__ecofond.items());
    const regionItem = (await items()).find((i) => i.regionId === region.id)!;
    // the region's count is the API's (every year's plantings there, the demo data's too)
    const byRegion = await getJson<{ layer: string; items: number[][] }>(baseUrl, '/api/public/map/plantings?bbox=55,37,74,46&zoom=5');
    expect(regionItem.count).toBe(byRegion.items.find((i) => i[3] === region.id)![2]);
    expect(regionItem.count).toBeGreaterThanOrEqual(seed.target.count);
    expect(regionItem.lng).toBeCloseTo(region.centre.lng, 3);

    for (const lang of LANGS) {
      await page.getByTestId(`lang-${lang}`).click();
      await expect.poll(() => page.locator('h1').innerText()).toBe(CAPTIONS[lang]['page.map']);
      await expectNoRawKeys(page);
      await shot(page, `map-${lang}`);
    }
    await page.getByTestId('lang-uz').click();

    // a click on a cluster zooms in to the next level, until the plantings themselves show
    const layers: string[] = [view.layer];
    let at = { lng: regionItem.lng, lat: regionItem.lat };
    for (let step = 0; step < 6 && view.layer !== 'trees'; step++) {
      const before = view.zoom;
      await clickMapAt(page, at.lng, at.lat);
      await expect.poll(async () => Number(await page.getByTestId('map').getAttribute('data-zoom'))).toBeGreaterThan(before);
      view = await mapIdle(page);
      layers.push(view.layer);
      const near = (await items()).sort(
        (a, b) =>
          Math.hypot(a.lng - seed.target.lng, a.lat - seed.target.lat) - Math.hypot(b.lng - seed.target.lng, b.lat - seed.target.lat),
      )[0];
      expect(near, `something near the planting at zoom ${view.zoom}`).toBeTruthy();
      at = { lng: near.lng, lat: near.lat };
    }
    expect(layers[0]).toBe('regions');
    expect(layers).toContain('cells');
    expect(layers.at(-1)).toBe('trees');
    const tree = (await items()).find((i) => i.id === seed.target.id)!;
    expect(tree.count).toBe(seed.target.count);

    // every view asked with its extent in EPSG:4326 and its zoom
    const last = calls.at(-1)!;
    const [minLng, minLat, maxLng, maxLat] = last.searchParams.get('bbox')!.split(',').map(Number);
    expect(minLng).toBeLessThan(seed.target.lng);
    expect(maxLng).toBeGreaterThan(seed.target.lng);
    expect(minLat).toBeLessThan(seed.target.lat);
    expect(maxLat).toBeGreaterThan(seed.target.lat);
    expect(Number(last.searchParams.get('zoom'))).toBeGreaterThanOrEqual(15);
    await shot(page, 'map-planting-uz');

    await clickMapAt(page, tree.lng, tree.lat);
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/tree/${seed.target.id}`);
    await page.getByTestId('passport').waitFor();
    const species = (await getJson<Species[]>(baseUrl, '/api/public/species')).find((s) => s.id === seed.target.species_id)!;
    expect(await text(page, 'passport-species')).toBe(species.name.uz);
    expect(await page.getByTestId('passport').innerText()).toContain(species.latin_name);
    expect(digits(await page.locator('.props div', { hasText: CAPTIONS.uz['tree.count'] }).locator('dd').innerText())).toBe(
      String(seed.target.count),
    );
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });

  it('drops the base layer and says so when its tiles cannot be loaded', async () => {
    const ctx2 = await newContext(browser, baseUrl); // the default OSM tiles: refused in this sandbox
    try {
      const { page, problems } = await open(ctx2, '/map');
      await page.getByTestId('map-no-base').waitFor();
      expect((await mapIdle(page)).layer).toBe('regions');
      expect(problems.errors).toEqual([]);
    } finally {
      await ctx2.close();
    }
  });
});

describe('the tree passport', () => {
  it('shows the species in three languages, the place on a small map, and prints without the site’s chrome', async () => {
    const ctx = await newContext(browser, baseUrl, { mapTiles: '' });
    try {
      const { page, problems } = await open(ctx, `/tree/${seed.target.id}`);
      await page.getByTestId('passport').waitFor();
      await page.getByTestId('point-map').locator('canvas').first().waitFor();
      const species = (await getJson<Species[]>(baseUrl, '/api/public/species')).find((s) => s.id === seed.target.species_id)!;
      const names = await page.locator('.props.names').innerText();
      for (const l of LANGS) expect(names).toContain(species.name[l]);
      await shot(page, 'passport-uz', true);
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('.site-header').isVisible()).toBe(false);
      expect(await page.locator('.passport .btn').isVisible()).toBe(false);
      expect(await page.locator('.print-only').innerText()).toContain(`/#/tree/${seed.target.id}`);
      await shot(page, 'passport-print-uz', true);
      await page.emulateMedia({ media: 'screen' });

      await page.goto(`${baseUrl}/#/tree/987654321`);
      await page.getByTestId('tree-not-found').waitFor();
      await expectNoRawKeys(page);
      expect(problems.errors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});

describe('the statistics', () => {
  let ctx: BrowserContext;
  afterAll(async () => {
    await ctx?.close();
  });

  const chartDrawn = async (page: Page) => {
    const canvas = page.locator('[data-testid=chart-canvas][data-drawn=true]');
    await canvas.waitFor();
    // something was painted on the canvas
    return canvas.evaluate((c) => {
      const cv = c as HTMLCanvasElement;
      const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
      return n;
    });
  };

  it('by region: a chart on a canvas, and the table’s total is the API’s (the report, and /stats/summary) for the year chosen', async () => {
    ctx = await newContext(browser, baseUrl);
    const { page, problems } = await open(ctx, '/region-plantings-statistics');
    const summary = await getJson<Summary>(baseUrl, '/api/public/stats/summary');
    const report = await getJson<Report>(baseUrl, `/api/public/reports/region-plantings?year=${seed.year}`);
    expect(report.totals.trees).toBe(summary.trees);
    expect(await chartDrawn(page)).toBeGreaterThan(500);
    await expect.poll(async () => digits(await text(page, 'stats-total-trees'))).toBe(String(report.totals.trees));
    expect(await page.locator('[data-testid=stats-table] tbody tr').count()).toBe(report.rows.length);
    for (const lang of LANGS) {
      await page.getByTestId(`lang-${lang}`).click();
      await expect.poll(() => page.locator('h1').innerText()).toBe(CAPTIONS[lang]['page.region_plantings_stats']);
      await chartDrawn(page);
      await expectNoRawKeys(page);
      await shot(page, `stats-${lang}`, true);
    }
    await page.getByTestId('lang-uz').click();

    // last year: only the planting seeded for it
    await page.getByTestId('filter-year').selectOption(String(seed.year - 1));
    await expect.poll(() => page.evaluate(() => window.location.hash)).toContain(`year=${seed.year - 1}`);
    const last = await getJson<Report>(baseUrl, `/api/public/reports/region-plantings?year=${seed.year - 1}`);
    expect(last.totals.trees).toBeGreaterThanOrEqual(seed.lastYearTrees);
    await expect.poll(async () => digits(await text(page, 'stats-total-trees'))).toBe(String(last.totals.trees));
    expect(problems.errors).toEqual([]);
  });

  it('by species, and by species in a chosen region, match the report and /stats/species', async () => {
    const { page, problems } = await open(ctx, '/trees-types-statistics');
    const all = await getJson<{ trees: number }[]>(baseUrl, '/api/public/stats/species');
    const report = await getJson<Report>(baseUrl, `/api/public/reports/species-trees?year=${seed.year}`);
    expect(report.totals.trees).toBe(all.reduce((s, r) => s + r.trees, 0));
    expect(await chartDrawn(page)).toBeGreaterThan(300);
    await expect.poll(async () => digits(await text(page, 'stats-total-trees'))).toBe(String(report.totals.trees));
    expect(await page.locator('[data-testid=stats-table] tbody tr').count()).toBe(report.rows.length);

    await page.goto(`${baseUrl}/#/region-trees-types-statistics`);
    await page.getByTestId('region-hint').waitFor();
    const region = 11;
    await expect.poll(() => page.getByTestId('filter-region').locator('option').count()).toBeGreaterThan(10);
    await page.getByTestId('filter-region').selectOption(String(region));
    const inRegion = await getJson<{ trees: number }[]>(baseUrl, `/api/public/stats/species?region_id=${region}`);
    const regionReport = await getJson<Report>(baseUrl, `/api/public/reports/species-trees?year=${seed.year}&region_id=${region}`);
    const seeded = seed.plantings
      .filter((p) => p.region_id === region && p.planted_on.startsWith(String(seed.year)))
      .reduce((s, p) => s + p.count, 0);
    expect(regionReport.totals.trees).toBe(inRegion.reduce((s, r) => s + r.trees, 0));
    expect(regionReport.totals.trees).toBeGreaterThanOrEqual(seeded);
    await expect.poll(async () => digits(await text(page, 'stats-total-trees'))).toBe(String(regionReport.totals.trees));
    await chartDrawn(page);
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });

  it('the plan and its execution: the totals of plan and planted are the report’s', async () => {
    const { page, problems } = await open(ctx, '/to-do-pantings-statistics');
    const report = await getJson<Report>(baseUrl, `/api/public/reports/todo-plantings?year=${seed.year}`);
    await expect.poll(async () => digits(await text(page, 'stats-total-planted'))).toBe(String(report.totals.planted));
    expect(digits(await text(page, 'stats-total-plan'))).toBe(String(report.totals.plan));
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });
});

describe('the planting form', () => {
  let ctx: BrowserContext;
  afterAll(async () => {
    await ctx?.close();
  });
  const tomorrow = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent' }).format(new Date(Date.now() + 86_400_000));
  const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent' }).format(new Date());
  const dmy = (iso: string) => iso.split('-').reverse().join('.');

  it('refuses a future date and a missing location with clear messages, shows the server’s errors, then thanks; once approved the trees count on the landing page', async () => {
    const before = (await getJson<Summary>(baseUrl, '/api/public/stats/summary')).trees;
    ctx = await newContext(browser, baseUrl, { mapTiles: '' });
    const { page, problems } = await open(ctx, '/population-seedlings');
    const form = page.getByTestId('planting-form');
    const field = (name: string) => form.locator(`[name=${name}]`);
    await expect.poll(() => field('species_id').locator('option').count()).toBeGreaterThan(10);
    await page.getByTestId('location-map').locator('canvas').first().waitFor();

    // every input has a label
    for (const name of ['first_name', 'last_name', 'species_id', 'count', 'planted_on', 'lat', 'lng', 'photo']) {
      const id = await field(name).getAttribute('id');
      expect(await page.locator(`label[for="${id}"]`).count(), `a label for ${name}`).toBe(1);
    }
    expect(await field('planted_on').getAttribute('data-max')).toBe(today());

    await field('first_name').fill('Aziz');
    await field('last_name').fill('Karimov');
    await field('species_id').selectOption(String(seed.target.species_id));
    await field('count').fill('3');
    // typed day first (DD.MM.YYYY) in every language: the field is the site's own, not the browser's
    await field('planted_on').fill(dmy(tomorrow()));
    await page.getByTestId('submit').click();

    await expect.poll(() => page.getByTestId('error-planted_on').innerText()).toContain(CAPTIONS.uz['v.future_date']);
    expect(await page.getByTestId('error-location').innerText()).toContain(CAPTIONS.uz['v.location_required']);
    expect(await page.getByTestId('error-summary').locator('li').count()).toBe(2);
    expect(await page.getByTestId('error-summary').getAttribute('aria-live')).toBe('assertive');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('error-summary');
    expect(await field('planted_on').getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field('planted_on').getAttribute('aria-describedby'))!.split(' ');
    expect(await page.evaluate((ids) => ids.map((i) => document.getElementById(i)?.innerText ?? '').join(' '), describedBy)).toContain(
      CAPTIONS.uz['v.future_date'],
    );
    await expectNoRawKeys(page);
    await shot(page, 'form-errors-uz', true);

    // the same in Russian: the messages follow the language
    await page.getByTestId('lang-ru').click();
    await page.getByTestId('submit').click();
    await expect.poll(() => page.getByTestId('error-planted_on').innerText()).toContain(CAPTIONS.ru['v.future_date']);
    await page.getByTestId('lang-uz').click();

    await field('planted_on').fill(dmy(today()));
    const place = { lng: 69.2797, lat: 41.3111 };
    await clickMapAt(page, place.lng, place.lat, '[data-testid=location-map]');
    await expect.poll(() => field('lat').inputValue()).toMatch(/^41\.3/);
    expect(await field('lng').inputValue()).toMatch(/^69\.2/);
    expect(await page.getByTestId('error-location').count()).toBe(0);
    // a tiny PNG as the photo: uploaded first
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await field('photo').setInputFiles({ name: 'daraxt.png', mimeType: 'image/png', buffer: png });

    // the server's field errors show beside their inputs like the form's own
    let refused = false;
    await page.route('**/api/public/plantings', async (route) => {
      if (refused) return route.continue();
      refused = true;
      await route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          code: -105,
          message: 'Maʼlumotlar notoʻgʻri',
          description: '',
          errors: { first_name: 'Serverdan: ism notoʻgʻri' },
        }),
      });
    });
    const upload = page.waitForResponse((r) => r.url().includes('/api/public/uploads') && r.request().method() === 'POST');
    await page.getByTestId('submit').click();
    expect((await upload).status()).toBe(201);
    await expect.poll(() => page.getByTestId('error-first_name').innerText()).toContain('Serverdan: ism notoʻgʻri');
    expect(await page.getByTestId('error-summary').innerText()).toContain('Serverdan: ism notoʻgʻri');

    const saved = page.waitForResponse((r) => r.url().endsWith('/api/public/plantings') && r.request().method() === 'POST');
    await page.getByTestId('submit').click();
    const res = await saved;
    expect(res.status()).toBe(201);
    expect(res.request().headers()['language']).toBe('uz');
    const body = JSON.parse(res.request().postData() ?? '{}') as { photo?: number; planted_on: string; location: { lat: number } };
    expect(body.photo).toBeGreaterThan(0);
    expect(body.planted_on).toBe(today());
    const { id } = (await res.json()) as { id: number };
    await page.getByTestId('thanks').waitFor();
    expect(await page.getByTestId('thanks').innerText()).toContain('Rahmat, Aziz!');
    expect(await page.getByTestId('thanks').innerText()).toContain(`№ ${id}`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('thanks');
    await shot(page, 'form-thanks-uz');
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);

    // a moderator approves it: the landing page counts the three trees
    const token = await adminToken(baseUrl);
    const approve = await fetch(`${baseUrl}/api/ecofund-plantings/public-plantings/${id}/actions/approve`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: '{}',
    });
    expect(approve.status, await approve.clone().text()).toBeLessThan(300);
    const after = (await getJson<Summary>(baseUrl, '/api/public/stats/summary')).trees;
    expect(after).toBe(before + 3);
    const fresh = await newContext(browser, baseUrl);
    try {
      const landing = await open(fresh, '/');
      await expect.poll(async () => digits(await text(landing.page, 'landing-trees'))).toBe(String(after));
      expect(landing.problems.errors).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe('the people-fact form', () => {
  it("at 360 px: names what is missing beside each input, sends the photo and the fact, and gives the fact's number; reads in each language", async () => {
    const ctx = await newContext(browser, baseUrl, { width: 360, height: 740, mapTiles: '' });
    try {
      const { page, problems } = await open(ctx, '/people-facts');
      const field = (name: string) => page.locator(`[data-testid=fact-form] [name=${name}]`);
      await page.getByTestId('submit').click();
      for (const f of ['description', 'region_id', 'informant_name', 'informant_phone']) await page.getByTestId(`error-${f}`).waitFor();
      expect(await field('description').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByTestId('error-summary').innerText()).toContain(CAPTIONS.uz['fact.description']);
      await expectNoOverflow(page);
      await field('description').fill('Bogʻda uchta chinor daraxti kesilmoqda');
      await field('region_id').selectOption({ index: 1 });
      await field('informant_name').fill('Aliyev Vali');
      await field('informant_phone').fill('+998 90 123-45-67');
      await field('files').setInputFiles({
        name: 'joy.png',
        mimeType: 'image/png',
        buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
      });
      await page.getByTestId('fact-files').waitFor();
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/public/people-facts') && r.request().method() === 'POST');
      await page.getByTestId('submit').click();
      const res = await saved;
      expect(res.status()).toBe(201);
      const sent = JSON.parse(res.request().postData() ?? '{}') as { files: number[]; informant_phone: string; location: unknown };
      expect(sent).toMatchObject({ informant_phone: '901234567', location: null });
      expect(sent.files).toHaveLength(1);
      const { number } = (await res.json()) as { number: string };
      await page.getByTestId('thanks').waitFor();
      expect(await page.getByTestId('thanks').innerText()).toContain(number);
      await page.getByRole('button', { name: CAPTIONS.uz['fact.again'] }).click();
      for (const lang of LANGS) {
        await page.getByTestId(`lang-${lang}`).click();
        await expect.poll(() => page.locator('main [data-page-title]').innerText()).toBe(CAPTIONS[lang]['page.fact_form']);
        await page
          .locator('main .loading')
          .first()
          .waitFor({ state: 'detached' })
          .catch(() => undefined);
        await expectNoOverflow(page);
        await shot(page, `people-fact-form-360-${lang}`, true);
        await expectNoRawKeys(page);
      }
      expect(problems.errors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});

describe('at 360 px wide', () => {
  it('every page fits, the menu opens, and the landing, map and statistics look right in each language', async () => {
    const ctx = await newContext(browser, baseUrl, { width: 360, height: 740, mapTiles: '' });
    try {
      const { page, problems } = await open(ctx, '/');
      await page.getByTestId('landing-trees').waitFor();
      await expectNoOverflow(page);
      await page.getByTestId('menu-button').click();
      await page.locator('.menu-panel a[href="#/population-seedlings"]').first().waitFor();
      expect(await page.getByTestId('menu-button').getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Escape');
      expect(await page.locator('.menu-panel').isVisible()).toBe(false);

      for (const path of [
        '/',
        '/map',
        '/region-plantings-statistics',
        '/trees-types-statistics',
        '/region-trees-types-statistics?region=11',
        '/population-seedlings',
        '/people-facts',
        `/tree/${seed.target.id}`,
        '/news',
        '/news/1',
        '/login',
        '/permits',
        '/to-do-pantings-statistics',
        '/green-area-garden-park/1',
        '/resident-planting-areas/1',
        '/no-such-page',
      ]) {
        await page.goto(`${baseUrl}/#${path}`);
        await page.locator('main [data-page-title]').first().waitFor();
        await page
          .locator('main .loading')
          .first()
          .waitFor({ state: 'detached' })
          .catch(() => undefined);
        await expectNoOverflow(page);
      }
      // the form's errors at 360 px
      await page.goto(`${baseUrl}/#/population-seedlings`);
      await page.getByTestId('submit').click();
      await page.getByTestId('error-first_name').waitFor();
      await expectNoOverflow(page);

      for (const lang of LANGS) {
        await page.getByTestId(`lang-${lang}`).click();
        await page.goto(`${baseUrl}/#/`);
        await page.locator('#regions [data-testid=chart-canvas][data-drawn=true]').waitFor();
        await expectNoOverflow(page);
        await shot(page, `landing-360-${lang}`, true);
        await page.goto(`${baseUrl}/#/map`);
        await mapIdle(page);
        await expectNoOverflow(page);
        await shot(page, `map-360-${lang}`);
        await page.goto(`${baseUrl}/#/region-plantings-statistics`);
        await page.locator('[data-testid=chart-canvas][data-drawn=true]').waitFor();
        await expectNoOverflow(page);
        await shot(page, `stats-360-${lang}`, true);
        await expectNoRawKeys(page);
      }
      expect(problems.errors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});

describe('errors and the catch-all', () => {
  it('shows 404 for unknown routes, 403 and a generic error page, and the login page leads to the back-office', async () => {
    const ctx = await newContext(browser, baseUrl);
    try {
      const { page, problems } = await open(ctx, '/no-such-page/at-all');
      await page.getByTestId('error-404').waitFor();
      expect(await page.locator('h1').innerText()).toBe(CAPTIONS.uz['page.not_found']);
      await page.goto(`${baseUrl}/#/error-403`);
      await page.getByTestId('error-403').waitFor();
      await page.goto(`${baseUrl}/#/error`);
      await page.getByTestId('error-500').waitFor();
      await page.goto(`${baseUrl}/#/error-404`);
      await page.getByTestId('error-404').waitFor();
      for (const path of ['/login', '/sing-up']) {
        await page.goto(`${baseUrl}/#${path}`);
        expect(await page.getByTestId('admin-link').getAttribute('href')).toBe('/admin/');
      }
      await page.goto(`${baseUrl}/#/news/987654321`);
      expect(await page.locator('.empty-title').innerText()).toBe(CAPTIONS.uz['news.not_found']);
      await expectNoRawKeys(page);
      expect(problems.errors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
