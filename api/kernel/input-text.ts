import { validationError } from './errors.ts';

/**
 * Text PostgreSQL cannot store is refused before any route sees it: a NUL character (text and
 * jsonb refuse it, the driver would fail the whole statement) and a lone UTF-16 surrogate (the
 * driver would silently store U+FFFD in text, and jsonb refuses its escape). Every string of the
 * parsed JSON body — values and keys, at any depth — and every query parameter is looked at; the
 * answer is a 400 naming the place: `name`, `lines.0.name`, `title.ru`, or the query parameter.
 * Before that, a body nested deeper than MAX_JSON_DEPTH is a 400 naming its top-level field.
 */

// `String.prototype.isWellFormed` is in Node 20 (ES2024); the project's lib is ES2023
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** True when a string holds a NUL or a lone surrogate. */
export function isBadText(s: string): boolean {
  return s.includes('\u0000') || !wellFormed(s);
}

/** A key shown in an error: its bad characters replaced, so the answer itself is clean. */
export function shown(key: string): string {
  return (key as unknown as { toWellFormed(): string }).toWellFormed().replace(/\u0000/g, '\uFFFD');
}

/**
 * JSON nested deeper than this many levels is refused (the body itself is level 1). The deepest
 * legitimate shapes are a few levels: a polygon's ring (`[[lng, lat], …]`) in a child row's field,
 * a control zone's values, a reference book's definition (the metadata's own schema, the deepest
 * JSON the project holds, is 13). Everything that walks a body — the text check below, the payload
 * schema (ajv), normalisation, JSON.stringify of audit rows and job parameters — recurses, and a
 * few thousand levels overflow the stack; the parser itself (V8's JSON.parse) does not.
 */
export const MAX_JSON_DEPTH = 64;

/** The path of an element's child: dot-separated, a key cleaned (shown). */
const childPath = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Where `value` nests deeper than `max` levels: the top-level key (or index) under which it does
 * (`''` when that is the value itself), else null. Walked with a stack of its own, not recursion,
 * so no depth overflows it.
 */
export function tooDeep(value: unknown, max = MAX_JSON_DEPTH): string | null {
  if (!value || typeof value !== 'object') return null;
  const stack: { v: object; depth: number; top: string }[] = [{ v: value, depth: 1, top: '' }];
  while (stack.length) {
    const { v, depth, top } = stack.pop()!;
    if (depth > max) return top;
    const push = (x: unknown, key: () => string) => {
      if (x && typeof x === 'object') stack.push({ v: x, depth: depth + 1, top: depth === 1 ? key() : top });
    };
    if (Array.isArray(v)) v.forEach((x, i) => push(x, () => String(i)));
    else for (const [k, x] of Object.entries(v)) push(x, () => shown(k));
  }
  return null;
}

/**
 * The path (dot-separated) of the first string under `value` that PostgreSQL cannot store, or
 * null. A bad key is named by itself (cleaned). Walked with a stack, in document order.
 */
export function findBadText(value: unknown, path = ''): string | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path }];
  while (stack.length) {
    const { v, path: at } = stack.pop()!;
    if (typeof v === 'string') {
      if (isBadText(v)) return at;
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    const next: { v: unknown; path: string }[] = [];
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) next.push({ v: v[i], path: childPath(at, String(i)) });
    } else {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        const p = childPath(at, shown(k));
        if (isBadText(k)) return p;
        next.push({ v: x, path: p });
      }
    }
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
  }
  return null;
}

/** The field error for text that cannot be stored, under its path. */
export const badTextError = (path: string) => validationError({ [path || 'body']: { key: 'validation.bad_characters' } });

/** The field error for JSON nested too deep, under its top-level key. */
export const tooDeepError = (top: string) =>
  validationError({ [top || 'body']: { key: 'validation.too_deep', args: { max: MAX_JSON_DEPTH } } });
