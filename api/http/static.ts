import type Koa from 'koa';
import type { Knex } from 'knex';
import { configText, type SiteSettingKey } from '../auth/config.ts';
import { existsSync, readFileSync, statSync, createReadStream } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_POLICY, EIMZO_ORIGIN, inlineHashes, newNonce, OSM_TILES, pagePolicy, tileOrigins } from './csp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.map': 'application/json',
};

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
 * for a year), index.html for the rest (hash routing needs nothing else). The page carries its
 * Content-Security-Policy (csp.ts); the plain files `default-src 'none'`.
 */
export function serveSite(prefix: string, dir: string, options: SiteOptions = {}): Koa.Middleware {
  const root = resolve(dir);
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (prefix !== '/' && ctx.path === prefix.replace(/\/$/, '')) { ctx.redirect(prefix); return; }
    if (!ctx.path.startsWith(prefix) || ctx.path.startsWith('/api/')) return next();
    const rel = decodeURIComponent(ctx.path.slice(prefix.length)) || 'index.html';
    const file = normalize(join(root, rel));
    if (!file.startsWith(root)) return next();
    const target = existsSync(file) && statSync(file).isFile() ? file : join(root, 'index.html');
    if (!existsSync(target)) return next();
    ctx.type = TYPES[extname(target)] ?? 'application/octet-stream';
    ctx.set('Cache-Control', target.includes(`${join('/', 'assets', '/')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (extname(target) !== '.html') {
      ctx.set('Content-Security-Policy', API_POLICY);
      ctx.body = createReadStream(target);
      return;
    }
    let html = readFileSync(target, 'utf8');
    if (options.page && target === join(root, 'index.html')) html = await options.page(html);
    await servePage(ctx, html, options);
  };
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
  ctx.set('Content-Security-Policy', pagePolicy({ scriptHashes: scripts, styleHashes: styles, styleNonce: nonce, img: tileOrigins(tiles), connect: options.connect, worker: options.worker }));
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

/** What each site's page is given: the public site's contacts and tiles; the back-office's tiles and E-IMZO key. */
export const PUBLIC_SETTINGS = [['site.hotline', 'hotline'], ['site.email', 'email'], ['site.map_tiles', 'mapTiles']] as const;
export const ADMIN_SETTINGS = [['site.map_tiles', 'mapTiles'], ['esign.eimzo_api_key', 'eimzoKey']] as const;

/**
 * A site's page with its settings (hotline, e-mail, map tiles from the settings screen or
 * the environment) as `window.__ECOFOND_CONFIG__`, read by the site before it starts; unset ones
 * are left out, so the site's own defaults apply. `<` is escaped, so a value cannot end the script.
 */
export async function withSiteConfig(knex: Knex, html: string, settings: readonly (readonly [SiteSettingKey, string])[] = PUBLIC_SETTINGS): Promise<string> {
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
 * The back-office at /admin/ and the public site at /, when they have been built (`dirs`: other
 * folders, for tests).
 */
export function staticSites(knex?: Knex, dirs: { admin?: string; public?: string } = {}): Koa.Middleware[] {
  const sites: Koa.Middleware[] = [];
  const admin = dirs.admin ?? join(ROOT, 'admin', 'dist');
  const pub = dirs.public ?? join(ROOT, 'public-site', 'dist');
  const tilesSetting = async () => (knex ? await configText(knex, 'site.map_tiles') : undefined);
  if (existsSync(admin)) {
    sites.push(serveSite('/admin/', admin, {
      page: knex ? (html) => withSiteConfig(knex, html, ADMIN_SETTINGS) : undefined,
      // the back-office's maps: the setting, else OpenLayers' OSM source
      mapTiles: async () => (await tilesSetting()) ?? OSM_TILES,
      connect: [EIMZO_ORIGIN],
      styleNonce: true,
    }));
  }
  // the public site's maps: the setting, else VITE_MAP_TILES of its build (seen here when the server
  // runs in the environment that built it, as `npm start` does), else OpenStreetMap's
  const publicTiles = async () => (await tilesSetting()) ?? process.env.VITE_MAP_TILES ?? OSM_TILES;
  if (existsSync(pub)) sites.push(serveSite('/', pub, { page: knex ? (html) => withSiteConfig(knex, html) : undefined, mapTiles: publicTiles }));
  else sites.push(async (ctx, next) => {
    if (ctx.path !== '/') return next();
    await servePage(ctx, readFileSync(new URL('./placeholder.html', import.meta.url), 'utf8'), { mapTiles: async () => '' });
  });
  return sites;
}
