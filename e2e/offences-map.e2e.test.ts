import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, expectNoRawKeys, launch, signedIn, SHOTS } from './support';

/**
 * The offences map (docs/offences.md, "Offences map") with the demo offences: counts per region
 * and clusters with counts, a state filter that goes to the address and changes what is shown, a
 * cluster's click zooming in, a single offence's click opening it; the page in three languages and
 * at 360 px (screenshots in artifacts/screenshots/offmap-*.png).
 */
const baseUrl = inject('baseUrl');
let browser: Browser;

interface Item {
  kind: 'cluster' | 'offence';
  id?: number;
  lng: number;
  lat: number;
  count?: number;
  by?: number[];
  state?: string;
}
interface Hook {
  pixelOf(lng: number, lat: number): [number, number];
  items(): Item[];
  drawn(): Item[];
  zoom(): number;
  setView(lng: number, lat: number, z: number): void;
}
interface Offence {
  id: number;
  status: string;
  location: { lat: number; lng: number } | null;
}

const map = (page: Page) => page.getByTestId('offences-map');
/** The map once it has answered the current view: its layer and what it holds. */
async function settled(page: Page, layer?: string): Promise<{ layer: string; items: Item[]; total: number }> {
  await expect
    .poll(async () => {
      const state = await map(page).getAttribute('data-state');
      const l = await map(page).getAttribute('data-layer');
      return state === 'idle' && (!layer || l === layer);
    })
    .toBe(true);
  await page.waitForTimeout(150);
  return map(page).evaluate((el) => {
    const hook = (el as unknown as { __offmap: Hook }).__offmap;
    return { layer: el.getAttribute('data-layer')!, items: hook.items(), total: Number(el.getAttribute('data-total')) };
  });
}
const hook = <T>(page: Page, fn: (h: Hook, arg: unknown) => T, arg?: unknown) =>
  map(page).evaluate(
    (el, [src, a]) => {
      const h = (el as unknown as { __offmap: Hook }).__offmap;
      return new Function('h', 'a', `return (${src})(h, a)`)(h, a);
    },
    [fn.toString(), arg] as const,
  ) as Promise<T>;

/** Clicks the map where a place is. */
async function clickAt(page: Page, lng: number, lat: number): Promise<void> {
  const [x, y] = await hook(
    page,
    (h, a) => {
      const [g, t] = a as [number, number];
      return h.pixelOf(g, t);
    },
    [lng, lat],
  );
  const box = (await map(page).boundingBox())!;
  await page.mouse.click(box.x + x, box.y + y);
}

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('the offences map', () => {
  it('shows the demo offences by region and in clusters, filters by state, zooms in on a click and opens an offence', async () => {
    const { page, problems, close } = await signedIn(browser, baseUrl, 'admin');
    const all: Offence[] = [];
    for (let p = 1; p <= 5; p++) {
      const rows = await api<Offence[]>(page, `/api/ecofund-offences/offences?perPage=100&page=${p}&sortBy=id`);
      all.push(...rows);
      if (rows.length < 100) break;
    }
    const located = all.filter((o) => o.location);
    expect(located.length).toBeGreaterThanOrEqual(150);

    await page.goto(`${baseUrl}/admin/#/ecofund-offences/offences-map`);
    await page.getByTestId('page-screen-offences-map').waitFor();
    // zoomed out: a count per region, every offence with a place counted once
    const regions = await settled(page, 'regions');
    expect(regions.items.length).toBeGreaterThanOrEqual(14);
    expect(regions.items.reduce((s, i) => s + i.count!, 0)).toBe(regions.total);
    expect(regions.total).toBeGreaterThanOrEqual(located.length);
    await expect.poll(() => page.getByTestId('offences-map-total').innerText()).toContain(String(regions.total));

    // what is drawn counts the same (rings that would overlap drawn as one)
    const drawn = await hook(page, (h) => h.drawn());
    expect(drawn.reduce((s, i) => s + i.count!, 0)).toBe(regions.total);
    // a click on a region's count zooms in to its clusters
    const region = drawn.reduce((a, b) => (b.count! > a.count! ? b : a));
    await clickAt(page, region.lng, region.lat);
    const cells = await settled(page, 'cells');
    expect(await hook(page, (h) => h.zoom())).toBeGreaterThanOrEqual(7);
    expect(cells.items.length).toBeGreaterThan(0);
    expect(cells.items.every((c) => c.kind === 'cluster' && c.count! > 0 && c.by!.reduce((a, b) => a + b, 0) === c.count)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/offmap-cells.png` });

    // the state filter: in the address, and only those offences are counted
    await hook(page, (h) => h.setView(64.5, 41.3, 5));
    await settled(page, 'regions');
    await page.locator('input[name="status"]').locator('..').getByRole('combobox').click();
    await page.getByRole('option', { name: 'IIVga yuborilgan' }).click();
    await expect.poll(() => page.url()).toContain('status=mvd');
    const mvd = located.filter((o) => o.status === 'mvd');
    await expect.poll(async () => (await settled(page, 'regions')).total).toBe(mvd.length);
    const filtered = await settled(page, 'regions');
    expect(filtered.items.every((i) => i.by!.every((n, k) => k === 3 || n === 0))).toBe(true);

    // zoomed in on one of them: a point of its state; a click opens the offence
    const one = mvd[0];
    await hook(
      page,
      (h, a) => {
        const [g, t] = a as [number, number];
        h.setView(g, t, 17);
      },
      [one.location!.lng, one.location!.lat],
    );
    const points = await settled(page, 'offences');
    expect(points.items.find((i) => i.id === one.id)?.state).toBe('mvd');
    await page.screenshot({ path: `${SHOTS}/offmap-points.png` });
    await clickAt(page, one.location!.lng, one.location!.lat);
    await expect.poll(() => page.url()).toContain(`/ecofund-offences/offences/${one.id}/show`);
    await page.getByTestId('entity-show').waitFor();
    expect(problems.errors).toEqual([]);
    await close();
  });

  it('reads in three languages and fits 360 px', async () => {
    const { page, problems, close } = await signedIn(browser, baseUrl, 'shtab');
    for (const lang of ['uz', 'ru', 'uk']) {
      await page.evaluate((l) => localStorage.setItem('ecofond.lang', l), lang);
      await page.goto(`${baseUrl}/admin/#/ecofund-offences/offences-map?status=closed`);
      await page.reload();
      await settled(page, 'regions');
      const legend = await page.getByTestId('offences-map-legend').innerText();
      expect(legend).toContain({ uz: 'Yopilgan', ru: 'Закрыто', uk: 'Ёпилган' }[lang]);
      await expectNoRawKeys(page);
      await page.screenshot({ path: `${SHOTS}/offmap-${lang}.png` });
    }
    await page.setViewportSize({ width: 360, height: 780 });
    await page.reload();
    await settled(page, 'regions');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await page.screenshot({ path: `${SHOTS}/offmap-360.png`, fullPage: true });
    expect(problems.errors).toEqual([]);
    await close();
  });
});
