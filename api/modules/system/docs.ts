import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { RouteHandler } from '../types.ts';
import { openApiJson } from '../../http/openapi.ts';
import { servePage } from '../../http/static.ts';

const require = createRequire(import.meta.url);
/** Redoc's standalone bundle, served from node_modules by this server (the page loads nothing from elsewhere). */
const RENDERER = require.resolve('redoc/bundles/redoc.standalone.js');
const PAGE = readFileSync(new URL('./docs/docs.html', import.meta.url), 'utf8');
const SCRIPT = new URL('./docs/docs.js', import.meta.url);

/**
 * The API's reference: `/api/openapi.json` generated from the metadata for the caller (the public
 * calls without a token, the caller's routes with one: api/http/openapi.ts), and the page
 * `/api/docs` drawing it with Redoc under the sites' strict Content-Security-Policy — its scripts
 * from this origin, Redoc's run-time styles by the answer's nonce.
 */
export const DOCS_HANDLERS: Record<string, RouteHandler> = {
  'system.openapi': async (ctx, { model, principal, lang }) => {
    ctx.type = 'application/json';
    ctx.body = openApiJson(model, principal, lang);
  },
  'system.docs': async (ctx) => {
    await servePage(ctx, PAGE, { styleNonce: true, mapTiles: async () => '', worker: ['blob:'] });
  },
  'system.docsScript': async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = createReadStream(SCRIPT);
  },
  'system.docsRenderer': async (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = createReadStream(RENDERER);
  },
};
