/**
 * How values look on screen (spec §9): numbers with two decimals and space-separated thousands
 * ("1 234 567,50"), phones as (XX) XXX-XX-XX over their nine stored digits, passports as
 * "AA 1234567", dates as DD.MM.YYYY in Tashkent's calendar. No Intl locale data is used, so
 * nothing Ukrainian can leak into Uzbek Cyrillic.
 */

import type { Lang } from '../meta/types';

export type { Lang };
/** A three-language value as rows carry it: unlike the server's declared shape, any part may be missing. */
export type Text3 = { uz?: string | null; uk?: string | null; ru?: string | null };

/**
 * Numbers come from the one formatter of all faces (shared/numbers.ts, docs/numbers.md):
 * "1234567.5" → "1 234 567,50" with no-break spaces, exact on decimal strings.
 */
export {
  formatNumber,
  formatInteger,
  formatMoney,
  formatCoordinate,
  roundCoordinate,
  parseDecimalInput,
  NBSP,
} from '../../../shared/numbers';
import { formatDecimal as formatDecimalIn } from '../../../shared/numbers';

/**
 * A decimal with at least two decimals and as many more as it has ("10.000000" → "10,00",
 * "0.001500" → "0,0015"), so that small norms and coefficients do not show as zero.
 */
export function formatDecimal(value: unknown): string {
  return formatDecimalIn(value);
}

/**
 * A personal value masked by the server for a reader without the right to it ("AA *****67",
 * "+998 ** *** ** 67", "1985-**-**": docs/personal-data.md): shown and sent back as it is — the
 * server takes a mask sent back as "unchanged".
 */
export function isMasked(value: unknown): value is string {
  return typeof value === 'string' && value.includes('*');
}

/** Nine digits → "(90) 123-45-67"; partial input is formatted as far as it goes. */
export function formatPhone(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (isMasked(value)) return value;
  const d = String(value).replace(/\D/g, '').slice(0, 9);
  if (!d) return '';
  let out = `(${d.slice(0, 2)}`;
  if (d.length >= 2) out += ')';
  if (d.length > 2) out += ` ${d.slice(2, 5)}`;
  if (d.length > 5) out += `-${d.slice(5, 7)}`;
  if (d.length > 7) out += `-${d.slice(7, 9)}`;
  return out;
}

/** Typed phone → its nine digits (a leading 998 country code is dropped). */
export function parsePhone(value: string): string {
  if (isMasked(value)) return value;
  let d = String(value ?? '').replace(/\D/g, '');
  if (d.length > 9 && d.startsWith('998')) d = d.slice(3);
  return d.slice(0, 9);
}

/** "AA1234567" → "AA 1234567" */
export function formatPassport(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (isMasked(value)) return value;
  const s = String(value).replace(/\s+/g, '').toUpperCase();
  return s.length > 2 ? `${s.slice(0, 2)} ${s.slice(2)}` : s;
}

export function parsePassport(value: string): string {
  if (isMasked(value)) return value;
  return String(value ?? '')
    .replace(/\s+/g, '')
    .toUpperCase()
    .slice(0, 9);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "2024-03-05" (or a timestamp) → "05.03.2024" */
export function formatDate(value: unknown): string {
  if (!value) return '';
  if (isMasked(value)) return value;
  const s = String(value);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return `${m[3]}.${m[2]}.${m[1]}`;
  const parts = tashkentParts(s);
  return parts ? `${parts.d}.${parts.mo}.${parts.y}` : s;
}

/** A timestamp → "05.03.2024 14:07" in Tashkent time (UTC+5, no daylight saving). */
export function formatDateTime(value: unknown): string {
  if (!value) return '';
  const parts = tashkentParts(String(value));
  return parts ? `${parts.d}.${parts.mo}.${parts.y} ${parts.h}:${parts.mi}` : String(value);
}

function tashkentParts(s: string) {
  const t = Date.parse(s);
  if (Number.isNaN(t)) return null;
  const d = new Date(t + 5 * 3600_000);
  return {
    y: d.getUTCFullYear(),
    mo: pad(d.getUTCMonth() + 1),
    d: pad(d.getUTCDate()),
    h: pad(d.getUTCHours()),
    mi: pad(d.getUTCMinutes()),
  };
}

/** Today in Tashkent as YYYY-MM-DD (the API's "today" for max:'today' dates). */
export function todayTashkent(now = new Date()): string {
  const d = new Date(now.getTime() + 5 * 3600_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** A three-language text in the language shown, falling back to Uzbek Latin. */
export function text3(value: unknown, lang: Lang): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  const t = value as Text3;
  return (t[lang] || t.uz || t.ru || t.uk || '') as string;
}

/** The `Text` of a cell: long text cut with an ellipsis. */
export function truncate(s: string, max = 80): string {
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}
