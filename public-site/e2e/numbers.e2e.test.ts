import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  adminToken,
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
} from './support';

/**
 * Figures on phones (docs/numbers.md): a figure never breaks across lines at 360 px, a table wider
 * than the screen says which columns are off-screen and scrolls to them, and the map's bubbles do
 * not overlap at country zoom, their areas in the proportion of their counts (the legend's samples
 * drawn at the same radii), the map's controls and its popup in the user's language and on the
 * screen of a phone — in the three languages.
 */
const dict = (lang: Lang) => JSON.parse(readFileSync(join(ROOT, 'public-site/src/i18n', `${lang}.json`), 'utf8')) as Record<string, string>;
const CAPTIONS = { uz: dict('uz'), uk: dict('uk'), ru: dict('ru') };
const baseUrl = inject('publicBaseUrl');
const seed = inject('publicSeed');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
  // a case of illegal felling with a big damage: the figure of the issue ("18 825 044 / ,30")
  const token = await adminToken(baseUrl);
  const res = await fetch(`${baseUrl}/api/ecofund-plantings/tree-cutting-violations`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      found_on: `${seed.year}-01-15`,
      region_id: 11,
      violator_kind: 'organisation',
      violator_name: 'E2E figures',
      trees: 137043,
      damage: '18825044.30',
      status: 'registered',
    }),
  });
  if (!res.ok) throw new Error(`a violation: ${res.status} ${await res.text()}`);
});
afterAll(async () => {
  await browser?.close();
});

async function open(width: number, lang: Lang, hash: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const ctx = await newContext(browser, baseUrl, { width, height: 780, lang, mapTiles: '' });
  const page = await ctx.newPage();
  const problems = watch(page);
  await page.goto(`${baseUrl}/#${hash}`);
  await page.locator('main [data-page-title]').first().waitFor();
  return { page, errors: problems.errors, close: () => ctx.close() };
}

interface Figure {
  text: string;
  lines: number;
  plainSpace: boolean;
}

/** Every visible figure under `selector`: on how many lines its text lies, and whether it holds a breaking space between digits. */
function figures(page: Page, selector: string): Promise<Figure[]> {
  return page.$$eval(selector, (els) =>
    els
      .filter((e) => (e as HTMLElement).offsetParent !== null && /\d/.test(e.textContent ?? ''))
      .map((e) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
        const lh = parseFloat(getComputedStyle(e).fontSize) * 1.6;
        const top = Math.min(...rects.map((r) => r.top));
        const bottom = Math.max(...rects.map((r) => r.bottom));
        return { text: e.textContent ?? '', lines: bottom - top > lh ? 2 : 1, plainSpace: /\d \d/.test(e.textContent ?? '') };
      }),
  );
}

describe('figures on a phone', () => {
  it('never break inside a number at 360 px (statistics, totals, the landing page), in every language', async () => {
    for (const lang of LANGS) {
      for (const hash of ['/illegal-loggers', '/to-do-pantings-statistics', '/region-plantings-statistics', '/']) {
        const { page, errors, close } = await open(360, lang, hash);
        const sel = '.facts dd, .big-count, .table td.num, .table th.num';
        await page
          .locator(hash === '/' ? '.big-count' : '.facts dd')
          .first()
          .waitFor();
        const all = await figures(page, sel);
        expect(all.length, `${lang} ${hash}: figures`).toBeGreaterThan(0);
        expect(
          all.filter((f) => f.lines > 1),
          `${lang} ${hash}: figures on two lines`,
        ).toEqual([]);
        expect(
          all.filter((f) => f.plainSpace),
          `${lang} ${hash}: breaking spaces inside figures`,
        ).toEqual([]);
        await expectNoOverflow(page);
        await expectNoRawKeys(page);
        if (hash === '/illegal-loggers') {
          // the damage total holds the figure (at least 18 825 044,30): long, yet on one line
          const facts = await page.locator('[data-testid=violations-facts] dd').allInnerTexts();
          expect(
            facts.some((t) => /^\d{1,3}(\u00a0\d{3}){2,},\d\d$/.test(t)),
            facts.join(' | '),
          ).toBe(true);
          await shot(page, `numbers-violations-360-${lang}`);
        }
        expect(errors).toEqual([]);
        await close();
      }
    }
  });
});

describe('tables on a phone', () => {
  it('say which columns are off-screen and scroll to them; a wide screen shows the whole table and no hint', async () => {
    for (const lang of LANGS) {
      const { page, errors, close } = await open(360, lang, '/to-do-pantings-statistics');
      await page.getByTestId('stats-table').waitFor();
      const wrap = page.locator('[data-testid=stats-table-card] .table-wrap');
      const overflows = await wrap.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
      expect(overflows, `${lang}: the plan table is wider than a phone`).toBe(true);
      const hint = page.getByTestId('table-more');
      await hint.waitFor();
      const heads = await page.locator('[data-testid=stats-table] thead th').allInnerTexts();
      const last = heads[heads.length - 1].trim();
      await expect.poll(() => hint.innerText()).toContain(last);
      await shot(page, `numbers-table-360-${lang}`);
      await hint.getByRole('button').click();
      await expect.poll(() => wrap.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
      await expectNoRawKeys(page);
      expect(errors).toEqual([]);
      await close();
    }
    const wide = await open(1400, 'uz', '/to-do-pantings-statistics');
    await wide.page.getByTestId('stats-table').waitFor();
    await wide.page.waitForTimeout(300);
    expect(await wide.page.getByTestId('table-more').count()).toBe(0);
    await wide.close();
  });
});

describe('the map at country zoom', () => {
  it('draws the regions’ bubbles apart at 360 and 1400 px', async () => {
    for (const width of [360, 1400]) {
      const { page, errors, close } = await open(width, 'uz', '/map');
      const view = await mapIdle(page);
      expect(view.layer).toBe('regions');
      type Bubble = { x: number; y: number; r: number; count: number; regionId: number };
      type Handle = {
        bubbles: () => Bubble[];
        scale: () => { max: number; maxRadius: number };
        order: () => { key: string | null; z: number }[];
      };
      const { bubbles, scale, order } = await page.getByTestId('map').evaluate((n) => {
        const h = (n as unknown as { __ecofond: Handle }).__ecofond;
        return { bubbles: h.bubbles(), scale: h.scale(), order: h.order() };
      });
      expect(bubbles.length).toBeGreaterThan(3);
      const touching: string[] = [];
      for (let i = 0; i < bubbles.length; i++) {
        for (let j = i + 1; j < bubbles.length; j++) {
          const a = bubbles[i];
          const b = bubbles[j];
          if (Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r) touching.push(`${a.count}/${b.count}`);
        }
      }
      expect(touching, `${width} px: overlapping bubbles`).toEqual([]);
      // the biggest still show their size
      expect(Math.max(...bubbles.map((b) => b.r))).toBeGreaterThan(12);
      // areas in the order and the proportion of the counts (tenths of a pixel: within 2 %); the biggest count the biggest bubble
      const wrong: string[] = [];
      for (const a of bubbles) {
        for (const b of bubbles) {
          if (a.count > b.count && a.r < b.r) wrong.push(`${a.count} r${a.r} < ${b.count} r${b.r}`);
          if (a.r > 6 && b.r > 6 && Math.abs((a.r * a.r) / (b.r * b.r) / (a.count / b.count) - 1) > 0.02)
            wrong.push(`${a.count}/${b.count}`);
        }
      }
      expect(wrong, `${width} px: bubble areas against counts`).toEqual([]);
      const biggest = bubbles.reduce((m, b) => (b.count > m.count ? b : m));
      expect(biggest.r).toBe(scale.maxRadius);
      // the regions' counts are the report's: the registry's trees by region (all years), Tashkent city the most
      const answer = await getJson<{ items: number[][] }>(baseUrl, '/api/public/map/plantings?bbox=55,37,74,46&zoom=5');
      expect(bubbles.map((b) => [b.regionId, b.count]).sort((a, b) => a[0] - b[0])).toEqual(
        answer.items.map((i) => [i[3], i[2]]).sort((a, b) => a[0] - b[0]),
      );
      // the legend's sample bubbles are drawn at the radii the map gives their counts
      const samples = await page.$$eval('[data-testid=map-legend-bubbles] g', (gs) =>
        gs.map((g) => ({ count: Number(g.getAttribute('data-count')), r: Number(g.getAttribute('data-r')) })),
      );
      expect(samples.length).toBeGreaterThan(0);
      for (const sample of samples) {
        const r = Math.max(5, Math.min(scale.maxRadius, scale.maxRadius * Math.sqrt(sample.count / scale.max)));
        expect(sample.r, `legend ${sample.count}`).toBeCloseTo(r, 1);
      }
      // bubbles under the counts and the names
      const trees = order.filter((l) => l.key === 'trees').map((l) => l.z);
      expect(trees[0]).toBeLessThan(trees[1]);
      expect(order.find((l) => l.key === null)!.z).toBeGreaterThan(trees[0]);
      await shot(page, `numbers-map-${width}`);
      expect(errors).toEqual([]);
      await close();
    }
  });

  it('speaks the user’s language in its controls and keeps its popup and its × on a phone’s screen', async () => {
    const areas = await getJson<{ rows: { id: number; name: string; location: { lat: number; lng: number } }[] }>(
      baseUrl,
      '/api/public/entities/resident-planting-areas?perPage=1',
    );
    const area = areas.rows[0];
    for (const lang of LANGS) {
      const { page, errors, close } = await open(
        360,
        lang,
        `/map?lat=${area.location.lat}&lng=${area.location.lng}&z=13&layers=trees,irrigation,resident_areas`,
      );
      const map = page.getByTestId('map');
      await expect.poll(() => map.getAttribute('data-layer-state-resident_areas')).toBe('idle');
      const titles = await map.evaluate((n) => [...n.querySelectorAll<HTMLElement>('.ol-control button')].map((b) => b.title));
      const want = CAPTIONS[lang];
      expect(titles).toEqual(expect.arrayContaining([want['map.zoom_in'], want['map.zoom_out'], want['map.attributions']]));
      expect(titles.filter((t) => /zoom|rotation|attribution/i.test(t) || t === '')).toEqual([]);
      // the areas' outlines under the trees' bubbles, the irrigated trees' rings over them, the areas' points over all bubbles
      const order = await map.evaluate((n) =>
        (n as unknown as { __ecofond: { order: () => { key: string | null; z: number }[] } }).__ecofond.order(),
      );
      const zs = (key: string) => order.filter((l) => l.key === key).map((l) => l.z);
      expect(zs('resident_areas')[0]).toBeLessThan(zs('trees')[0]);
      expect(zs('irrigation')[0]).toBeGreaterThan(zs('trees')[0]);
      expect(zs('resident_areas')[1]).toBeGreaterThan(zs('irrigation')[0]);
      // with every planting layer on, the area's point lies above the bubbles: a click on it opens its popup
      await map.scrollIntoViewIfNeeded();
      const [x, y] = await map.evaluate(
        (n, [lng, lat]) => (n as unknown as { __ecofond: { pixelOf: (a: number, b: number) => number[] } }).__ecofond.pixelOf(lng, lat),
        [area.location.lng, area.location.lat],
      );
      const b = (await map.boundingBox())!;
      await page.mouse.click(b.x + x, b.y + y);
      const popup = page.getByTestId('map-popup');
      await popup.waitFor();
      // the area's title as the API gives it in this language (uk: in Cyrillic)
      const named = await getJson<typeof areas>(baseUrl, `/api/public/entities/resident-planting-areas?perPage=100`, lang);
      expect(await popup.innerText()).toContain(named.rows.find((r) => r.id === area.id)!.name);
      const inside = await page.evaluate(() => {
        const r = document.querySelector('[data-testid=map-popup]')!.getBoundingClientRect();
        const c = document.querySelector('[data-testid=map-popup] .popup-close')!.getBoundingClientRect();
        const within = (q: DOMRect) => q.left >= 0 && q.top >= 0 && q.right <= innerWidth && q.bottom <= innerHeight;
        const top = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
        return { popup: within(r), close: within(c), closeOnTop: !!top?.closest('.popup-close') };
      });
      expect(inside, `${lang}: the popup and its × on the 360 px screen`).toEqual({ popup: true, close: true, closeOnTop: true });
      // the keyboard is on the ×, named in the language; Enter closes the popup
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
      expect(focused).toBe(want['nav.close_popup']);
      if (lang === 'ru') await shot(page, 'map-popup-360-ru');
      await page.keyboard.press('Enter');
      await expect.poll(() => popup.count()).toBe(0);
      expect(errors).toEqual([]);
      await close();
    }
  });
});
