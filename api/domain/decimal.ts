/**
 * Exact decimal numbers as scaled integers: `{ units, scale }` stands for units / 10^scale, so
 * "12.5" is { units: 125n, scale: 1 }. Every domain rule computes with these (or with tiyin, see
 * money.ts) and never with floating point. Products are exact (scales add); the only rounding is
 * the explicit half-up of `roundHalfUp` / `divRoundHalfUp`, done once at the end of a calculation.
 */

/** An exact decimal: value = units / 10^scale (scale ≥ 0). */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** Options of `parseDecimal`. */
export interface ParseDecimalOptions {
  /** most digits allowed after the point */
  maxScale: number;
  /** what the value is, for error messages (default "value") */
  name?: string;
  /** whether "-…" is accepted (default false) */
  allowNegative?: boolean;
}

const DECIMAL_RE = /^(-)?(\d+)(?:\.(\d+))?$/;

/** 10^n as a bigint (n a non-negative integer). */
export function pow10(n: number): bigint {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`pow10: exponent must be a non-negative integer, got ${n}`);
  return 10n ** BigInt(n);
}

/**
 * Reads a plain decimal string ("12", "0.033", "-4.50"): digits, optionally a point and at least
 * one digit after it. No exponent, spaces, "+", ",", ".5" or "5." forms.
 * @throws TypeError when the value is not a string or not a decimal number
 * @throws RangeError when it has more than `maxScale` decimals, or is negative and that is not allowed
 */
export function parseDecimal(value: string, options: ParseDecimalOptions): Decimal {
  const name = options.name ?? 'value';
  if (typeof value !== 'string') {
    throw new TypeError(`${name} must be a decimal string, got ${typeof value}`);
  }
  const m = DECIMAL_RE.exec(value);
  if (!m) throw new TypeError(`${name} is not a decimal number: ${JSON.stringify(value)}`);
  const [, minus, int, frac = ''] = m;
  if (frac.length > options.maxScale) {
    throw new RangeError(`${name} has more than ${options.maxScale} decimals: ${JSON.stringify(value)}`);
  }
  const magnitude = BigInt(int + frac);
  if (minus && magnitude !== 0n && !options.allowNegative) {
    throw new RangeError(`${name} must not be negative: ${JSON.stringify(value)}`);
  }
  return { units: minus ? -magnitude : magnitude, scale: frac.length };
}

/** The same value written with `scale` decimals (exact; the scale may only grow). */
export function rescale(d: Decimal, scale: number): Decimal {
  if (scale < d.scale) throw new RangeError(`rescale: cannot lower scale ${d.scale} to ${scale} without rounding`);
  return { units: d.units * pow10(scale - d.scale), scale };
}

/** a × b, exact. */
export function mulDecimal(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** a + b, exact (at the larger of the two scales). */
export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale).units + rescale(b, scale).units, scale };
}

/** -1, 0 or 1 as a < b, a = b, a > b. */
export function compareDecimal(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = rescale(a, scale).units;
  const y = rescale(b, scale).units;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * numerator / denominator rounded to an integer, half away from zero ("half-up" as accountants
 * say: 2.5 → 3, -2.5 → -3, 2.4999 → 2).
 * @throws RangeError on a zero denominator
 */
export function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('divRoundHalfUp: division by zero');
  if (denominator < 0n) return divRoundHalfUp(-numerator, -denominator);
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  const q = (2n * n + denominator) / (2n * denominator); // floor((n + d/2) / d) = half-up on n ≥ 0
  return negative ? -q : q;
}

/** The value rounded half-up (away from zero) to `scale` decimals; returns the units at that scale. */
export function roundHalfUp(d: Decimal, scale: number): bigint {
  if (scale >= d.scale) return rescale(d, scale).units;
  return divRoundHalfUp(d.units, pow10(d.scale - scale));
}

/** The exact value as a plain string without trailing zeros ("1.50" → "1.5", "2.000" → "2"). */
export function formatDecimal(d: Decimal): string {
  const negative = d.units < 0n;
  const digits = (negative ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  let int = digits.slice(0, digits.length - d.scale);
  const frac = digits.slice(digits.length - d.scale).replace(/0+$/, '');
  int = int.replace(/^0+(?=\d)/, '');
  const body = frac ? `${int}.${frac}` : int;
  return negative && body !== '0' ? `-${body}` : body;
}

/** The exact value with exactly `scale` decimals, rounding half-up if it has more. */
export function formatFixed(d: Decimal, scale: number): string {
  const units = roundHalfUp(d, scale);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const body = scale > 0 ? `${int}.${digits.slice(digits.length - scale)}` : int;
  return negative ? `-${body}` : body;
}
