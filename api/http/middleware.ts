import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Lang, MetaModel } from '../meta/types.ts';
import { LANGS } from '../meta/types.ts';
import { translate } from '../meta/captions.ts';
import { ApiError, ERROR_CODES } from './errors.ts';
import { API_POLICY } from './csp.ts';
import { principalForToken } from '../auth/sessions.ts';
import { sessionCacheOf } from '../auth/session-cache.ts';
import type { Principal } from '../auth/ability.ts';
import { isDataError } from '../engine/db-errors.ts';
import { errorFields, log } from '../observability/log.ts';
import { logAppError } from '../read-models/system-log.ts';

export interface AppState {
  requestId: string;
  lang: Lang;
  principal?: Principal & { sessionId: number; lang_code: string };
  token?: string;
  /** the model this request is answered with, from its start to its end (docs/reference-books.md) */
  model?: MetaModel;
}

export type AppContext = Koa.ParameterizedContext<AppState>;

/** `Language: uz | uk | ru` (uk is Uzbek Cyrillic); anything else falls back to uz. */
export function language(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const raw = String(ctx.get('Language') || ctx.query.lang || '').toLowerCase();
    ctx.state.lang = (LANGS as string[]).includes(raw) ? (raw as Lang) : 'uz';
    await next();
  };
}

export function securityHeaders(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    ctx.state.requestId = randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (ctx.path.startsWith('/api/')) ctx.set('Cache-Control', 'no-store');
    await next();
    // the API's JSON (and any other answer without a policy of its own: redirects, plain 404s) loads
    // nothing and is framed by no one; the sites' pages carry their own (static.ts), and file
    // downloads (stored files, spreadsheets: they have a Content-Disposition) keep what their routes give them
    if (!ctx.response.get('Content-Security-Policy') && !ctx.response.get('Content-Disposition')) {
      ctx.set('Content-Security-Policy', API_POLICY);
    }
  };
}

/**
 * CORS for the origins named in ECOFOND_CORS_ORIGINS (comma-separated) only; the back-office and
 * the public site are served from the same origin and need none.
 */
export function cors(
  origins = (process.env.ECOFOND_CORS_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
): Koa.Middleware<AppState> {
  const allowed = new Set(origins);
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    if (!origin || !allowed.has(origin)) return next();
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Vary', 'Origin');
    // a field device's headers too: idempotent creates, resumable uploads (tus), reference versions (docs/field-app.md)
    ctx.set(
      'Access-Control-Expose-Headers',
      'Content-Range, X-Total-Count, X-Total-Exact, Content-Disposition, X-Request-Id, Idempotent-Replayed, ETag, Location, Upload-Offset, Upload-Length, Tus-Resumable, Ecofond-Resource-Id',
    );
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, HEAD, DELETE, OPTIONS');
      ctx.set(
        'Access-Control-Allow-Headers',
        'Authorization, Content-Type, Language, If-Match, If-None-Match, Idempotency-Key, Upload-Offset, Upload-Length, Upload-Metadata, Tus-Resumable',
      );
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}

/**
 * Every error leaves as `{code, message, description, errors?}` in the caller's language. An
 * unexpected one is a -201 "System error" whose stack is kept in app_errors under the request id,
 * never shown to the caller. A PostgreSQL data error (a value the database cannot take) that a
 * route let through is the caller's bad input, not a system error: a 400 "wrong value" — still
 * kept in app_errors (with status 400), since the check that should have named the field is missing.
 */
export function errorHandler(model: MetaModel, knex: Knex): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api')) throw new ApiError('notFound');
    } catch (err) {
      const lang = ctx.state.lang ?? 'uz';
      const t = (key: string, args?: Record<string, unknown>) => translate(model, lang, key, args);
      if (err instanceof ApiError) {
        ctx.status = err.status;
        ctx.body = {
          code: err.code,
          message: t(err.messageKey, err.args),
          description: err.descriptionKey ? t(err.descriptionKey, err.args) : '',
          ...(err.fieldErrors
            ? { errors: Object.fromEntries(Object.entries(err.fieldErrors).map(([f, e]) => [f, t(e.key, e.args)])) }
            : {}),
          ...err.details,
        };
        return;
      }
      const status = (err as { status?: number; expose?: boolean }).status;
      if (status && status >= 400 && status < 500) {
        // body parser and similar client errors
        ctx.status = status;
        ctx.body = {
          code: ERROR_CODES.badRequest,
          message: t(status === 413 ? 'errors.body_too_large' : 'errors.bad_body'),
          description: '',
        };
        return;
      }
      const dataError = isDataError(err);
      ctx.status = dataError ? 400 : 500;
      ctx.body = dataError
        ? { code: ERROR_CODES.badRequest, message: t('errors.bad_value'), description: '', requestId: ctx.state.requestId }
        : { code: ERROR_CODES.system, message: t('errors.system'), description: '', requestId: ctx.state.requestId };
      const e = err as Error;
      // the log has the error's kind and stack under the request id; its message, which may quote the input, is in app_errors
      log.error(
        {
          reqId: ctx.state.requestId,
          userId: ctx.state.principal?.id ?? null,
          method: ctx.method,
          status: ctx.status,
          err: errorFields(e),
        },
        dataError ? 'data error' : 'system error',
      );
      // the message may quote the bad input: keep it storable
      const clean = (s: string, n: number) =>
        (s.slice(0, n) as unknown as { toWellFormed(): string }).toWellFormed().replace(/\u0000/g, '\uFFFD');
      await logAppError(knex, {
        request_id: ctx.state.requestId,
        user_id: ctx.state.principal?.id ?? null,
        method: ctx.method,
        path: clean(ctx.path, 500),
        status: ctx.status,
        message: clean(String(e?.message ?? e), 2000),
        stack: clean(String(e?.stack ?? ''), 20000),
      });
    }
  };
}

/**
 * Requires a bearer token: 401 without one, "Sessiya vaqti tugadi" when it has expired. The session
 * and the caller's actions come from the process's session cache when it has them (docs/sessions.md;
 * ECOFOND_SESSION_CACHE=off reads them on every request).
 */
export function authenticate(knex: Knex): Koa.Middleware<AppState> {
  const cache = process.env.ECOFOND_SESSION_CACHE === 'off' ? undefined : sessionCacheOf(knex);
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) throw new ApiError('unauthorized');
    ctx.state.token = m[1];
    ctx.state.principal = await principalForToken(knex, m[1], cache);
    await next();
  };
}
