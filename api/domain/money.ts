/**
 * Money is exact: an amount is a `bigint` count of tiyin (1 soʻm = 100 tiyin). The API carries
 * amounts as numeric strings with at most 2 decimals ("1234567.50"); these helpers turn them into
 * tiyin and back, and format them for display as the spec asks (§9: 2 decimals, space thousands).
 */
import { parseDecimal, rescale } from './decimal.ts';
import { formatMoney } from '../../shared/numbers.ts';

/** An amount of money in tiyin (1 soʻm = 100 tiyin). */
export type Tiyin = bigint;

/** Tiyin in one soʻm. */
export const TIYIN_PER_SOM = 100n;

/** Options of `parseTiyin`. */
export interface ParseTiyinOptions {
  /** what the amount is, for error messages (default "amount") */
  name?: string;
  /** whether negative amounts are accepted (default true: balances and refunds may be negative) */
  allowNegative?: boolean;
}

/**
 * "1234567.50" (or "1234567.5", "1234567", "-12.30") → 123456750n tiyin.
 * @throws TypeError when the value is not a string or not a decimal number ("1e3", "1,50", " 1", "")
 * @throws RangeError when it has more than 2 decimals ("1.005"), or is negative and that is not allowed
 */
export function parseTiyin(value: string, options: ParseTiyinOptions = {}): Tiyin {
  const d = parseDecimal(value, {
    maxScale: 2,
    name: options.name ?? 'amount',
    allowNegative: options.allowNegative ?? true,
  });
  return rescale(d, 2).units;
}

function assertTiyin(value: Tiyin): void {
  if (typeof value !== 'bigint') throw new TypeError(`an amount in tiyin must be a bigint, got ${typeof value}`);
}

function splitTiyin(value: Tiyin): { sign: string; som: string; tiyin: string } {
  assertTiyin(value);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  return {
    sign: negative ? '-' : '',
    som: (abs / TIYIN_PER_SOM).toString(),
    tiyin: (abs % TIYIN_PER_SOM).toString().padStart(2, '0'),
  };
}

/** 123456750n → "1234567.50": the API's numeric string, always 2 decimals. */
export function formatTiyin(value: Tiyin): string {
  const { sign, som, tiyin } = splitTiyin(value);
  return `${sign}${som}.${tiyin}`;
}

/**
 * 123456750n → "1 234 567,50": for display, through the one formatter of the screens, the Excel
 * files and the printed documents alike (shared/numbers.ts: 2 decimals, a comma, no-break space
 * thousands), so a printed act says what the screen says.
 */
export function formatTiyinForDisplay(value: Tiyin, lang?: string): string {
  return formatMoney(formatTiyin(value), lang);
}
