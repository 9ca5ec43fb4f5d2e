import type Koa from 'koa';
import type { Knex } from 'knex';
import { configText, type SiteSettingKey } from '../auth/config.ts';
import { existsSync, readFileSync, statSync, createReadStream } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_POLICY, EIMZO_ORIGIN, inlineHashes, newNonce, OSM_TILES, pagePolicy, tileOrigins } from './csp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

/** The policy of a site's service worker (field/public/sw.js): it loads nothing but fetches its own origin's files. */
export const SERVICE_WORKER_POLICY = "default-src 'none'; connect-src 'self'; frame-ancestors 'none'";

/** What a site's page needs beyond its files: its settings written in, and what its policy allows. */
export interface SiteOptions {
  /** rewrites index.html before it is served (withSiteConfig: the settings as a script) */
  page?: (html: string) => Promise<string>;
  /** the tile URL template the page's maps load (its origins are allowed images); default OpenStreetMap's */
  mapTiles?: () => Promise<string | undefined>;
  /** more connect-src sources (the back-office's E-IMZO program) */
  connect?: readonly string[];
  /** the page's scripts create `<style>` elements (emotion): each answer gets a nonce for them */
  styleNonce?: boolean;
  /** worker-src sources beyond the site's own */
  worker?: readonly string[];
}

/**
 * Serves a built single-page site from `dir` under `prefix`: files by path (hashed assets cached
 * for a year, the others revalidated by their date; the build's Brotli or gzip copy when the
 * client takes it), index.html for the rest (hash routing needs nothing else). The page carries its
 * Content-Security-Policy (csp.ts); the plain files `default-src 'none'`.
 */
export function serveSite(prefix: string, dir: string, options: SiteOptions = {}): Koa.Middleware {
  const root = resolve(dir);
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (prefix !== '/' && ctx.path === prefix.replace(/\/$/, '')) {
      ctx.redirect(prefix);
      return;
    }
    if (!ctx.path.startsWith(prefix) || ctx.path.startsWith('/api/')) return next();
    const rel = decodeURIComponent(ctx.path.slice(prefix.length)) || 'index.html';
    const file = normalize(join(root, rel));
    if (!file.startsWith(root)) return next();
    const target = existsSync(file) && statSync(file).isFile() ? file : join(root, 'index.html');
    if (!existsSync(target)) return next();
    ctx.type = TYPES[extname(target)] ?? 'application/octet-stream';
    ctx.set('Cache-Control', target.includes(`${join('/', 'assets', '/')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (extname(target) !== '.html') {
      // a service worker runs under its script's policy: the field app's fetches what it keeps (its own origin)
      ctx.set('Content-Security-Policy', target === join(root, 'sw.js') ? SERVICE_WORKER_POLICY : API_POLICY);
      const stat = statSync(target);
      ctx.lastModified = stat.mtime;
      ctx.status = 200;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      const packed = precompressed(ctx, target);
      if (packed) {
        ctx.set('Content-Encoding', packed.encoding);
        ctx.body = createReadStream(packed.file);
        ctx.length = packed.size;
      } else {
        ctx.body = createReadStream(target);
        ctx.length = stat.size;
      }
      return;
    }
    let html = readFileSync(target, 'utf8');
    if (options.page && target === join(root, 'index.html')) html = await options.page(html);
    await servePage(ctx, html, options);
  };
}

/** The files the build compressed beside each asset (shared/precompress.ts), by Content-Encoding. */
const PACKED = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;

/** Accept-Encoding's codings with their q (`gzip;q=0.5, br` → gzip 0.5, br 1). */
export function acceptedEncodings(header: string): Map<string, number> {
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part
      .trim()
      .toLowerCase()
      .split(';')
      .map((p) => p.trim());
    if (!name) continue;
    const qp = params.find((p) => p.startsWith('q='));
    const v = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(v) ? v : 0);
  }
  return q;
}

/**
 * The build's compressed copy of `file` the request accepts (Brotli before gzip), if there is one;
 * none when the client accepts neither — then the file goes as it is, and the compression
 * middleware (api/http/compress.ts) compresses what it may. `Vary: Accept-Encoding` either way.
 */
function precompressed(ctx: Koa.Context, file: string): { encoding: string; file: string; size: number } | undefined {
  ctx.vary('Accept-Encoding');
  const there = PACKED.filter(([, ext]) => existsSync(file + ext));
  if (!there.length) return undefined;
  // the accepted one of highest q; at equal q Brotli (browsers list gzip first: `gzip, deflate, br`)
  const q = acceptedEncodings(ctx.get('Accept-Encoding'));
  const hit = there
    .filter(([e]) => (q.get(e) ?? q.get('*') ?? 0) > 0)
    .sort((a, b) => (q.get(b[0]) ?? q.get('*') ?? 0) - (q.get(a[0]) ?? q.get('*') ?? 0))[0];
  if (!hit) return undefined;
  // answered as it is: the compression middleware leaves an answer with a Content-Encoding alone
  return { encoding: hit[0], file: file + hit[1], size: statSync(file + hit[1]).size };
}

/**
 * Answers with a page and its policy: its inline scripts and styles allowed by their hashes, a
 * fresh style nonce (in `<meta property="csp-nonce">`, first in `<head>`) when the site asks for
 * one, the map tiles' origins as images.
 */
export async function servePage(ctx: Koa.Context, html: string, options: Omit<SiteOptions, 'page'> = {}): Promise<void> {
  const { scripts, styles } = inlineHashes(html);
  const nonce = options.styleNonce ? newNonce() : undefined;
  if (nonce) {
    const meta = `<meta property="csp-nonce" nonce="${nonce}">`;
    html = /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (tag) => tag + meta) : meta + html;
  }
  const tiles = options.mapTiles ? await options.mapTiles() : OSM_TILES;
  ctx.set(
    'Content-Security-Policy',
    pagePolicy({
      scriptHashes: scripts,
      styleHashes: styles,
      styleNonce: nonce,
      img: tileOrigins(tiles),
      connect: options.connect,
      worker: options.worker,
    }),
  );
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

/** What each site's page is given: the public site's contacts and tiles; the back-office's tiles and E-IMZO key. */
export const PUBLIC_SETTINGS = [
  ['site.hotline', 'hotline'],
  ['site.email', 'email'],
  ['site.map_tiles', 'mapTiles'],
] as const;
export const ADMIN_SETTINGS = [
  ['site.map_tiles', 'mapTiles'],
  ['esign.eimzo_api_key', 'eimzoKey'],
] as const;

/**
 * A site's page with its settings (hotline, e-mail, map tiles from the settings screen or
 * the environment) as `window.__ECOFOND_CONFIG__`, read by the site before it starts; unset ones
 * are left out, so the site's own defaults apply. `<` is escaped, so a value cannot end the script.
 */
export async function withSiteConfig(
  knex: Knex,
  html: string,
  settings: readonly (readonly [SiteSettingKey, string])[] = PUBLIC_SETTINGS,
): Promise<string> {
  const config: Record<string, string> = {};
  for (const [key, name] of settings) {
    const v = await configText(knex, key);
    if (v !== undefined) config[name] = v;
  }
  if (!Object.keys(config).length) return html;
  const script = `<script>window.__ECOFOND_CONFIG__=Object.assign(window.__ECOFOND_CONFIG__||{},${JSON.stringify(config).replace(/</g, '\\u003c')});</script>`;
  // first thing in <head>: before any of the site's own scripts
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (tag) => tag + script) : script + html;
}

/**
 * The back-office at /admin/, the field app at /field/ and the public site at /, when they have
 * been built (`dirs`: other folders, for tests).
 */
export function staticSites(knex?: Knex, dirs: { admin?: string; public?: string; field?: string } = {}): Koa.Middleware[] {
  const sites: Koa.Middleware[] = [];
  const admin = dirs.admin ?? join(ROOT, 'admin', 'dist');
  const field = dirs.field ?? join(ROOT, 'field', 'dist');
  const pub = dirs.public ?? join(ROOT, 'public-site', 'dist');
  const tilesSetting = async () => (knex ? await configText(knex, 'site.map_tiles') : undefined);
  if (existsSync(admin)) {
    sites.push(
      serveSite('/admin/', admin, {
        page: knex ? (html) => withSiteConfig(knex, html, ADMIN_SETTINGS) : undefined,
        // the back-office's maps: the setting, else OpenLayers' OSM source
        mapTiles: async () => (await tilesSetting()) ?? OSM_TILES,
        connect: [EIMZO_ORIGIN],
        styleNonce: true,
      }),
    );
  }
  // the field app (docs/field-app.md): its service worker (sw.js, revalidated like every file outside
  // assets/) keeps the shell for offline starts; it loads no map tiles and no inline script
  if (existsSync(field)) sites.push(serveSite('/field/', field, { mapTiles: async () => '' }));
  // the public site's maps: the setting, else VITE_MAP_TILES of its build (seen here when the server
  // runs in the environment that built it, as `npm start` does), else OpenStreetMap's
  const publicTiles = async () => (await tilesSetting()) ?? process.env.VITE_MAP_TILES ?? OSM_TILES;
  if (existsSync(pub))
    sites.push(serveSite('/', pub, { page: knex ? (html) => withSiteConfig(knex, html) : undefined, mapTiles: publicTiles }));
  else
    sites.push(async (ctx, next) => {
      if (ctx.path !== '/') return next();
      await servePage(ctx, readFileSync(new URL('./placeholder.html', import.meta.url), 'utf8'), { mapTiles: async () => '' });
    });
  return sites;
}
