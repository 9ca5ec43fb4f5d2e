/**
 * Fines are multiples of the base value (BHM, "minimum wage" in the spec's captions) in force on
 * the offence date (spec §9).
 *
 *   fine = round_half_up_to_tiyin( multiple × base value on the offence date )
 *
 * Multiples have up to 2 decimals (the fine book's min_multiple / max_multiple), so the product is
 * exact at 4 decimals of a soʻm and only a fractional multiple of an odd tiyin amount can round.
 * The fine book gives each article (part, item) an interval [min, max] of multiples; a multiple
 * outside it is a warning (spec §5), not an error.
 *
 * Late report fine (spec §9): "four times the minimum wage", but one caption reads "four times
 * less". Both readings are selectable: 'four_times' = 4 × (default), 'four_times_less' = 0.25 ×;
 * or pass any multiple, e.g. from a setting.
 */
import { baseValueOn, type BaseValueRow } from './base-value.ts';
import { compareDecimal, divRoundHalfUp, formatDecimal, parseDecimal, type Decimal } from './decimal.ts';
import type { Tiyin } from './money.ts';

/** Most decimals of a fine multiple (the fine book's scale). */
export const FINE_MULTIPLE_MAX_DECIMALS = 2;

/** The two readings of the spec's late-report fine and their multiples. */
export const LATE_REPORT_FINE_READINGS = {
  /** "four times the minimum wage" — the spec's rule */
  four_times: '4',
  /** "four times less" — one caption's reading: a quarter of the base value */
  four_times_less: '0.25',
} as const;

/** A reading of the late-report fine. */
export type LateReportFineReading = keyof typeof LATE_REPORT_FINE_READINGS;

/** The reading used when none is chosen. */
export const DEFAULT_LATE_REPORT_FINE_READING: LateReportFineReading = 'four_times';

/** An article's interval of multiples, as the fine book stores it. */
export interface FineInterval {
  min_multiple: string;
  max_multiple: string;
}

/** A multiple outside its article's interval; `key`/`args` are the caption of the warning. */
export interface FineWarning {
  key: 'validation.interval';
  args: { min: string; max: string };
  multiple: string;
  /** which side it falls out on */
  side: 'below' | 'above';
}

function multipleOf(value: string, name = 'multiple'): Decimal {
  return parseDecimal(value, { maxScale: FINE_MULTIPLE_MAX_DECIMALS, name });
}

/**
 * `multiple` × `baseValue` tiyin, rounded half-up to tiyin. fineAmount('4', 41_200_000n) = 164_800_000n.
 * @throws TypeError / RangeError on a malformed, negative or over-precise multiple or a bad base value
 */
export function fineAmount(multiple: string, baseValue: Tiyin): Tiyin {
  if (typeof baseValue !== 'bigint') throw new TypeError(`base value must be a bigint of tiyin, got ${typeof baseValue}`);
  if (baseValue <= 0n) throw new RangeError(`base value must be positive, got ${baseValue} tiyin`);
  const m = multipleOf(multiple);
  return divRoundHalfUp(m.units * baseValue, 10n ** BigInt(m.scale));
}

/** A fine with the base value it was computed from. */
export interface FineOnDate {
  amount: Tiyin;
  multiple: string;
  baseValue: Tiyin;
  /** start date of the base-value row used */
  baseValueSince: string;
}

/**
 * The fine for `multiple` at the base value in force on `offenceDate` (from the min-oklads rows).
 * @throws RangeError when no base value is in force on that date (see baseValueOn)
 */
export function fineOn(multiple: string, rows: readonly BaseValueRow[], offenceDate: string): FineOnDate {
  const bv = baseValueOn(rows, offenceDate);
  return { amount: fineAmount(multiple, bv.amount), multiple, baseValue: bv.amount, baseValueSince: bv.start_date };
}

/**
 * Checks a chosen multiple against an article's interval, both ends included. Returns null when it
 * is inside, otherwise a warning carrying the interval (caption 'validation.interval').
 * @throws RangeError when the interval is malformed or min > max
 */
export function checkFineMultiple(multiple: string, interval: FineInterval): FineWarning | null {
  const m = multipleOf(multiple);
  const min = multipleOf(interval.min_multiple, 'min_multiple');
  const max = multipleOf(interval.max_multiple, 'max_multiple');
  if (compareDecimal(min, max) > 0) {
    throw new RangeError(`fine interval is reversed: min ${interval.min_multiple} > max ${interval.max_multiple}`);
  }
  const below = compareDecimal(m, min) < 0;
  const above = compareDecimal(m, max) > 0;
  if (!below && !above) return null;
  return {
    key: 'validation.interval',
    args: { min: formatDecimal(min), max: formatDecimal(max) },
    multiple: formatDecimal(m),
    side: below ? 'below' : 'above',
  };
}

/** Options of the late-report fine: a reading, or an explicit multiple (which wins). */
export interface LateReportFineOptions {
  reading?: LateReportFineReading;
  multiple?: string;
}

/** The multiple of the late-report fine: `multiple` if given, else the reading's (default 4). */
export function lateReportFineMultiple(options: LateReportFineOptions = {}): string {
  if (options.multiple !== undefined) {
    multipleOf(options.multiple, 'late report fine multiple');
    return options.multiple;
  }
  const reading = options.reading ?? DEFAULT_LATE_REPORT_FINE_READING;
  if (!Object.hasOwn(LATE_REPORT_FINE_READINGS, reading)) {
    throw new RangeError(
      `unknown late report fine reading ${JSON.stringify(reading)}: use ${Object.keys(LATE_REPORT_FINE_READINGS).join(' or ')}`,
    );
  }
  return LATE_REPORT_FINE_READINGS[reading];
}

/**
 * The late-report fine at the base value in force on `date` (the day the report became late).
 * lateReportFine(rows, '2025-09-01') = 4 × 412 000 = 1 648 000.00 soʻm.
 */
export function lateReportFine(rows: readonly BaseValueRow[], date: string, options: LateReportFineOptions = {}): FineOnDate {
  return fineOn(lateReportFineMultiple(options), rows, date);
}
