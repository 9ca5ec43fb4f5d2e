import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHROMIUM } from './server';

/** Browser helpers of the back-office tests: Debian's Chromium, headless, nothing fetched from outside. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SHOTS = join(ROOT, 'artifacts', 'screenshots');

export interface MissingKey {
  lng: string;
  key: string;
  soft: boolean;
}

/** Chromium's flag that leaves only the loopback address resolvable. */
export const BLOCK_OUTSIDE = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost';

/** Headless Chromium: the headless shell where installed (`CHROMIUM`), or the browser named. */
export async function launch(executablePath = CHROMIUM): Promise<Browser> {
  return chromium.launch({
    executablePath,
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

/** Problems a page reported by itself: uncaught errors and console errors other than blocked outside requests. */
export interface PageProblems {
  errors: string[];
}

export async function newContext(browser: Browser, _baseUrl: string): Promise<BrowserContext> {
  const ctx = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    acceptDownloads: true,
    locale: 'uz-UZ',
    timezoneId: 'Asia/Tashkent',
  });
  ctx.setDefaultTimeout(15_000);
  return ctx;
}

export function watch(page: Page): PageProblems {
  const problems: PageProblems = { errors: [] };
  page.on('pageerror', (e) => problems.errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const text = m.text();
    // refused outside requests (map tiles) and the HTTP errors the tests provoke on purpose
    if (/Failed to load resource/.test(text)) return;
    // the E-IMZO provider probing for the signing program, which test machines do not run
    if (/WebSocket connection to 'wss:\/\/127\.0\.0\.1:64443\//.test(text)) return;
    problems.errors.push(`console: ${text}`);
  });
  return problems;
}

export async function login(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/admin/#/login`);
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.locator('button[type=submit]').click();
  await page.getByTestId('page-dashboard').waitFor();
}

/**
 * Waits until the back-office's data has been quiet for `quietMs`: react-admin's loading indicator
 * (`.app-loader`, shown while any of its requests is in flight) gone and staying gone. Playwright's
 * "networkidle" also waits on what is not the page's data (the bell's and the jobs' polls, the
 * signing program's probes), and under a busy machine's load it timed out on a settled form.
 */
export async function dataSettled(page: Page, quietMs = 500): Promise<void> {
  await page.evaluate(() => {
    delete (window as { __ecofondBusyAt?: number }).__ecofondBusyAt;
  });
  await page.waitForFunction(
    (quiet) => {
      const w = window as { __ecofondBusyAt?: number };
      const now = performance.now();
      if (w.__ecofondBusyAt === undefined || document.querySelector('.app-loader')) w.__ecofondBusyAt = now;
      return now - w.__ecofondBusyAt >= quiet;
    },
    quietMs,
    { polling: 50, timeout: 30_000 },
  );
}

/**
 * Opens a section of the back-office's menu (`ecofund-sprav`) unless it is open, and waits until its
 * items have unfolded to their full height: an item pressed while its section's `Collapse` still grew
 * lost the press now and then, the address staying put (likeliest: it moved under the pointer).
 */
export async function openMenuSection(page: Page, route: string): Promise<void> {
  const button = page.getByTestId(`menu-section-button-${route}`);
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await page.waitForFunction(
    () => !document.querySelector('[data-testid=app-menu] .MuiCollapse-root:not(.MuiCollapse-entered):not(.MuiCollapse-hidden)'),
  );
}

/** The demo users' password (seeds/demo-users.ts). */
export const DEMO_PASSWORD = 'ecofond-demo';

/** A page of its own browser context, signed in as a (demo) user and watched for page errors. */
export async function signedIn(
  browser: Browser,
  baseUrl: string,
  username: string,
  password = DEMO_PASSWORD,
): Promise<{ page: Page; problems: PageProblems; close: () => Promise<void> }> {
  const ctx = await newContext(browser, baseUrl);
  const page = await ctx.newPage();
  const problems = watch(page);
  await login(page, baseUrl, username, password);
  return { page, problems, close: () => ctx.close() };
}

/** A browser signed in to the back-office as the demo administrator, with a scratch folder for downloads and files. */
export interface AdminSession {
  browser: Browser;
  ctx: BrowserContext;
  page: Page;
  problems: PageProblems;
  dir: string;
  close(): Promise<void>;
}

export async function adminSession(baseUrl: string, name: string): Promise<AdminSession> {
  const dir = mkdtempSync(join(tmpdir(), `ecofond-${name}-`));
  const browser = await launch();
  const ctx = await newContext(browser, baseUrl);
  const page = await ctx.newPage();
  const problems = watch(page);
  await login(page, baseUrl, 'admin', 'ecofond-demo');
  return {
    browser,
    ctx,
    page,
    problems,
    dir,
    async close() {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** GET through the API with the page's session (what the back-office itself would send). */
export async function api<T>(page: Page, path: string, lang = 'uz', init: { method?: string; body?: unknown } = {}): Promise<T> {
  return page.evaluate(
    async ({ path, lang, init }) => {
      const s = JSON.parse(localStorage.getItem('ecofond.session') ?? '{}') as { token?: string };
      const res = await fetch(path, {
        method: init.method ?? 'GET',
        headers: { Authorization: `Bearer ${s.token}`, Language: lang, 'Content-Type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    { path, lang, init },
  ) as Promise<T>;
}

export async function missingKeys(page: Page): Promise<MissingKey[]> {
  return page.evaluate(() => (window as unknown as { __ecofondMissingKeys?: MissingKey[] }).__ecofondMissingKeys ?? []);
}

/**
 * Keys that rendered raw: asked for without a default, or one of our own keys (admin.*, the API's
 * captions) even with one. react-admin probes optional per-resource keys (`resources.x.empty`…)
 * and a few of its own with defaults; those show their default and are not counted. SearchInput
 * asks for the empty key.
 */
const OWN = /^(admin|entity|fields|menu|enums|filters|validation|errors|operations|actions|app)\./;
export function rawKeys(keys: MissingKey[]): MissingKey[] {
  return keys.filter((k) => k.key !== '' && (!k.soft || OWN.test(k.key)));
}

export async function expectNoRawKeys(page: Page): Promise<void> {
  expect(rawKeys(await missingKeys(page)), 'translation keys rendered raw').toEqual([]);
}

/** A screenshot under artifacts/screenshots; `quiet` waits for a notification to go first, so that it covers nothing. */
export async function shot(page: Page, name: string, opts: { quiet?: boolean } = {}): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  if (opts.quiet)
    await page
      .getByTestId('notification')
      .waitFor({ state: 'detached', timeout: 6000 })
      .catch(() => undefined);
  await page.waitForTimeout(300); // let transitions settle
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** The text of the app bar's page title. */
export async function pageTitle(page: Page): Promise<string> {
  return (await page.locator('#react-admin-title').innerText()).trim();
}

/** An .xlsx of one sheet — its header row, then the rows — written in `dir` as `name`, for a test to upload; answers its path. */
export async function writeSheet(dir: string, name: string, sheet: string, header: string[], rows: unknown[][]): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  const file = join(dir, name);
  await wb.xlsx.writeFile(file);
  return file;
}

/**
 * The sections of a date picker (admin/src/generic/DatePickerInput.tsx) beside its hidden input,
 * found by the input's name: `input[name=report_date]`.
 */
export function pickerOf(input: Locator): Locator {
  return input.locator('xpath=..');
}

/** What a picker's field shows, without the direction marks MUI puts around its sections. */
export async function pickerText(input: Locator): Promise<string> {
  return (await pickerOf(input).locator('.MuiPickersSectionList-root').innerText()).replace(/[\u200e\u200f\u2066-\u2069\s]/g, '');
}

/**
 * Types a date (`YYYY-MM-DD`, or `YYYY-MM-DDTHH:mm` into a date-time picker) by keyboard as a
 * user would: what the field held is cleared (Ctrl+A, Backspace), then DD MM YYYY (HH mm) digit by
 * digit, each full section moving on to the next, and Tab leaves the field.
 */
export async function typeDate(input: Locator, value: string): Promise<void> {
  await input.waitFor({ state: 'attached' });
  const first = pickerOf(input).locator('[role=spinbutton]').first();
  const page = input.page();
  await first.click();
  // every section selected, then emptied: the field is one editable text until the first digit, which goes to the day
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  const [y, m, d] = value.slice(0, 10).split('-');
  const time = value.length > 10 ? value.slice(11, 16).replace(':', '') : '';
  await page.keyboard.type(`${d}${m}${y}${time}`);
  await page.keyboard.press('Tab');
}
