import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { SERVICE_WORKER_POLICY, staticSites } from '../api/http/static.ts';
import { API_POLICY } from '../api/http/csp.ts';

/**
 * The field app served at /field/ beside the public site at / (issue 30, docs/decisions/0071): its
 * page, hashed assets cached for a year, its manifest typed for browsers to install it, and its
 * service worker revalidated and allowed to fetch its own origin (the plain files' policy would
 * forbid the worker every fetch).
 */
let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ecofond-field-site-'));
  for (const site of ['public', 'field']) {
    mkdirSync(join(dir, site, 'assets'), { recursive: true });
    writeFileSync(join(dir, site, 'index.html'), `<!doctype html><html><head></head><body>${site}</body></html>`);
  }
  writeFileSync(join(dir, 'field', 'assets', 'index-abc123.js'), 'console.log(1);');
  writeFileSync(join(dir, 'field', 'sw.js'), "self.addEventListener('fetch', () => {});");
  writeFileSync(join(dir, 'field', 'manifest.webmanifest'), '{"name":"x"}');
  const app = new Koa();
  for (const m of staticSites(undefined, { admin: join(dir, 'none'), public: join(dir, 'public'), field: join(dir, 'field') })) app.use(m);
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('the field app at /field/', () => {
  it('answers its page for its paths, and /field goes to /field/', async () => {
    const page = await fetch(`${base}/field/`);
    expect(await page.text()).toContain('field');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(await (await fetch(`${base}/field/any/route`)).text()).toContain('field');
    expect(await (await fetch(`${base}/`)).text()).toContain('public');
    const bare = await fetch(`${base}/field`, { redirect: 'manual' });
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe('/field/');
  });

  it('caches hashed assets for a year under the plain files’ policy', async () => {
    const js = await fetch(`${base}/field/assets/index-abc123.js`);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-security-policy')).toBe(API_POLICY);
  });

  it('revalidates the service worker and lets it fetch its own origin', async () => {
    const sw = await fetch(`${base}/field/sw.js`);
    expect(sw.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect(sw.headers.get('content-security-policy')).toBe(SERVICE_WORKER_POLICY);
    expect(SERVICE_WORKER_POLICY).toMatch(/connect-src 'self'/);
  });

  it('types the manifest for installing', async () => {
    const m = await fetch(`${base}/field/manifest.webmanifest`);
    expect(m.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
  });
});
