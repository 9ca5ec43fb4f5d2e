/**
 * How numbers are written, once for every face: the back-office (admin/src/generic/format.ts), the
 * public site (public-site/src/format.ts) and the Excel exports (api/engine/export.ts,
 * api/reports/export.ts). See docs/numbers.md.
 *
 * - Thousands are grouped by a no-break space (U+00A0), the decimal separator is a comma:
 *   "1 234 567,50" — the convention of Uzbek (Latin and Cyrillic) and of Russian alike; the spec
 *   (§9) asks for space thousands and two decimals for money. The no-break space keeps a figure
 *   on one line wherever it is shown.
 * - Decimal strings (the API's money and decimals) are formatted digit by digit, never through a
 *   JavaScript float: "90071992547409.99" stays "90 071 992 547 409,99". Rounding is half away
 *   from zero on the digits; a value that rounds to zero never shows a minus ("-0.001" → "0,00").
 * - No `Intl` locale data is used: a browser would read `uk` as Ukrainian.
 *
 * This file imports nothing, so that the API (NodeNext), the back-office and the public site
 * (Vite) can all load it.
 */

export type NumberLang = 'uz' | 'uk' | 'ru';

export const NBSP = '\u00a0';

export interface NumberConvention {
  /** between groups of three digits */
  group: string;
  /** between the whole part and the fraction */
  decimal: string;
}

/** The three languages write numbers alike; the table is here so that one could differ. */
export const NUMBER_CONVENTIONS: Readonly<Record<NumberLang, NumberConvention>> = {
  uz: { group: NBSP, decimal: ',' },
  uk: { group: NBSP, decimal: ',' },
  ru: { group: NBSP, decimal: ',' },
};

/** Money always shows two decimals (tiyin). */
export const MONEY_DECIMALS = 2;

/** Coordinates show six decimals (about 10 cm), never a float's fourteen. */
export const COORDINATE_DECIMALS = 6;

const conventionOf = (lang?: string): NumberConvention => NUMBER_CONVENTIONS[(lang ?? 'uz') as NumberLang] ?? NUMBER_CONVENTIONS.uz;

/** A decimal as its sign and digits, or null when the value is not a number. */
export interface DecimalParts {
  neg: boolean;
  int: string;
  frac: string;
}

/** Spaces (plain, no-break, narrow no-break, thin) that a typed or pasted figure may hold. */
const SPACES = /[\s\u00a0\u202f\u2009]/g;

/**
 * The exact digits of a value: a decimal string ("-1234.50", "1e3", ".5"), a bigint, or a number
 * (read as its shortest round-trip text, so 0.1 is "0.1", not 0.1000000000000000055…).
 */
export function decimalParts(value: unknown): DecimalParts | null {
  let s: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    s = String(value);
  } else if (typeof value === 'bigint') {
    s = value.toString();
  } else if (typeof value === 'string') {
    s = value.trim();
  } else {
    return null;
  }
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  let int = m[2] || '0';
  let frac = m[3] ?? '';
  const exp = m[4] ? Number(m[4]) : 0;
  if (exp > 0) {
    const moved = frac.padEnd(exp, '0');
    int += moved.slice(0, exp);
    frac = moved.slice(exp);
  } else if (exp < 0) {
    const padded = int.padStart(-exp + 1, '0');
    frac = padded.slice(padded.length + exp) + frac;
    int = padded.slice(0, padded.length + exp);
  }
  int = int.replace(/^0+(?=\d)/, '');
  return { neg: m[1] === '-', int, frac };
}

/** The parts rounded to `decimals` digits, half away from zero, exactly. */
function roundParts(p: DecimalParts, decimals: number): DecimalParts {
  const d = Math.max(0, Math.floor(decimals));
  if (p.frac.length <= d) return { ...p, frac: p.frac.padEnd(d, '0') };
  const up = p.frac.charCodeAt(d) - 48 >= 5;
  let digits = p.int + p.frac.slice(0, d);
  if (up) digits = (BigInt(digits) + 1n).toString().padStart(digits.length, '0');
  const int = digits.slice(0, digits.length - d) || '0';
  return { neg: p.neg, int: int.replace(/^0+(?=\d)/, ''), frac: digits.slice(digits.length - d) };
}

function writeParts(p: DecimalParts, lang?: string): string {
  const c = conventionOf(lang);
  const grouped = p.int.replace(/\B(?=(\d{3})+(?!\d))/g, c.group);
  const zero = !/[1-9]/.test(p.int + p.frac);
  return `${p.neg && !zero ? '-' : ''}${grouped}${p.frac ? c.decimal + p.frac : ''}`;
}

/**
 * "1234567.5" → "1 234 567,50" (no-break spaces); `decimals` digits after the comma, rounded half
 * away from zero on the exact digits. Empty for null, undefined and ""; anything that is not a
 * number is shown as it is.
 */
export function formatNumber(value: unknown, decimals: number = MONEY_DECIMALS, lang?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const p = decimalParts(value);
  if (!p) return String(value);
  return writeParts(roundParts(p, decimals), lang);
}

/** A whole number: "5333000" → "5 333 000". */
export function formatInteger(value: unknown, lang?: string): string {
  return formatNumber(value, 0, lang);
}

/** Money: always two decimals. */
export function formatMoney(value: unknown, lang?: string): string {
  return formatNumber(value, MONEY_DECIMALS, lang);
}

/**
 * A decimal with at least `min` decimals and as many more as it has, up to `max` ("10.000000" →
 * "10,00", "0.001500" → "0,0015"): small norms and coefficients do not show as zero.
 */
export function formatDecimal(value: unknown, lang?: string, min = 2, max = 12): string {
  if (value === null || value === undefined || value === '') return '';
  const p = decimalParts(value);
  if (!p) return String(value);
  const significant = p.frac.replace(/0+$/, '').length;
  return writeParts(roundParts(p, Math.min(max, Math.max(min, significant))), lang);
}

/** A percentage already multiplied by 100: "12.5" → "12,50 %". */
export function formatPercent(value: unknown, decimals = 2, lang?: string): string {
  const s = formatNumber(value, decimals, lang);
  return s && decimalParts(value) ? `${s}${NBSP}%` : s;
}

/** A latitude or longitude with six decimals and a point (as maps and GPS write them): "41.311100". */
export function formatCoordinate(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const p = decimalParts(value);
  if (!p) return String(value);
  const r = roundParts(p, COORDINATE_DECIMALS);
  const zero = !/[1-9]/.test(r.int + r.frac);
  return `${r.neg && !zero ? '-' : ''}${r.int}.${r.frac}`;
}

/** A coordinate as a number rounded to six decimals (for an input's value). */
export function roundCoordinate(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/**
 * A figure as typed or pasted ("1 234 567,5", "1234567.50") → the API's decimal string
 * ("1234567.5"); anything else is returned trimmed, for the form's check to refuse.
 */
export function parseDecimalInput(text: string): string {
  const s = String(text ?? '').replace(SPACES, '');
  return /^[+-]?\d*,\d*$/.test(s) ? s.replace(',', '.') : s;
}

/** True when `text` is a decimal string with at most `scale` decimals ("-12.5", "3"). */
export function isDecimalString(text: unknown, scale: number): boolean {
  return typeof text === 'string' && new RegExp(`^-?\\d+(\\.\\d{1,${scale}})?$`).test(text);
}

/**
 * Excel's number format for `decimals` decimals. Excel writes its thousands and decimal
 * separators in the reader's regional convention, so in an Uzbek or Russian Windows the cell
 * shows "1 234 567,50", the same figure as the two faces.
 */
export function excelNumFmt(decimals: number): string {
  return decimals > 0 ? `#,##0.${'0'.repeat(decimals)}` : '#,##0';
}

/** Excel (a double) keeps 15 significant digits exactly. */
const EXCEL_DIGITS = 15;

/**
 * A figure for an Excel cell: a number (so the sheet can sum it) when Excel keeps its digits
 * exactly once rounded to `decimals`, otherwise the figure as text, written by this formatter,
 * so that no tiyin is lost: "90071992547409.99" has 16 digits and goes as "90 071 992 547 409,99".
 */
export function excelValue(value: unknown, decimals: number, lang?: string): number | string | null {
  if (value === null || value === undefined || value === '') return null;
  const p = decimalParts(value);
  if (!p) return String(value);
  const r = roundParts(p, decimals);
  const digits = (r.int + r.frac).replace(/^0+/, '');
  if (digits.length <= EXCEL_DIGITS) return Number(`${r.neg ? '-' : ''}${r.int}.${r.frac || '0'}`) || 0;
  return writeParts(r, lang);
}

/**
 * Whole numbers that are names rather than quantities — a year, a month, an identifier, an order
 * or status code — are written without grouping ("2024", not "2 024"); every other integer field
 * (trees, counts, capacities, plans) is grouped like any figure ("5 333 000").
 */
export function isPlainInteger(fieldName: string): boolean {
  return /^(id|year|month|ordering|status|code)$|_(id|year|code)$/.test(fieldName);
}

/** Excel's format for `min` decimals and up to `max` when the value has them ("#,##0.00####"). */
export function excelDecimalFmt(min: number, max: number): string {
  return max > min ? `${excelNumFmt(min)}${'#'.repeat(max - min)}` : excelNumFmt(min);
}

/** The exact sum of decimal strings (or numbers) as a decimal string: no float on the way. */
export function sumDecimals(values: readonly unknown[]): string {
  const parts = values.map(decimalParts).filter((p): p is DecimalParts => p !== null);
  const scale = Math.max(0, ...parts.map((p) => p.frac.length));
  let total = 0n;
  for (const p of parts) total += (p.neg ? -1n : 1n) * BigInt(p.int + p.frac.padEnd(scale, '0'));
  const neg = total < 0n;
  const digits = (neg ? -total : total).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  return `${neg ? '-' : ''}${int}${scale ? `.${digits.slice(digits.length - scale)}` : ''}`;
}
