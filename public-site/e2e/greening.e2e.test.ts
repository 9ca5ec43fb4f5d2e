import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  digits,
  expectNoOverflow,
  expectNoRawKeys,
  getJson,
  LANGS,
  launch,
  newContext,
  ROOT,
  shot,
  watch,
  type Lang,
  type Problems,
} from './support';

/**
 * The sections that show the greening registry (against the demo data of `serve --demo`): every
 * statistics page is a public report whose totals are the API's, the volunteers' rating by period,
 * the news, gardens and parks, the areas where residents may plant, felling permits and
 * violations, the map's layers, the passport's benefits and QR code, the about and contacts pages.
 */
const baseUrl = inject('publicBaseUrl');
const seed = inject('publicSeed');
const dict = (l: Lang) => JSON.parse(readFileSync(join(ROOT, `public-site/src/i18n/${l}.json`), 'utf8')) as Record<string, string>;
const CAPTIONS = { uz: dict('uz'), uk: dict('uk'), ru: dict('ru') };

interface Column {
  name: string;
  type: string;
  caption: string;
  total: boolean;
}
interface Report {
  name: string;
  title: string;
  columns: Column[];
  rows: Record<string, unknown>[];
  totals: Record<string, number | string>;
}
interface Page_<T> {
  rows: T[];
  total: number;
}
interface Publication {
  id: number;
  title: string;
  summary: string | null;
  published_at: string;
}
interface GreenArea {
  id: number;
  name: string;
  kind: string;
  area_ha: string | null;
  trees: number | null;
  location: { lat: number; lng: number };
  shape: [number, number][] | null;
}
interface ResidentArea {
  id: number;
  name: string;
  capacity: number;
  planted: number;
  status: string;
  location: { lat: number; lng: number };
  recommended_species: number[];
}
interface Permit {
  id: number;
  number: string;
  trees: number;
  region_id: number;
}
interface Violation {
  id: number;
  trees: number;
  damage: string | null;
}

let browser: Browser;
let ctx: BrowserContext;
beforeAll(async () => {
  browser = await launch();
  ctx = await newContext(browser, baseUrl, { mapTiles: '' });
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
});

async function open(hash: string, c: BrowserContext = ctx, before?: (page: Page) => void): Promise<{ page: Page; problems: Problems }> {
  const page = await c.newPage();
  const problems = watch(page);
  before?.(page);
  await page.goto(`${baseUrl}/#${hash}`);
  await page.locator('main [data-page-title]').first().waitFor();
  return { page, problems };
}

/** A figure the page writes with spaces and a comma ("12 345,50"), as the API's string ("12345.50"). */
const asApi = (s: string) => s.replace(/[\s\u00a0%]/g, '').replace(',', '.');
const apiNumber = (v: unknown) => (typeof v === 'number' ? String(v) : String(v));

const STATS: [string, string, Record<string, string>?][] = [
  ['/region-plantings-statistics', 'region-plantings'],
  ['/trees-types-statistics', 'species-trees'],
  ['/to-do-pantings-statistics', 'todo-plantings'],
  ['/region-ministries-statistics', 'region-ministries'],
  ['/region-inventories-statistics', 'region-inventories'],
  ['/eco-info-by-regions-statistics', 'eco-info-by-regions'],
  ['/forestry-perort-statistics', 'forestry-report'],
  ['/irrigation-statistics', 'irrigation'],
];

describe('the statistics pages: one public report each', () => {
  it('show the report’s rows, a drawn chart and totals equal to the API’s, and link its Excel file', async () => {
    const { page, problems } = await open('/region-plantings-statistics');
    for (const [path, name] of STATS) {
      await page.goto(`${baseUrl}/#${path}`);
      const report = await getJson<Report>(baseUrl, `/api/public/reports/${name}?year=${seed.year}`);
      await page.locator(`[data-testid=report][data-report="${name}"]`).waitFor();
      expect(await page.locator('[data-testid=stats-table] tbody tr').count(), `${path}: rows`).toBe(report.rows.length);
      const totals = report.columns.filter((c) => c.total && report.totals[c.name] !== undefined && report.totals[c.name] !== null);
      expect(totals.length, `${path} has totals`).toBeGreaterThan(0);
      for (const c of totals) {
        const cell = asApi(await page.getByTestId(`stats-total-${c.name}`).innerText());
        expect(cell, `${path}: total of ${c.name}`).toBe(apiNumber(report.totals[c.name]));
      }
      // the captions are the API's
      expect(await page.locator('[data-testid=stats-table] thead').innerText()).toContain(report.columns[0].caption);
      if (report.rows.length) await page.locator('[data-testid=chart-canvas][data-drawn=true]').waitFor();
      const href = await page.getByTestId('report-export').getAttribute('href');
      expect(href).toContain(`/api/public/reports/${name}/export?`);
      expect(href).toContain(`year=${seed.year}`);
      await expectNoRawKeys(page);
    }
    // the Excel file itself
    const res = await fetch(`${baseUrl}${await page.getByTestId('report-export').getAttribute('href')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(problems.errors).toEqual([]);
  });

  it('trees planted by region: the report’s total is this year’s count of /stats/summary', async () => {
    const report = await getJson<Report>(baseUrl, `/api/public/reports/region-plantings?year=${seed.year}`);
    const summary = await getJson<{ trees: number }>(baseUrl, `/api/public/stats/summary?year=${seed.year}`);
    expect(report.totals.trees).toBe(summary.trees);
  });

  it('the ecosystem benefits name their source', async () => {
    const { page, problems } = await open('/eco-info-by-regions-statistics');
    await page.getByTestId('benefits-source').waitFor();
    const line = await page.getByTestId('benefits-source').innerText();
    expect(line).toMatch(/i-Tree Streets/);
    expect(line).toMatch(/Interior West/);
    for (const lang of LANGS) {
      await page.getByTestId(`lang-${lang}`).click();
      await expect.poll(() => page.locator('h1').innerText()).toBe(CAPTIONS[lang]['page.eco_info_stats']);
      const report = await getJson<Report>(baseUrl, `/api/public/reports/eco-info-by-regions?year=${seed.year}`, lang);
      await expect.poll(() => page.locator('[data-testid=stats-table] thead').innerText()).toContain(report.columns[1].caption);
      await expectNoRawKeys(page);
    }
    await page.getByTestId('lang-uz').click();
    expect(problems.errors).toEqual([]);
  });

  it('the volunteers’ rating switches period (day, month, year, all time), takes a day in the past only and searches by name', async () => {
    const { page, problems } = await open('/volunteer-statistics');
    const asked: URL[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/public/reports/volunteers-rating')) asked.push(new URL(r.url()));
    });
    await page.locator('[data-report="volunteers-rating"]').waitFor();
    expect(await page.locator('[data-testid=period-tabs] [aria-pressed=true]').getAttribute('data-value')).toBe('year');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent' }).format(new Date());
    expect(await page.getByTestId('filter-date').getAttribute('data-max')).toBe(today);

    const first = await getJson<Report>(baseUrl, '/api/public/reports/volunteers-rating?period=year');
    if (first.rows.length) expect(digits(await page.getByTestId('stats-total-trees').innerText())).toBe(String(first.totals.trees));
    for (const period of ['all', 'month', 'day']) {
      const answered = page.waitForResponse(
        (r) => r.url().includes('/api/public/reports/volunteers-rating') && r.url().includes(`period=${period}`),
      );
      await page.locator(`[data-testid=period-tabs] [data-value=${period}]`).click();
      await answered;
      expect(asked.at(-1)?.searchParams.get('period')).toBe(period);
      await expect.poll(() => page.getByTestId('report').getAttribute('aria-busy')).toBe('false');
      const report = await getJson<Report>(baseUrl, `/api/public/reports/volunteers-rating?period=${period}`);
      if (report.rows.length === 0) {
        await page.getByTestId('empty-state').waitFor();
        continue;
      }
      await expect.poll(() => page.locator('[data-testid=stats-table] tbody tr').count()).toBe(report.rows.length);
      expect(digits(await page.getByTestId('stats-total-trees').innerText())).toBe(String(report.totals.trees));
      expect(await page.getByTestId('filter-date').count()).toBe(period === 'all' ? 0 : 1);
    }
    await page.locator('[data-testid=period-tabs] [data-value=all]').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('period=all');
    const all = await getJson<Report>(baseUrl, '/api/public/reports/volunteers-rating?period=all');
    expect(all.rows.length, 'the demo data has volunteers').toBeGreaterThan(1);
    const name = String(all.rows[0].volunteer);
    const part = name.split(' ')[0];
    await page.getByTestId('filter-q').fill(part);
    await expect.poll(() => asked.at(-1)?.searchParams.get('q')).toBe(part);
    const found = await getJson<Report>(baseUrl, `/api/public/reports/volunteers-rating?period=all&q=${encodeURIComponent(part)}`);
    await expect.poll(() => page.locator('[data-testid=stats-table] tbody tr').count()).toBe(found.rows.length);
    expect(await page.getByTestId('stats-table').innerText()).toContain(name);
    await expectNoRawKeys(page);
    await shot(page, 'volunteers-uz', true);
    expect(problems.errors).toEqual([]);
  });
});

describe('the news', () => {
  it('lists the published news newest first, opens one, and the landing page shows the three newest', async () => {
    const api = await getJson<Page_<Publication>>(baseUrl, '/api/public/entities/publications?perPage=100');
    expect(api.total, 'published demo news').toBeGreaterThan(3);
    const newest = [...api.rows].sort((a, b) => b.published_at.localeCompare(a.published_at));
    const { page, problems } = await open('/news');
    await page.getByTestId('news-list').waitFor();
    const titles = await page.locator('[data-testid=news-card] .news-title').allInnerTexts();
    expect(titles).toEqual(newest.slice(0, 10).map((n) => n.title));
    expect(titles.join(' ')).not.toContain('Qoralama'); // the draft is not public
    await page.locator('[data-testid=news-card] .news-title a').first().click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/news/${newest[0].id}`);
    await page.getByTestId('news-item').waitFor();
    expect(await page.locator('h1').innerText()).toBe(newest[0].title);
    expect(await page.getByTestId('news-body').innerText()).toContain(newest[0].summary ?? '');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    // in Russian, the API's Russian title
    await page.getByTestId('lang-ru').click();
    const ru = await getJson<Publication>(baseUrl, `/api/public/entities/publications/${newest[0].id}`, 'ru');
    await expect.poll(() => page.locator('h1').innerText()).toBe(ru.title);
    await page.getByTestId('lang-uz').click();
    await shot(page, 'news-item-uz', true);

    await page.goto(`${baseUrl}/#/`);
    await page.getByTestId('latest-news').waitFor();
    expect(await page.locator('[data-testid=latest-news] .news-title').allInnerTexts()).toEqual(newest.slice(0, 3).map((n) => n.title));
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });
});

describe('gardens and parks', () => {
  it('filter by kind and open a park with its outline on a small map, its area and trees', async () => {
    const { page, problems } = await open('/green-area-garden-park');
    await page.getByTestId('green-list').waitFor();
    const all = await getJson<Page_<GreenArea>>(baseUrl, '/api/public/entities/green-areas?perPage=100');
    expect(digits(await page.getByTestId('list-total').innerText())).toBe(String(all.total));
    await page.locator('[data-testid=kind-tabs] [data-value=park]').click();
    const parks = await getJson<Page_<GreenArea>>(baseUrl, '/api/public/entities/green-areas?kind=park&perPage=100');
    expect(parks.total).toBeGreaterThan(0);
    await expect.poll(async () => digits(await page.getByTestId('list-total').innerText())).toBe(String(parks.total));
    for (const pill of await page.locator('[data-testid=green-card] .pill').allInnerTexts())
      expect(pill).toBe(CAPTIONS.uz['green.kind.park']);

    const park = parks.rows.find((p) => p.shape) ?? parks.rows[0];
    await page.locator(`[data-testid=green-card] a[href="#/green-area-garden-park/${park.id}"]`).first().click();
    await page.getByTestId('green-item').waitFor();
    expect(await page.locator('h1').innerText()).toBe(park.name);
    const props = await page.getByTestId('green-props').innerText();
    if (park.trees != null) expect(digits(props)).toContain(String(park.trees));
    const map = page.getByTestId('feature-map');
    await map.locator('canvas').first().waitFor();
    expect(await map.getAttribute('data-features')).toBe(park.shape ? '2' : '1');
    await expectNoRawKeys(page);
    await shot(page, 'green-area-uz', true);
    expect(problems.errors).toEqual([]);
  });
});

describe('areas where residents may plant', () => {
  it('shows them on a map and in a list; one shows its capacity, planted trees, status and species, and leads to the form with its place', async () => {
    const { page, problems } = await open('/resident-planting-areas');
    await page.getByTestId('rpa-list').waitFor();
    const api = await getJson<Page_<ResidentArea>>(baseUrl, '/api/public/entities/resident-planting-areas?perPage=100');
    expect(await page.getByTestId('rpa-card').count()).toBe(api.rows.length);
    await page.getByTestId('feature-map').locator('canvas').first().waitFor();
    expect(Number(await page.getByTestId('feature-map').getAttribute('data-features'))).toBe(api.rows.length * 2);

    const area = api.rows.find((a) => a.status === 'open')!;
    await page.goto(`${baseUrl}/#/resident-planting-areas/${area.id}`);
    await page.getByTestId('rpa-item').waitFor();
    expect(digits(await page.getByTestId('rpa-capacity').innerText())).toBe(String(area.capacity));
    expect(digits(await page.getByTestId('rpa-planted').innerText())).toBe(String(area.planted));
    expect(await page.getByTestId('rpa-status').innerText()).toBe(CAPTIONS.uz['rpa.status.open']);
    await expect.poll(() => page.locator('[data-testid=rpa-species] li').count()).toBe(area.recommended_species.length);
    await page.getByTestId('rpa-plant').click();
    await page.getByTestId('planting-form').waitFor();
    await expect.poll(() => page.locator('[name=lat]').inputValue()).toBe(String(area.location.lat));
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });
});

describe('felling permits and illegal felling', () => {
  it('lists the permits with a region filter and a search', async () => {
    const { page, problems } = await open('/permits');
    await page.getByTestId('permits-table').waitFor();
    const api = await getJson<Page_<Permit>>(baseUrl, '/api/public/entities/tree-cutting-permits?perPage=25');
    expect(api.total).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=permits-table] tbody tr').count()).toBe(api.rows.length);
    expect(await page.locator('[data-testid=permits-table] tbody th').allInnerTexts()).toEqual(api.rows.map((p) => p.number));

    const region = api.rows[0].region_id;
    await expect.poll(() => page.getByTestId('filter-region').locator('option').count()).toBeGreaterThan(10);
    await page.getByTestId('filter-region').selectOption(String(region));
    const inRegion = await getJson<Page_<Permit>>(baseUrl, `/api/public/entities/tree-cutting-permits?perPage=25&region_id=${region}`);
    await expect.poll(async () => digits(await page.getByTestId('list-total').innerText())).toBe(String(inRegion.total));

    await page.getByTestId('filter-q').fill(api.rows[0].number);
    await page.getByTestId('filter-q').press('Enter');
    await expect.poll(() => page.locator('[data-testid=permits-table] tbody th').allInnerTexts()).toEqual([api.rows[0].number]);
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });

  it('lists the cases of illegal felling with their totals', async () => {
    const { page, problems } = await open('/illegal-loggers');
    await page.getByTestId('violations-table').waitFor();
    const api = await getJson<Page_<Violation>>(baseUrl, '/api/public/entities/tree-cutting-violations?perPage=100');
    expect(api.total).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=violations-table] tbody tr').count()).toBe(api.rows.length);
    expect(digits(await page.getByTestId('violations-count').innerText())).toBe(String(api.total));
    const trees = api.rows.reduce((s, v) => s + v.trees, 0);
    expect(digits(await page.getByTestId('violations-total-trees').innerText())).toBe(String(trees));
    const damage = api.rows.reduce((s, v) => s + Math.round(Number(v.damage ?? 0) * 100), 0);
    expect(digits(await page.getByTestId('violations-total-damage').innerText())).toBe(String(damage));
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });
});

describe('the map’s layers', () => {
  it('a checkbox turns a layer on: its features for the view are drawn (outlines too), a click shows a popup leading to the item’s page', async () => {
    const areas = await getJson<Page_<ResidentArea>>(baseUrl, '/api/public/entities/resident-planting-areas?perPage=100');
    const area = areas.rows[0];
    const { page, problems } = await open(`/map?lat=${area.location.lat}&lng=${area.location.lng}&z=13`);
    const map = page.getByTestId('map');
    await expect.poll(() => map.getAttribute('data-state')).toBe('idle');
    const box = page.getByTestId('layer-resident_areas');
    if (!(await box.isVisible())) await page.locator('[data-testid=layer-switch] summary').click();
    expect(await box.isChecked()).toBe(false);
    expect(await page.getByTestId('layer-trees').isChecked()).toBe(true);

    const asked = page.waitForRequest((r) => r.url().includes('/api/public/map/layers/resident-planting-areas?bbox='));
    await box.check();
    const url = new URL((await asked).url());
    await expect.poll(() => map.getAttribute('data-layer-state-resident_areas')).toBe('idle');
    const answer = await getJson<{ items: { id: number }[] }>(baseUrl, `${url.pathname}?bbox=${url.searchParams.get('bbox')}`);
    expect(answer.items.some((i) => i.id === area.id)).toBe(true);
    expect(await map.getAttribute('data-layer-count-resident_areas')).toBe(String(answer.items.length));
    const kinds = await map.evaluate((n) =>
      (n as unknown as { __ecofond: { features: (k: string) => string[] } }).__ecofond.features('resident_areas'),
    );
    expect(kinds).toContain('Polygon');
    expect(kinds).toContain('Point');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('layers=trees,resident_areas');

    // the area's point: a popup with its name and a link to its page (the plantings off, so nothing covers it)
    await page.getByTestId('layer-trees').uncheck();
    await map.scrollIntoViewIfNeeded();
    const [x, y] = await map.evaluate(
      (n, [lng, lat]) => (n as unknown as { __ecofond: { pixelOf: (a: number, b: number) => number[] } }).__ecofond.pixelOf(lng, lat),
      [area.location.lng, area.location.lat],
    );
    const b = (await map.boundingBox())!;
    await page.mouse.click(b.x + x, b.y + y);
    await page.getByTestId('map-popup').waitFor();
    expect(await page.getByTestId('map-popup').innerText()).toContain(area.name);
    expect(await page.getByTestId('popup-link').getAttribute('href')).toBe(`#/resident-planting-areas/${area.id}`);
    for (const lang of LANGS) {
      await page.getByTestId(`lang-${lang}`).click();
      await expect.poll(() => page.locator('h1').innerText()).toBe(CAPTIONS[lang]['page.map']);
      await expectNoRawKeys(page);
      await shot(page, `map-layers-${lang}`);
    }
    await page.getByTestId('lang-uz').click();

    // parks too, then off again: nothing drawn
    await page.getByTestId('layer-parks').check();
    await expect.poll(() => map.getAttribute('data-layer-state-parks')).toBe('idle');
    await box.uncheck();
    expect(await map.getAttribute('data-layer-count-resident_areas')).toBe('0');
    expect(
      await map.evaluate(
        (n) => (n as unknown as { __ecofond: { features: (k: string) => string[] } }).__ecofond.features('resident_areas').length,
      ),
    ).toBe(0);
    await expect.poll(() => page.getByTestId('map-popup').count()).toBe(0);
    expect(problems.errors).toEqual([]);
  });

  it('the irrigation layer asks for irrigated plantings only', async () => {
    // the page's requests from its first one: the layer may ask before the page's title is drawn
    const asked: string[] = [];
    const { page, problems } = await open('/map?layers=irrigation', ctx, (p) => p.on('request', (r) => asked.push(r.url())));
    const map = page.getByTestId('map');
    const irrigated = () => asked.find((u) => u.includes('/api/public/map/plantings') && u.includes('irrigation=1'));
    await expect.poll(irrigated).toBeTruthy();
    expect(new URL(irrigated()!).searchParams.get('bbox')).toBeTruthy();
    await expect.poll(() => map.getAttribute('data-layer-state-irrigation')).toBe('idle');
    expect(await map.getAttribute('data-layer-state-trees')).toBe('off');
    expect(problems.errors).toEqual([]);
  });
});

describe('the passport, about and contacts', () => {
  it('the passport shows the ecosystem benefits with their source and prints with a QR code of its address', async () => {
    const { page, problems } = await open(`/tree/${seed.target.id}`);
    await page.getByTestId('passport-benefits').waitFor();
    const passport = await getJson<{ benefits: { co2_stored_kg: number | string } }>(baseUrl, `/api/public/plantings/${seed.target.id}`);
    expect(Number(passport.benefits.co2_stored_kg)).toBeGreaterThan(0);
    const kg = Number(passport.benefits.co2_stored_kg);
    expect(digits(await page.getByTestId('benefit-co2-stored').innerText())).toBe(digits((kg >= 10_000 ? kg / 1000 : kg).toFixed(1)));
    expect(await page.getByTestId('benefits-source').innerText()).toMatch(/i-Tree Streets/);
    await page.locator('[data-testid=passport-qr][data-ready=true] svg').waitFor();
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('[data-testid=passport-qr] svg').isVisible()).toBe(true);
    expect(await page.locator('[data-testid=passport-qr]').getAttribute('aria-label')).toContain(`/#/tree/${seed.target.id}`);
    expect(await page.locator('.site-header').isVisible()).toBe(false);
    await shot(page, 'passport-print-qr-uz', true);
    await page.emulateMedia({ media: 'screen' });
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });

  it('about the project and the hotline, in three languages, linked from the footer', async () => {
    const { page, problems } = await open('/');
    await page.locator('.site-footer a[href="#/about"]').click();
    await page.getByTestId('about').waitFor();
    for (const lang of LANGS) {
      await page.getByTestId(`lang-${lang}`).click();
      await expect.poll(() => page.locator('h1').innerText()).toBe(CAPTIONS[lang]['page.about']);
      // the texts are the back-office's site content (docs/site-content.md), loaded in the language shown
      await expect.poll(() => page.getByTestId('about').innerText()).toMatch(lang === 'ru' ? /УП-46/ : lang === 'uk' ? /ПФ-46/ : /PF-46/);
      await expect.poll(() => page.getByTestId('about').innerText()).toContain(lang === 'uz' ? '200 million' : '200 миллион');
    }
    await page.getByTestId('lang-uz').click();
    await page.locator('.site-footer a[href="#/contacts"]').click();
    await page.getByTestId('contacts').waitFor();
    expect(await page.getByTestId('hotline').getAttribute('href')).toMatch(/^tel:\+?\d{6,}$/);
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });
});

describe('the new pages at 360 px', () => {
  it('fit the screen in each language', async () => {
    const narrow = await newContext(browser, baseUrl, { width: 360, height: 740, mapTiles: '' });
    try {
      const { page, problems } = await open('/', narrow);
      const paths = [
        '/news',
        '/green-area-garden-park',
        '/resident-planting-areas',
        '/permits',
        '/illegal-loggers',
        '/volunteer-statistics',
        '/irrigation-statistics',
        '/eco-info-by-regions-statistics',
        '/about',
        '/contacts',
        '/map?layers=trees,parks,resident_areas',
      ];
      for (const lang of LANGS) {
        await page.getByTestId(`lang-${lang}`).click();
        for (const path of paths) {
          await page.goto(`${baseUrl}/#${path}`);
          await page.locator('main [data-page-title]').first().waitFor();
          await page
            .locator('main .loading')
            .first()
            .waitFor({ state: 'detached' })
            .catch(() => undefined);
          await expectNoOverflow(page);
        }
        await expectNoRawKeys(page);
      }
      await page.getByTestId('lang-uz').click();
      expect(problems.errors).toEqual([]);
    } finally {
      await narrow.close();
    }
  });
});
