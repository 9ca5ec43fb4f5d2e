import type Koa from 'koa';
import type { Knex } from 'knex';
import { configText, type SiteSettingKey } from '../auth/config.ts';
import { existsSync, readFileSync, statSync, createReadStream } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.map': 'application/json',
};

/**
 * Serves a built single-page site from `dir` under `prefix`: files by path (hashed assets cached
 * for a year), index.html for the rest (hash routing needs nothing else).
 */
export function serveSite(prefix: string, dir: string, page?: (html: string) => Promise<string>): Koa.Middleware {
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
    ctx.body = page && target.endsWith('index.html') ? await page(readFileSync(target, 'utf8')) : createReadStream(target);
  };
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

/** The back-office at /admin/ and the public site at /, when they have been built. */
export function staticSites(knex?: Knex): Koa.Middleware[] {
  const sites: Koa.Middleware[] = [];
  const admin = join(ROOT, 'admin', 'dist');
  const pub = join(ROOT, 'public-site', 'dist');
  if (existsSync(admin)) sites.push(serveSite('/admin/', admin, knex ? (html) => withSiteConfig(knex, html, ADMIN_SETTINGS) : undefined));
  if (existsSync(pub)) sites.push(serveSite('/', pub, knex ? (html) => withSiteConfig(knex, html) : undefined));
  else sites.push(async (ctx, next) => {
    if (ctx.path !== '/') return next();
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = readFileSync(new URL('./placeholder.html', import.meta.url));
  });
  return sites;
}
