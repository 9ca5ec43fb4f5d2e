import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { compressibleType, compression, COMPRESS_THRESHOLD } from '../api/http/compress.ts';
import { serveSite } from '../api/http/static.ts';
import { precompressDir } from '../shared/precompress.ts';
import { filesOf, readManifest } from '../bench/bundle-size/measure.ts';
import { startTestApi, type TestApi } from './support/api.ts';
import { skipBecause } from './support/skip.ts';

/**
 * Compression and caching (issue 29): the API's text answers in Brotli or gzip above 1 KB by the
 * request's Accept-Encoding, with `Vary: Accept-Encoding`; /api/meta revalidated by its ETag; the
 * sites' files sent as the build compressed them, hashed ones cached for a year.
 */

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET with exactly these headers, the body as it came over the wire (node:http decodes nothing). */
function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

function decoded(r: Raw): Buffer {
  const enc = r.headers['content-encoding'];
  return enc === 'br' ? brotliDecompressSync(r.body) : enc === 'gzip' ? gunzipSync(r.body) : r.body;
}

const varies = (r: Raw) =>
  String(r.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');

describe('which answers are compressed', () => {
  it('text and JSON, not event streams nor already-compressed files', () => {
    for (const t of [
      'application/json',
      'text/html',
      'text/csv',
      'text/javascript',
      'text/css',
      'image/svg+xml',
      'application/geo+json',
      'application/problem+json',
    ])
      expect(compressibleType(t), t).toBe(true);
    for (const t of [
      'text/event-stream',
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/zip',
      'image/png',
      'font/woff2',
      'application/octet-stream',
      '',
    ])
      expect(compressibleType(t), t).toBe(false);
  });
});

describe('the API', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });
  const auth = () => ({ Authorization: `Bearer ${api.adminToken}`, Language: 'ru' });

  it('sends /api/meta in Brotli or gzip as asked, the same JSON as uncompressed, and says it varies', async () => {
    const plain = await get(`${api.url}/api/meta`, auth());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(varies(plain)).toBe(true);
    const json = JSON.parse(plain.body.toString('utf8'));
    expect(json.entities.length).toBeGreaterThan(10);
    for (const [accept, expected] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
    ] as const) {
      const r = await get(`${api.url}/api/meta`, { ...auth(), 'Accept-Encoding': accept });
      expect(r.status, accept).toBe(200);
      expect(r.headers['content-encoding'], accept).toBe(expected);
      expect(varies(r), accept).toBe(true);
      expect(r.body.length, accept).toBeLessThan(plain.body.length / 4);
      expect(JSON.parse(decoded(r).toString('utf8')), accept).toEqual(json);
    }
  });

  it('leaves answers under the threshold as they are, and says they vary', async () => {
    const r = await get(`${api.url}/api/health`, { 'Accept-Encoding': 'br, gzip' });
    expect(r.status).toBe(200);
    expect(r.body.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(varies(r)).toBe(true);
  });

  it('compresses a list of rows above the threshold', async () => {
    const regions = api.model.entities.get('regions')!;
    const list = await get(`${api.url}/api${regions.path}?range=${encodeURIComponent('[0,99]')}`, { ...auth(), 'Accept-Encoding': 'gzip' });
    expect(list.status).toBe(200);
    expect(JSON.parse(decoded(list).toString('utf8')).length).toBeGreaterThan(0);
    expect(decoded(list).length).toBeGreaterThan(COMPRESS_THRESHOLD);
    expect(list.headers['content-encoding']).toBe('gzip');
    // react-admin's total, counted in rows, is kept
    expect(list.headers['content-range']).toMatch(/^regions 0-\d+\/\d+$/);
    expect(varies(list)).toBe(true);
  });

  it('sends an .xlsx export as it is: it is a zip already', async () => {
    const regions = api.model.entities.get('regions')!;
    const r = await get(`${api.url}/api${regions.path}/export`, { ...auth(), 'Accept-Encoding': 'br, gzip' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toContain('spreadsheetml');
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('gives /api/meta an ETag, and a bodiless 304 while it holds', async () => {
    const first = await get(`${api.url}/api/meta`, { ...auth(), 'Accept-Encoding': 'br' });
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"m-[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await get(`${api.url}/api/meta`, { ...auth(), 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // another language, another caller's rights, or a stale tag: the answer in full
    const uz = await get(`${api.url}/api/meta`, { ...auth(), Language: 'uz', 'If-None-Match': etag });
    expect(uz.status).toBe(200);
    expect(uz.headers.etag).not.toBe(etag);
    const reader = await api.userWithActions('meta_etag_reader', []);
    const theirs = await get(`${api.url}/api/meta`, { Authorization: `Bearer ${reader}`, Language: 'ru', 'If-None-Match': etag });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.etag).not.toBe(etag);
    const stale = await get(`${api.url}/api/meta`, { ...auth(), 'If-None-Match': '"m-stale"' });
    expect(stale.status).toBe(200);
    // without a session it is still a 401, never a 304
    expect((await get(`${api.url}/api/meta`, { 'If-None-Match': etag })).status).toBe(401);
  });
});

describe("a site's files", () => {
  let dir: string;
  let url: string;
  let server: http.Server;
  const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: "row ${i}" }`).join(', ')}];\n`;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ecofond-compress-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body></body></html>',
    );
    writeFileSync(join(dir, 'assets', 'index-AbC123.js'), script);
    writeFileSync(join(dir, 'assets', 'tiny-XyZ789.js'), 'export {};\n');
    writeFileSync(join(dir, 'icon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<g></g>'.repeat(300)}</svg>`);
    await precompressDir(dir);
    const app = new Koa();
    app.use(compression());
    app.use(serveSite('/', dir));
    server = await new Promise((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server?.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('are compressed at build time beside each file above 1 KB, not the page nor the tiny ones', () => {
    expect(existsSync(join(dir, 'assets', 'index-AbC123.js.br'))).toBe(true);
    expect(existsSync(join(dir, 'assets', 'index-AbC123.js.gz'))).toBe(true);
    expect(existsSync(join(dir, 'assets', 'tiny-XyZ789.js.br'))).toBe(false);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(false);
  });

  it('sends the Brotli or the gzip copy as accepted, the file itself otherwise, cached for a year', async () => {
    for (const [accept, enc, copy] of [
      ['br, gzip', 'br', '.br'],
      ['gzip, deflate, br', 'br', '.br'],
      ['gzip', 'gzip', '.gz'],
      ['br;q=0.2, gzip;q=0.8', 'gzip', '.gz'],
      ['*', 'br', '.br'],
      ['br;q=0, *', 'gzip', '.gz'],
      ['', undefined, ''],
      ['deflate', undefined, ''],
      ['identity', undefined, ''],
    ] as const) {
      const r = await get(`${url}/assets/index-AbC123.js`, accept ? { 'Accept-Encoding': accept } : {});
      expect(r.status, accept).toBe(200);
      expect(r.headers['content-encoding'], accept).toBe(enc);
      // byte for byte the build's copy: nothing compressed again on the fly
      expect(r.body.equals(readFileSync(join(dir, 'assets', `index-AbC123.js${copy}`))), accept).toBe(true);
      expect(decoded(r).toString('utf8')).toBe(script);
      expect(r.headers['content-type']).toContain('text/javascript');
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(varies(r), accept).toBe(true);
    }
  });

  it('sends a small file as it is', async () => {
    const r = await get(`${url}/assets/tiny-XyZ789.js`, { 'Accept-Encoding': 'br' });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.toString('utf8')).toBe('export {};\n');
  });

  it('revalidates what is not hashed: the page always, the other files by their date', async () => {
    const page = await get(`${url}/`, { 'Accept-Encoding': 'br' });
    expect(page.headers['cache-control']).toBe('no-cache');
    const icon = await get(`${url}/icon.svg`, { 'Accept-Encoding': 'gzip' });
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect(icon.headers['content-encoding']).toBe('gzip');
    const since = icon.headers['last-modified']!;
    expect(since).toBeTruthy();
    const again = await get(`${url}/icon.svg`, { 'Accept-Encoding': 'gzip', 'If-Modified-Since': since });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });
});

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const builtAdmin = join(ROOT, 'admin', 'dist');
const notBuilt = existsSync(join(builtAdmin, '.vite', 'manifest.json'))
  ? undefined
  : 'the back-office is not built (npm run build:admin): its files cannot be served';

describe("the built back-office's first screen", skipBecause(notBuilt), () => {
  let url: string;
  let server: http.Server;
  beforeAll(async () => {
    const app = new Koa();
    app.use(compression());
    app.use(serveSite('/admin/', builtAdmin));
    server = await new Promise((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server?.close(() => r()));
  });

  it('is sent in Brotli, each hashed file cached for a year', async () => {
    const { js } = filesOf(readManifest(builtAdmin), ['index.html']);
    expect(js.length).toBeGreaterThan(0);
    for (const file of js) {
      const r = await get(`${url}/admin/${file}`, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(r.status, file).toBe(200);
      expect(r.headers['cache-control'], file).toBe('public, max-age=31536000, immutable');
      expect(varies(r), file).toBe(true);
      const raw = readFileSync(join(builtAdmin, file));
      if (raw.length >= COMPRESS_THRESHOLD) expect(r.headers['content-encoding'], file).toBe('br');
      expect(decoded(r).equals(raw), file).toBe(true);
    }
    const page = await get(`${url}/admin/`, { 'Accept-Encoding': 'br' });
    expect(page.headers['cache-control']).toBe('no-cache');
    // the page names the entry it loads
    expect(decoded(page).toString('utf8')).toContain(`/admin/${readManifest(builtAdmin)['index.html'].file}`);
  });
});
