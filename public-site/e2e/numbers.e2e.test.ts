import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminToken, expectNoOverflow, expectNoRawKeys, LANGS, launch, mapIdle, newContext, shot, watch, type Lang } from './support';

/**
 * Figures on phones (docs/numbers.md): a figure never breaks across lines at 360 px, a table wider
 * than the screen says which columns are off-screen and scrolls to them, and the map's bubbles do
 * not overlap at country zoom — in the three languages.
 */
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
      type Bubble = { x: number; y: number; r: number; count: number };
      const bubbles = await page
        .getByTestId('map')
        .evaluate((n) => (n as unknown as { __ecofond: { bubbles: () => Bubble[] } }).__ecofond.bubbles());
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
      await shot(page, `numbers-map-${width}`);
      expect(errors).toEqual([]);
      await close();
    }
  });
});
