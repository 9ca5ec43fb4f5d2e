import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AxeLog } from './axe';
import { FIELD_USER } from './global-setup';
import { launch, SHOTS, watch, type PageProblems } from './support';

/**
 * The field app (issue 30, docs/field-app.md) in Chromium with the network cut: an inspector signs
 * in, goes offline (`context.setOffline`), captures two offences with two photos each and a tree
 * passport with one, closes the page and opens a new one (the same context: IndexedDB and the
 * service worker's shell persist), goes online — exactly three records arrive with their photos,
 * one audit row each. Then the same with the first answer of each create dropped (the request
 * reaches the server, its answer is lost): still exactly three. And the app at 360 px in the three
 * languages, screenshots in artifacts/screenshots/field-*.png, each screen checked by axe-core
 * (e2e/axe.ts: counts in artifacts/e2e/axe-field.json; a serious or critical violation fails).
 */

const baseUrl = inject('baseUrl');
const OFFENCES = '/api/ecofund-offences/offences';
const PLANTINGS = '/api/ecofund-plantings/plantings';
const uid = `${Date.now() % 1_000_000}`;

let browser: Browser;

interface Fine {
  id: number;
  min_multiple: string;
}
interface Created {
  id: number;
  files?: { file: number }[];
  images?: number[];
}

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function phoneContext(): Promise<BrowserContext> {
  const ctx = await browser.newContext({
    viewport: { width: 360, height: 760 },
    locale: 'uz-UZ',
    timezoneId: 'Asia/Tashkent',
    serviceWorkers: 'allow',
  });
  ctx.setDefaultTimeout(15_000);
  return ctx;
}

/** A call of the API with the field app's session (kept by the app in localStorage). */
async function fieldApi<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (path) => {
    const s = JSON.parse(localStorage.getItem('ecofond.field.session') ?? '{}') as { token?: string };
    const res = await fetch(path, { headers: { Authorization: `Bearer ${s.token}`, Language: 'uz' } });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  }, path) as Promise<T>;
}

/** `n` different pictures drawn in the page (PNG), so that no two photos are one stored file. */
async function pictures(page: Page, n: number, seed: string): Promise<{ name: string; mimeType: string; buffer: Buffer }[]> {
  const data = await page.evaluate(
    ({ n, seed }) =>
      Array.from({ length: n }, (_, i) => {
        const c = document.createElement('canvas');
        c.width = 640;
        c.height = 480;
        const g = c.getContext('2d')!;
        g.fillStyle = `hsl(${(i * 67 + seed.length * 31) % 360} 60% 45%)`;
        g.fillRect(0, 0, 640, 480);
        g.fillStyle = '#fff';
        g.font = '48px sans-serif';
        g.fillText(`${seed} #${i}`, 40, 240);
        return c.toDataURL('image/png').split(',')[1];
      }),
    { n, seed },
  );
  return data.map((b64, i) => ({ name: `${seed}-${i}.png`, mimeType: 'image/png', buffer: Buffer.from(b64, 'base64') }));
}

async function signIn(page: Page) {
  await page.goto(`${baseUrl}/field/`);
  await page.locator('input[name=username]').fill(FIELD_USER.username);
  await page.locator('input[name=password]').fill(FIELD_USER.password);
  await page.locator('button[type=submit]').click();
  await page.getByTestId('sync').waitFor();
  // the reference kept on the device, and the shell kept by the service worker, before the network goes
  await expect.poll(() => page.locator('.sync .hint').count()).toBe(1);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

async function chooseFirst(page: Page, name: string) {
  const value = await page.locator(`select[name="${name}"] option:nth-child(2)`).getAttribute('value');
  await page.locator(`select[name="${name}"]`).selectOption(value!);
}

async function captureOffence(page: Page, number: string, fine: Fine, photos: Awaited<ReturnType<typeof pictures>>) {
  await page.getByTestId('nav-offence').click();
  const form = page.getByTestId('form-offences');
  await form.locator('input[name=number]').fill(number);
  await chooseFirst(page, 'region_id');
  await form.locator('select[name=fine_id]').selectOption(String(fine.id));
  await form.locator('input[name=fine_multiple]').fill(fine.min_multiple);
  await form.locator('input[name="offenders.0.full_name"]').fill('Aliyev Vali');
  await form.locator('input[name=lat]').fill('41.311');
  await form.locator('input[name=lng]').fill('69.279');
  await form.locator('input[name=photos]').setInputFiles(photos);
  await expect.poll(() => form.getByTestId('photo').count()).toBe(photos.length);
  await form.getByTestId('send').click();
  await page.getByTestId('sync').waitFor();
}

async function captureTree(page: Page, place: string, photos: Awaited<ReturnType<typeof pictures>>) {
  await page.getByTestId('nav-tree').click();
  const form = page.getByTestId('form-plantings');
  await chooseFirst(page, 'species_id');
  await chooseFirst(page, 'region_id');
  await form.locator('input[name=place]').fill(place);
  await form.locator('input[name=height_m]').fill('4.5');
  await form.locator('input[name=circumference_cm]').fill('62');
  await form.locator('input[name=lat]').fill('41.32');
  await form.locator('input[name=lng]').fill('69.25');
  await form.locator('input[name=photos]').setInputFiles(photos);
  await expect.poll(() => form.getByTestId('photo').count()).toBe(photos.length);
  await form.getByTestId('send').click();
  await page.getByTestId('sync').waitFor();
}

const states = (page: Page) => page.locator('[data-testid=record]').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));

/**
 * The whole run: offline capture, a new page, online; `dropFirst` loses the first answer of each
 * create on that new page. Answers the problems the pages reported.
 */
async function offlineRun(tag: string, dropFirst: boolean): Promise<void> {
  const ctx = await phoneContext();
  const problems: PageProblems[] = [];
  try {
    const page = await ctx.newPage();
    problems.push(watch(page));
    await signIn(page);
    const ref = await fieldApi<{ books: { fine: Fine[] } }>(page, '/api/field/reference');
    const fine = ref.books.fine[0];
    const shots = await pictures(page, 5, tag);

    await ctx.setOffline(true);
    await expect.poll(() => page.getByTestId('net').getAttribute('class')).toContain('off');
    await captureOffence(page, `${tag}-1`, fine, shots.slice(0, 2));
    await captureOffence(page, `${tag}-2`, fine, shots.slice(2, 4));
    await captureTree(page, `${tag}-tree`, shots.slice(4));
    expect(await states(page)).toEqual(['queued', 'queued', 'queued']);
    await page.close();

    // the app opened again with no network: the service worker's shell, the drafts from IndexedDB
    const again = await ctx.newPage();
    problems.push(watch(again));
    const dropped = new Set<string>();
    if (dropFirst) {
      await again.route(/\/api\/(ecofund-offences\/offences|ecofund-plantings\/plantings)$/, async (route) => {
        const key = route.request().headers()['idempotency-key'];
        if (route.request().method() !== 'POST' || !key || dropped.has(key)) return route.continue();
        dropped.add(key);
        // the request reaches the server and is created there; its answer never reaches the app
        await route.fetch();
        await route.abort('connectionreset');
      });
    }
    await again.goto(`${baseUrl}/field/`);
    await again.getByTestId('records').waitFor();
    expect(await states(again)).toEqual(['queued', 'queued', 'queued']);
    await again.screenshot({ path: join(SHOTS, `field-${dropFirst ? 'dropped' : 'offline'}-queue.png`) });

    await ctx.setOffline(false);
    await expect.poll(() => states(again), { timeout: 60_000 }).toEqual(['sent', 'sent', 'sent']);
    if (dropFirst) expect(dropped.size).toBe(3);
    await again.screenshot({ path: join(SHOTS, `field-${dropFirst ? 'dropped' : 'offline'}-sent.png`) });

    // exactly three records, each with its photos and one audit row of its create
    for (const [path, q, photos] of [
      [OFFENCES, `${tag}-1`, 2],
      [OFFENCES, `${tag}-2`, 2],
      [PLANTINGS, `${tag}-tree`, 1],
    ] as const) {
      const rows = await fieldApi<Created[]>(again, `${path}?filter=${encodeURIComponent(JSON.stringify({ q }))}`);
      expect(rows, `${path} ${q}`).toHaveLength(1);
      const row = await fieldApi<Created>(again, `${path}/${rows[0].id}`);
      expect(path === OFFENCES ? row.files : row.images).toHaveLength(photos);
      const history = await fieldApi<{ op: string }[]>(again, `${path}/${rows[0].id}/history`);
      expect(history.filter((h) => h.op === 'create')).toHaveLength(1);
    }
    expect(problems.flatMap((p) => p.errors)).toEqual([]);
  } finally {
    await ctx.close();
  }
}

describe('the field app offline', () => {
  beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

  it('two offences with two photos each and a tree passport captured offline arrive exactly once', async () => {
    await offlineRun(`FLD${uid}A`, false);
  });

  it('with the first answer of each create lost, still exactly three records', async () => {
    await offlineRun(`FLD${uid}B`, true);
  });

  it('at 360 px in uz, uk and ru: sign-in, the queue and both forms, in the language chosen, with no serious axe violation', async () => {
    const ctx = await phoneContext();
    const axe = new AxeLog('field');
    const violations: string[] = [];
    try {
      const page = await ctx.newPage();
      const problems = watch(page);
      await page.goto(`${baseUrl}/field/`);
      for (const lang of ['uz', 'uk', 'ru']) {
        await page.getByTestId('lang').selectOption(lang);
        await page.screenshot({ path: join(SHOTS, `field-login-${lang}.png`), fullPage: true });
        violations.push(...(await axe.check(page, `${lang} sign-in`)));
      }
      await page.getByTestId('lang').selectOption('uz');
      await signIn(page);
      const words = { uz: 'Yuborish navbati', uk: 'Юбориш навбати', ru: 'Очередь отправки' };
      for (const lang of ['uz', 'uk', 'ru'] as const) {
        await page.getByTestId('lang').selectOption(lang);
        await page.getByTestId('nav-records').click();
        await expect.poll(() => page.getByTestId('sync').textContent()).toContain(words[lang]);
        await page.screenshot({ path: join(SHOTS, `field-records-${lang}.png`), fullPage: true });
        violations.push(...(await axe.check(page, `${lang} records`)));
        await page.getByTestId('nav-offence').click();
        await page.getByTestId('form-offences').waitFor();
        violations.push(...(await axe.check(page, `${lang} offence form`)));
        // sent empty: the device's own check names the fields, in the language shown
        await page.getByTestId('send').click();
        await page.locator('.field .error').first().waitFor();
        await page.screenshot({ path: join(SHOTS, `field-offence-${lang}.png`), fullPage: true });
        violations.push(...(await axe.check(page, `${lang} offence form with errors`)));
        await page.getByTestId('nav-tree').click();
        await page.getByTestId('form-plantings').waitFor();
        await page.screenshot({ path: join(SHOTS, `field-tree-${lang}.png`), fullPage: true });
        violations.push(...(await axe.check(page, `${lang} tree form`)));
      }
      expect(problems.errors).toEqual([]);
      expect(violations, violations.join('\n')).toEqual([]);
    } finally {
      axe.write();
      await ctx.close();
    }
  });
});
