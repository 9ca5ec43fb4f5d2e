import type Koa from 'koa';
import type { AppState } from './middleware.ts';
import { validationError } from './errors.ts';

/**
 * Text PostgreSQL cannot store is refused before any route sees it: a NUL character (text and
 * jsonb refuse it, the driver would fail the whole statement) and a lone UTF-16 surrogate (the
 * driver would silently store U+FFFD in text, and jsonb refuses its escape). Every string of the
 * parsed JSON body — values and keys, at any depth — and every query parameter is looked at; the
 * answer is a 400 naming the place: `name`, `lines.0.name`, `title.ru`, or the query parameter.
 */

// `String.prototype.isWellFormed` is in Node 20 (ES2024); the project's lib is ES2023
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** True when a string holds a NUL or a lone surrogate. */
export function isBadText(s: string): boolean {
  return s.includes('\u0000') || !wellFormed(s);
}

/** A key shown in an error: its bad characters replaced, so the answer itself is clean. */
function shown(key: string): string {
  return (key as unknown as { toWellFormed(): string }).toWellFormed().replace(/\u0000/g, '\uFFFD');
}

/**
 * The path (dot-separated) of the first string under `value` that PostgreSQL cannot store, or
 * null. A bad key is named by itself (cleaned). Depth is bounded by the body parser's size limit.
 */
export function findBadText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isBadText(value) ? path : null;
  if (!value || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findBadText(value[i], path ? `${path}.${i}` : String(i));
      if (hit !== null) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const p = path ? `${path}.${shown(k)}` : shown(k);
    if (isBadText(k)) return p;
    const hit = findBadText(v, p);
    if (hit !== null) return hit;
  }
  return null;
}

/** The field error for text that cannot be stored, under its path. */
export const badTextError = (path: string) => validationError({ [path || 'body']: { key: 'validation.bad_characters' } });

/** Mounted right after the body parser: refuses NUL and lone surrogates in the query and the JSON body. */
export function inputGuard(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    for (const [k, v] of Object.entries(ctx.query)) {
      if (isBadText(k) || (v !== undefined && findBadText(v) !== null)) throw badTextError(shown(k));
    }
    const body = (ctx.request as { body?: unknown }).body;
    if (body !== undefined) {
      const hit = findBadText(body);
      if (hit !== null) throw badTextError(hit);
    }
    await next();
  };
}
