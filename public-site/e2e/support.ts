import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHROMIUM } from '../../e2e/server';

/** Browser helpers of the public site's tests: Debian's Chromium, headless, nothing fetched from outside. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SHOTS = join(ROOT, 'artifacts', 'screenshots');
export type Lang = 'uz' | 'uk' | 'ru';
export const LANGS: Lang[] = ['uz', 'uk', 'ru'];

/** Chromium's flag that leaves only the loopback address resolvable. */
export const BLOCK_OUTSIDE = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost';

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // nothing outside the server under test: every other host name is unknown (map tiles and the
      // like fail as "Failed to load resource"). A resolver rule, not a route: routing every request
      // through Playwright turns the HTTP cache off and costs the test process a round trip a request
      BLOCK_OUTSIDE,
    ],
  });
}

export interface ContextOptions {
  width?: number;
  height?: number;
  lang?: Lang;
  mapTiles?: string;
}

/** A browser context on the server under test only (map tiles and anything outside are refused). */
export async function newContext(browser: Browser, _baseUrl: string, o: ContextOptions = {}): Promise<BrowserContext> {
  const ctx = await browser.newContext({
    viewport: { width: o.width ?? 1280, height: o.height ?? 860 },
    locale: 'uz-UZ',
    timezoneId: 'Asia/Tashkent',
    deviceScaleFactor: 1,
  });
  if (o.lang)
    await ctx.addInitScript((l) => {
      if (!localStorage.getItem('ecofond.lang')) localStorage.setItem('ecofond.lang', l);
    }, o.lang);
  if (o.mapTiles !== undefined)
    await ctx.addInitScript((tiles) => {
      (window as unknown as { __ECOFOND_CONFIG__: unknown }).__ECOFOND_CONFIG__ = { mapTiles: tiles };
    }, o.mapTiles);
  ctx.setDefaultTimeout(15_000);
  return ctx;
}

/** Problems a page reported by itself: uncaught errors and console errors other than refused requests. */
export interface Problems {
  errors: string[];
}
export function watch(page: Page): Problems {
  const p: Problems = { errors: [] };
  page.on('pageerror', (e) => p.errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (/Failed to load resource/.test(m.text())) return; // refused tiles, 404s provoked on purpose
    p.errors.push(`console: ${m.text()}`);
  });
  return p;
}

export async function expectNoRawKeys(page: Page): Promise<void> {
  const missing = await page.evaluate(() => (window as unknown as { __ecofondMissingKeys?: unknown[] }).__ecofondMissingKeys ?? []);
  expect(missing, 'captions missing (would render raw)').toEqual([]);
}

/** Nothing wider than the window (no sideways scrolling). */
export async function expectNoOverflow(page: Page): Promise<void> {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll, 'page wider than the window').toBeLessThanOrEqual(inner);
}

export async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(SHOTS, `public-${name}.png`), fullPage });
}

/** Digits only: "12 345" (with no-break spaces) → "12345". */
export const digits = (s: string) => s.replace(/\D/g, '');

export async function getJson<T>(baseUrl: string, path: string, lang: Lang = 'uz'): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { Language: lang } });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
}

export async function adminToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'ecofond-demo' }),
  });
  if (!res.ok) throw new Error(`admin login: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/** Waits until the map under `selector` has finished loading its current view. */
export async function mapIdle(page: Page, selector = '[data-testid=map]'): Promise<{ layer: string; zoom: number }> {
  await page.waitForFunction((sel) => document.querySelector<HTMLElement>(sel)?.dataset.state === 'idle', selector);
  return page.evaluate((sel) => {
    const el = document.querySelector<HTMLElement>(sel)!;
    return { layer: el.dataset.layer ?? '', zoom: Number(el.dataset.zoom) };
  }, selector);
}

/** Clicks a place of a map: the map says where (lng, lat) is on the screen. */
export async function clickMapAt(page: Page, lng: number, lat: number, selector = '[data-testid=map]'): Promise<void> {
  const el = page.locator(selector);
  await el.scrollIntoViewIfNeeded();
  const [x, y] = await el.evaluate(
    (node, [lng, lat]) => (node as unknown as { __ecofond: { pixelOf: (a: number, b: number) => number[] } }).__ecofond.pixelOf(lng, lat),
    [lng, lat],
  );
  const box = (await el.boundingBox())!;
  expect(x > 0 && y > 0 && x < box.width && y < box.height, `(${lng}, ${lat}) is inside the map's view`).toBe(true);
  await page.mouse.click(box.x + x, box.y + y);
}
