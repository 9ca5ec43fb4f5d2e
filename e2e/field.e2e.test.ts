import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AxeLog } from './axe';
import { FIELD_USER } from './global-setup';
import { CHROMIUM_BROWSER } from './server';
import { launch, SHOTS, watch, type PageProblems } from './support';

/**
 * The field app (issue 30, docs/field-app.md) in Chromium with the network cut: the demo field user
 * signs in, goes offline (`context.setOffline`), captures two offences with two photos each (the
 * first with a witness and a file type chosen per photo), a tree passport with one, an inspector's
 * finding on a planting and a felling violation whose photo carries EXIF time and GPS (offered and
 * taken as the place), closes the page and opens a new one (the same context: IndexedDB and the
 * service worker's shell persist), goes online — exactly five records arrive with their photos,
 * one audit row each. Then the same with the first answer of each create dropped (the request
 * reaches the server, its answer is lost): still exactly one of each. And the app at 360 px in the
 * three languages, screenshots in artifacts/screenshots/field-*.png, each screen checked by axe-core
 * (e2e/axe.ts: counts in artifacts/e2e/axe-field.json; a serious or critical violation fails).
 */

const baseUrl = inject('baseUrl');
const OFFENCES = '/api/ecofund-offences/offences';
const PLANTINGS = '/api/ecofund-plantings/plantings';
const INSPECTIONS = '/api/ecofund-plantings/planting-inspections';
const FELLINGS = '/api/ecofund-plantings/tree-cutting-violations';
/** the EXIF of the felling's photo (exifJpeg): taken 30.11.2026 09:15 at UTC+5, at 41.3205 N 69.2401 E */
const EXIF_PLACE = { lat: 41.3205, lng: 69.2401 };
const uid = `${Date.now() % 1_000_000}`;

let browser: Browser;

interface Fine {
  id: number;
  min_multiple: string;
}
interface Created {
  id: number;
  files?: { file: number; type_id: number; note?: string | null }[];
  images?: number[];
  witnesses?: { full_name: string; phone?: string | null }[];
  location?: { lat: number; lng: number };
}
interface Book {
  id: number;
  code?: string;
}

beforeAll(async () => {
  // the browser itself, not its headless shell: the offline queue asks for Background Sync, which
  // the shell has disabled (docs/decisions/0089)
  browser = await launch(CHROMIUM_BROWSER);
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

/**
 * A JPEG with an EXIF block as a phone's camera writes it: DateTimeOriginal with its
 * OffsetTimeOriginal, and GPS latitude and longitude in degrees, minutes and seconds.
 */
async function exifJpeg(page: Page, name: string): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const b64 = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 800;
    c.height = 600;
    const g = c.getContext('2d')!;
    g.fillStyle = '#5d4037';
    g.fillRect(0, 0, 800, 600);
    g.fillStyle = '#fff';
    g.fillText('kesilgan daraxt', 40, 300);
    return c.toDataURL('image/jpeg', 0.9).split(',')[1];
  });
  const jpeg = Buffer.from(b64, 'base64');
  const tiff = Buffer.alloc(198);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    tiff.writeUInt32LE(value, at + 8);
  };
  // IFD0 (8): the pointers to the EXIF (38) and GPS (96) blocks
  tiff.writeUInt16LE(2, 8);
  entry(10, 0x8769, 4, 1, 38);
  entry(22, 0x8825, 4, 1, 96);
  // EXIF (38): DateTimeOriginal, OffsetTimeOriginal (ASCII at 68 and 88)
  tiff.writeUInt16LE(2, 38);
  entry(40, 0x9003, 2, 20, 68);
  entry(52, 0x9011, 2, 7, 88);
  tiff.write('2026:11:30 09:15:00\0', 68, 'latin1');
  tiff.write('+05:00\0', 88, 'latin1');
  // GPS (96): N 41° 19' 13.8", E 69° 14' 24.36" (rationals at 150 and 174)
  tiff.writeUInt16LE(4, 96);
  entry(98, 1, 2, 2, 0);
  tiff.write('N\0', 106, 'latin1');
  entry(110, 2, 5, 3, 150);
  entry(122, 3, 2, 2, 0);
  tiff.write('E\0', 130, 'latin1');
  entry(134, 4, 5, 3, 174);
  [41, 1, 19, 1, 138, 10, 69, 1, 14, 1, 2436, 100].forEach((v, i) => tiff.writeUInt32LE(v, 150 + i * 4));
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body]);
  return { name, mimeType: 'image/jpeg', buffer: Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]) };
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

async function captureOffence(
  page: Page,
  number: string,
  fine: Fine,
  photos: Awaited<ReturnType<typeof pictures>>,
  extra?: { witness: string; phone: string; secondType: Book },
) {
  await page.getByTestId('nav-offence').click();
  const form = page.getByTestId('form-offences');
  await form.locator('input[name=number]').fill(number);
  await chooseFirst(page, 'region_id');
  await form.locator('select[name=fine_id]').selectOption(String(fine.id));
  await form.locator('input[name=fine_multiple]').fill(fine.min_multiple);
  await form.locator('input[name="offenders.0.full_name"]').fill('Aliyev Vali');
  if (extra) {
    await form.getByRole('button', { name: /Guvoh qoʻshish/ }).click();
    await form.locator('input[name="witnesses.0.full_name"]').fill(extra.witness);
    await form.locator('input[name="witnesses.0.phone"]').fill(extra.phone);
  }
  await form.locator('input[name=lat]').fill('41.311');
  await form.locator('input[name=lng]').fill('69.279');
  await form.locator('input[name=photos]').setInputFiles(photos);
  await expect.poll(() => form.getByTestId('photo').count()).toBe(photos.length);
  // each photo has its file type: the second one another than the default
  if (extra) await form.locator('select[name="files.1.type_id"]').selectOption(String(extra.secondType.id));
  await form.getByTestId('send').click();
  await page.getByTestId('sync').waitFor();
}

async function captureInspection(page: Page, findings: string, photos: Awaited<ReturnType<typeof pictures>>) {
  await page.getByTestId('nav-inspection').click();
  const form = page.getByTestId('form-planting-inspections');
  await chooseFirst(page, 'region_id');
  await form.locator('input[name=trees_checked]').fill('12');
  await form.locator('input[name=trees_alive]').fill('10');
  await form.locator('input[name=trees_dead]').fill('2');
  await form.locator('select[name=result]').selectOption('deficiencies');
  await form.locator('input[name=findings]').fill(findings);
  await form.locator('input[name=photos]').setInputFiles(photos);
  await expect.poll(() => form.getByTestId('photo').count()).toBe(photos.length);
  await form.getByTestId('send').click();
  await page.getByTestId('sync').waitFor();
}

async function captureFelling(page: Page, violator: string, photo: Awaited<ReturnType<typeof exifJpeg>>) {
  await page.getByTestId('nav-felling').click();
  const form = page.getByTestId('form-tree-cutting-violations');
  await chooseFirst(page, 'region_id');
  await form.locator('input[name=violator_name]').fill(violator);
  await chooseFirst(page, 'species_id');
  await form.locator('input[name=trees]').fill('3');
  await form.locator('input[name=photos]').setInputFiles([photo]);
  await expect.poll(() => form.getByTestId('photo').count()).toBe(1);
  // the photo's EXIF, read on the device before resizing: its time (Tashkent) and its GPS, offered as the place
  await expect.poll(() => form.getByTestId('photo-time').textContent()).toContain('30.11.2026 09:15');
  await expect.poll(() => form.getByTestId('photo-gps').textContent()).toContain('41.3205, 69.2401');
  await form.getByTestId('photo-place').click();
  expect(await form.locator('input[name=lat]').inputValue()).toBe(String(EXIF_PLACE.lat));
  expect(await form.locator('input[name=lng]').inputValue()).toBe(String(EXIF_PLACE.lng));
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
 * create on that new page; `all` captures the four forms (a witness and photo types on the first
 * offence), else two offences and a tree passport.
 */
async function offlineRun(tag: string, dropFirst: boolean, all: boolean): Promise<void> {
  const ctx = await phoneContext();
  const problems: PageProblems[] = [];
  try {
    const page = await ctx.newPage();
    problems.push(watch(page));
    await signIn(page);
    const ref = await fieldApi<{ books: { fine: Fine[]; 'offence-files-type': Book[] } }>(page, '/api/field/reference');
    const fine = ref.books.fine[0];
    const types = ref.books['offence-files-type'];
    const photoType = types.find((b) => b.code === 'PHOTO') ?? types[0];
    const secondType = types.find((b) => b.id !== photoType.id) ?? photoType;
    const shots = await pictures(page, all ? 6 : 5, tag);
    const exifShot = all ? await exifJpeg(page, `${tag}-felling.jpg`) : undefined;

    await ctx.setOffline(true);
    await expect.poll(() => page.getByTestId('net').getAttribute('class')).toContain('off');
    await captureOffence(
      page,
      `${tag}-1`,
      fine,
      shots.slice(0, 2),
      all ? { witness: 'Saidova Gulnora', phone: '+998 (90) 123-45-67', secondType } : undefined,
    );
    await captureOffence(page, `${tag}-2`, fine, shots.slice(2, 4));
    await captureTree(page, `${tag}-tree`, shots.slice(4, 5));
    if (all && exifShot) {
      await captureInspection(page, `${tag}-inspection`, shots.slice(5, 6));
      await captureFelling(page, `${tag}-felling`, exifShot);
    }
    const n = all ? 5 : 3;
    expect(await states(page)).toEqual(Array(n).fill('queued'));
    // Chromium has Background Sync: the queue asked for it (elsewhere the app sends on `online` and on opening)
    const tags = await page.evaluate(async () => {
      const reg = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync?: { getTags(): Promise<string[]> } };
      return reg.sync ? await reg.sync.getTags() : null;
    });
    expect(tags).toContain('ecofond-field-queue');
    await page.close();

    // the app opened again with no network: the service worker's shell, the drafts from IndexedDB
    const again = await ctx.newPage();
    problems.push(watch(again));
    const dropped = new Set<string>();
    if (dropFirst) {
      await again.route(/\/api\/(ecofund-offences\/offences|ecofund-plantings\/[a-z-]+)$/, async (route) => {
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
    expect(await states(again)).toEqual(Array(n).fill('queued'));
    await again.screenshot({ path: join(SHOTS, `field-${dropFirst ? 'dropped' : 'offline'}-queue.png`) });

    await ctx.setOffline(false);
    await expect.poll(() => states(again), { timeout: 60_000 }).toEqual(Array(n).fill('sent'));
    if (dropFirst) expect(dropped.size).toBe(n);
    await again.screenshot({ path: join(SHOTS, `field-${dropFirst ? 'dropped' : 'offline'}-sent.png`) });

    // exactly one row of each record, with its photos and one audit row of its create
    const expected: [string, string, number][] = [
      [OFFENCES, `${tag}-1`, 2],
      [OFFENCES, `${tag}-2`, 2],
      [PLANTINGS, `${tag}-tree`, 1],
    ];
    if (all) expected.push([INSPECTIONS, `${tag}-inspection`, 1], [FELLINGS, `${tag}-felling`, 1]);
    const got: Record<string, Created> = {};
    for (const [path, q, photos] of expected) {
      const rows = await fieldApi<Created[]>(again, `${path}?filter=${encodeURIComponent(JSON.stringify({ q }))}`);
      expect(rows, `${path} ${q}`).toHaveLength(1);
      const row = await fieldApi<Created>(again, `${path}/${rows[0].id}`);
      expect(path === OFFENCES ? row.files : row.images).toHaveLength(photos);
      const history = await fieldApi<{ op: string }[]>(again, `${path}/${rows[0].id}/history`);
      expect(history.filter((h) => h.op === 'create')).toHaveLength(1);
      got[q] = row;
    }
    if (all) {
      // the witness as the server stores it, each photo with the type chosen for it
      expect(got[`${tag}-1`].witnesses).toEqual([expect.objectContaining({ full_name: 'Saidova Gulnora', phone: '901234567' })]);
      expect(got[`${tag}-1`].files!.map((f) => f.type_id)).toEqual([photoType.id, secondType.id]);
      // the felling's place is its photo's GPS
      expect(got[`${tag}-felling`].location).toEqual(EXIF_PLACE);
    }
    expect(problems.flatMap((p) => p.errors)).toEqual([]);
  } finally {
    await ctx.close();
  }
}

describe('the field app offline', () => {
  beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

  it('two offences, a tree passport, a planting finding and a felling violation captured offline arrive exactly once', async () => {
    await offlineRun(`FLD${uid}A`, false, true);
  });

  it('with the first answer of each create lost, still exactly three records', async () => {
    await offlineRun(`FLD${uid}B`, true, false);
  });

  it('at 360 px in uz, uk and ru: sign-in, the queue and the four forms, in the language chosen, with no serious axe violation', async () => {
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
        await page.getByTestId('nav-inspection').click();
        await page.getByTestId('send').click();
        await page.locator('.field .error').first().waitFor();
        await page.screenshot({ path: join(SHOTS, `field-inspection-${lang}.png`), fullPage: true });
        violations.push(...(await axe.check(page, `${lang} planting finding with errors`)));
        await page.getByTestId('nav-felling').click();
        await page.screenshot({ path: join(SHOTS, `field-felling-${lang}.png`), fullPage: true });
        violations.push(...(await axe.check(page, `${lang} felling violation form`)));
      }
      expect(problems.errors).toEqual([]);
      expect(violations, violations.join('\n')).toEqual([]);
    } finally {
      axe.write();
      await ctx.close();
    }
  });
});
