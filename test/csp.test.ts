import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { createApp } from '../api/app.ts';
import { loadMetadata } from '../api/meta/load.ts';
import type { Database } from '../api/db/connection.ts';
import { clearConfigCache } from '../api/auth/config.ts';
import { API_POLICY, inlineHashes, pagePolicy, tileOrigins } from '../api/http/csp.ts';
import { serveSite, staticSites } from '../api/http/static.ts';
import { testDatabase } from './support/db.ts';
import { TEST_ADMIN_PASSWORD } from './support/template.ts';

/**
 * Every answer's Content-Security-Policy: the sites' pages a strict one (their inline code by hash,
 * the back-office's run-time styles by a nonce of each answer, the map tiles' origins as images),
 * the API's JSON and the sites' plain files none at all.
 */
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The policy as directive → sources. */
function directives(header: string | null): Record<string, string[]> {
  expect(header, 'Content-Security-Policy').toBeTruthy();
  return Object.fromEntries(
    header!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

function listen(app: Koa<any, any>): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server: Server = app.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    );
  });
}

const BOOT_STYLE = 'html,body{margin:0}\nbody{background:#f4f7f4}';
const PAGE = `<!doctype html>\r\n<html><head>\r\n<style>${BOOT_STYLE.replace('\n', '\r\n')}</style>\r\n<script type="module" crossorigin src="/assets/index.js"></script></head><body><div id="root"></div></body></html>`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ecofond-csp-'));
  for (const site of ['admin', 'public']) {
    mkdirSync(join(dir, site, 'assets'), { recursive: true });
    writeFileSync(join(dir, site, 'index.html'), PAGE);
    writeFileSync(join(dir, site, 'assets', 'index.js'), 'console.log(1)');
  }
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a site page', () => {
  let site: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    const app = new Koa();
    app.use(
      serveSite('/', join(dir, 'public'), {
        page: async (html) => html.replace('<head>', '<head><script>window.__ECOFOND_CONFIG__={"mapTiles":"x"};</script>'),
        mapTiles: async () => 'https://{a-c}.tiles.example.uz:8443/{z}/{x}/{y}.png',
        connect: ['wss://127.0.0.1:64443'],
        styleNonce: true,
      }),
    );
    site = await listen(app);
  });
  afterAll(async () => {
    await site?.close();
  });

  it('allows its own origin, its inline code by hash, and nothing inline else', async () => {
    for (const path of ['/', '/#/map', '/tree/5']) {
      const res = await fetch(site.url + path);
      expect(res.status).toBe(200);
      const d = directives(res.headers.get('content-security-policy'));
      expect(d['default-src']).toEqual(["'self'"]);
      // the config script as written (the page's line breaks, as the browser reads them, are LF)
      expect(d['script-src']).toEqual(["'self'", sha256('window.__ECOFOND_CONFIG__={"mapTiles":"x"};')]);
      expect(d['style-src']).toContain(sha256(BOOT_STYLE));
      expect(d['object-src']).toEqual(["'none'"]);
      expect(d['base-uri']).toEqual(["'self'"]);
      expect(d['form-action']).toEqual(["'self'"]);
      expect(d['frame-ancestors']).toEqual(["'none'"]);
      expect(d['img-src']).toEqual([
        "'self'",
        'data:',
        'blob:',
        'https://a.tiles.example.uz:8443',
        'https://b.tiles.example.uz:8443',
        'https://c.tiles.example.uz:8443',
      ]);
      expect(d['connect-src']).toEqual(["'self'", 'wss://127.0.0.1:64443']);
      expect(res.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    }
  });

  it('gives each answer a fresh style nonce, and the page the same one', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${site.url}/`);
      const d = directives(res.headers.get('content-security-policy'));
      const nonce = d['style-src'].find((s) => s.startsWith("'nonce-"))!.slice(7, -1);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      // first in <head>, before the config script and the styles
      expect(await res.text()).toMatch(
        new RegExp(`^<!doctype html>\\r\\n<html><head><meta property="csp-nonce" nonce="${nonce.replace(/[+/]/g, '\\$&')}"><script>`),
      );
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(3);
  });

  it('keeps the policy of the API on its plain files', async () => {
    const res = await fetch(`${site.url}/assets/index.js`);
    expect(await res.text()).toBe('console.log(1)');
    expect(res.headers.get('content-security-policy')).toBe(API_POLICY);
  });
});

describe('the tile origins', () => {
  it('follow the tile URL template', () => {
    expect(tileOrigins('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toEqual(['https://tile.openstreetmap.org']);
    expect(tileOrigins('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toEqual([
      'https://a.tile.openstreetmap.org',
      'https://b.tile.openstreetmap.org',
      'https://c.tile.openstreetmap.org',
    ]);
    expect(tileOrigins('https://{a-c}.tiles.example.uz/{z}/{x}/{y}.png')).toHaveLength(3);
    expect(tileOrigins('http://mt{0-3}.maps.example.uz:8080/t?x={x}&y={y}&z={z}')).toEqual(
      [0, 1, 2, 3].map((i) => `http://mt${i}.maps.example.uz:8080`),
    );
    expect(tileOrigins('//Tiles.Example.UZ/{z}/{x}/{y}.png')).toEqual(['https://tiles.example.uz']);
    expect(tileOrigins('https://{q}.tiles.example.uz/{z}/{x}/{y}.png')).toEqual(['https://*.tiles.example.uz']);
    // a placeholder too high in the host, a relative or an empty template, or not a URL: nothing more
    expect(tileOrigins('https://tiles.{q}.uz/{z}/{x}/{y}.png')).toEqual([]);
    expect(tileOrigins('/tiles/{z}/{x}/{y}.png')).toEqual([]);
    expect(tileOrigins('')).toEqual([]);
    expect(tileOrigins(undefined)).toEqual([]);
  });

  it('cannot add a source or a directive of their own', () => {
    expect(tileOrigins("https://x.uz'; script-src *; '/{z}")).toEqual([]);
    expect(tileOrigins('https://a.uz;script-src *')).toEqual([]);
    expect(tileOrigins('https://a.uz script-src/{z}')).toEqual([]);
  });
});

describe('inline code', () => {
  it('is allowed by the hash of its text, scripts with a src are not hashed', () => {
    expect(
      inlineHashes('<script>1</script><script type="module" src="/a.js"></script><SCRIPT>1</SCRIPT><style media="print">b{}</style>'),
    ).toEqual({
      scripts: [sha256('1').slice(1, -1)],
      styles: [sha256('b{}').slice(1, -1)],
    });
    expect(directives(pagePolicy({ scriptHashes: ['sha256-x'] }))['script-src']).toEqual(["'self'", "'sha256-x'"]);
  });
});

describe('the served sites and the API', () => {
  let db: Database;
  let dataDir: string | undefined;
  let app: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    db = await testDatabase();
    dataDir = process.env.ECOFOND_DATA_DIR;
    process.env.ECOFOND_DATA_DIR = join(dir, 'data');
    process.env.ECOFOND_MAP_TILES = 'https://{s}.tiles.example.uz/{z}/{x}/{y}.png';
    clearConfigCache(db.knex);
    app = await listen(
      createApp({
        knex: db.knex,
        model: loadMetadata(),
        statics: staticSites(db.knex, { admin: join(dir, 'admin'), public: join(dir, 'public') }),
      }),
    );
  });
  afterAll(async () => {
    delete process.env.ECOFOND_MAP_TILES;
    if (dataDir === undefined) delete process.env.ECOFOND_DATA_DIR;
    else process.env.ECOFOND_DATA_DIR = dataDir;
    await app?.close();
    await db?.close();
  });

  it('give the back-office its config script, nonce, tiles and E-IMZO, and frame neither site', async () => {
    const res = await fetch(`${app.url}/admin/`);
    const html = await res.text();
    const script = /<script>(window\.__ECOFOND_CONFIG__=[^<]*)<\/script>/.exec(html)![1];
    expect(script).toContain('"mapTiles":"https://{s}.tiles.example.uz/{z}/{x}/{y}.png"');
    const d = directives(res.headers.get('content-security-policy'));
    expect(d['script-src']).toEqual(["'self'", sha256(script)]);
    expect(d['style-src']).toEqual(["'self'", expect.stringMatching(/^'nonce-/), sha256(BOOT_STYLE)]);
    expect(d['img-src']).toEqual(["'self'", 'data:', 'blob:', ...['a', 'b', 'c'].map((s) => `https://${s}.tiles.example.uz`)]);
    expect(d['connect-src']).toEqual(["'self'", 'wss://127.0.0.1:64443']);
    expect(d['frame-ancestors']).toEqual(["'none'"]);
    expect(res.headers.get('x-frame-options')).toBe('DENY');

    // the public site: the same tiles, no nonce (it creates no <style>), no E-IMZO
    const pub = directives((await fetch(`${app.url}/`)).headers.get('content-security-policy'));
    expect(pub['style-src']).toEqual(["'self'", sha256(BOOT_STYLE)]);
    expect(pub['img-src']).toEqual(d['img-src']);
    expect(pub['connect-src']).toEqual(["'self'"]);
    expect(pub['frame-ancestors']).toEqual(["'none'"]);
  });

  it('default to OpenStreetMap’s tiles', async () => {
    delete process.env.ECOFOND_MAP_TILES;
    clearConfigCache(db.knex);
    const res = await fetch(`${app.url}/admin/#/login`);
    expect(await res.text()).not.toContain('__ECOFOND_CONFIG__');
    const d = directives(res.headers.get('content-security-policy'));
    expect(d['script-src']).toEqual(["'self'"]);
    expect(d['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org']);
  });

  it('give the API’s JSON answers, errors included, no sources and no framing', async () => {
    for (const [path, status] of [
      ['/api/health', 200],
      ['/api/meta', 401],
      ['/api/no-such-thing', 404],
    ] as const) {
      const res = await fetch(app.url + path);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('content-security-policy')).toBe(API_POLICY);
    }
    expect(API_POLICY).toBe("default-src 'none'; frame-ancestors 'none'");
    // and so does an answer without a body of its own
    const redirect = await fetch(`${app.url}/admin`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('content-security-policy')).toBe(API_POLICY);
  });

  it("leave file downloads to their routes' own policies", async () => {
    const login = await fetch(`${app.url}/api/admin/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
    });
    const headers = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const up = await fetch(`${app.url}/api/resources/upload?name=dot.png`, {
      method: 'POST',
      body: PNG,
      headers: { ...headers, 'Content-Type': 'application/octet-stream' },
    });
    expect(up.status).toBe(201);
    const res = await fetch(`${app.url}/api/resources/${((await up.json()) as { id: number }).id}`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^inline/);
    // the download's own policy: a stored file is the uploader's bytes, sandboxed (api/engine/files.ts)
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
  });
});
