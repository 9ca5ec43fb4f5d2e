import type Koa from 'koa';
import koaCompress from 'koa-compress';
import { constants } from 'node:zlib';

/** Answers smaller than this go as they are: under one packet, compressing gains nothing. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Which answers are compressed on the fly: text (JSON, GeoJSON, HTML, CSV, JavaScript, CSS, SVG,
 * XML) but never a stream of events (each must reach the reader when written, a compressor holds
 * it back). Already-compressed downloads — .xlsx, .pdf, .zip, images, fonts — are not text.
 */
const TEXT = /^(?:text\/(?!event-stream\b)[\w.+-]+|application\/(?:json|javascript|xml|[\w.-]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;

export function compressibleType(type: string): boolean {
  return TEXT.test(type);
}

/**
 * Brotli or gzip for every compressible answer above COMPRESS_THRESHOLD bytes, by the request's
 * Accept-Encoding, with `Vary: Accept-Encoding` on every answer (docs/decisions/0053). On the fly
 * Brotli runs at quality 4 and gzip at level 6, cheap enough per answer (docs/performance.md has
 * /api/meta's figures); the sites'
 * files are compressed once at build time at the highest level (shared/precompress.ts) and
 * served as they are (api/http/static.ts sets their Content-Encoding, which this leaves alone).
 * A route turns it off with `ctx.compress = false`.
 */
export function compression(): Koa.Middleware {
  const compress = koaCompress({
    threshold: COMPRESS_THRESHOLD,
    filter: compressibleType,
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    gzip: { level: 6 },
    deflate: false,
  }) as unknown as Koa.Middleware;
  // koa-compress leaves alone an answer with a Content-Range (a part of a file, whose offsets are
  // the uncompressed bytes'). The lists' Content-Range (`payments 0-24/310`, react-admin's total)
  // counts rows, not bytes: it is set aside while koa-compress decides, and put back after.
  const rowRange = Symbol('row range');
  type Held = Koa.Context & { [rowRange]?: string };
  const restore: Koa.Middleware = async (ctx, next) => {
    await next();
    const held = (ctx as Held)[rowRange];
    if (held !== undefined) ctx.set('Content-Range', held);
  };
  const setAside: Koa.Middleware = async (ctx, next) => {
    await next();
    const range = ctx.response.get('Content-Range');
    if (range && ctx.status !== 206 && !/^bytes\b/i.test(range)) {
      (ctx as Held)[rowRange] = range;
      ctx.remove('Content-Range');
    }
  };
  // koa-compress asks the answer's length, and Koa's length of an object body is the byte length
  // of its JSON, stringified for that alone and again when sent: a list's page was serialized twice
  // (8 % of a by-id read's processor in bench/api-list's profile). A plain object or array is
  // serialized here once; its Content-Type (JSON, set when it was assigned) stays.
  const jsonOnce: Koa.Middleware = async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (body !== null && typeof body === 'object' && (Array.isArray(body) || Object.getPrototypeOf(body) === Object.prototype))
      ctx.body = JSON.stringify(body);
  };
  return (ctx, next) => restore(ctx, () => compress(ctx, () => setAside(ctx, () => jsonOnce(ctx, next))));
}
