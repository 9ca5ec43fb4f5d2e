/**
 * Penya: the late-payment penalty accruing daily on an overdue amount.
 *
 * Day convention: penya accrues for every day from the day AFTER the due date up to and including
 * the day the debt is paid (or `asOf`, the day of the calculation, when it is not yet paid). A
 * payment made on a day still counts that day as overdue for the amount paid; the debt is lower
 * from the next day on. A payment on or before the due date lowers the debt before any accrual.
 * Payments after `asOf` are ignored.
 *
 *   penya = round_half_up_to_tiyin( Σ over overdue days d of outstanding(d) × daily rate )
 *   outstanding(d) = max(0, debt − Σ payments dated before d)
 *
 * Simple, not compound: penya does not accrue on penya, and payments go to the debt (not to
 * penya first). The rate is exact: a daily percent ("0.033" = 0.033 % a day) or a percent per a
 * number of days ({ percent: '12', perDays: 365 } = 12 % a year on a 365-day basis;
 * { percent: '14', perDays: 300 } = 1/300 of a 14 % rate a day). The total is rounded once, half
 * away from zero, to the tiyin; each segment's own rounded amount is for display only.
 */
import { todayTashkent } from '../meta/today.ts';
import { divRoundHalfUp, parseDecimal, pow10 } from './decimal.ts';
import { addDays, assertIsoDate, dayNumber, fromDayNumber } from './dates.ts';
import type { Tiyin } from './money.ts';

/** Most decimals of a penya rate percent. */
export const PENYA_RATE_MAX_DECIMALS = 6;

/** A daily rate in percent ("0.033"), or a percent over a number of days. */
export type PenyaRate = string | { percent: string; perDays: number };

/** A payment against the overdue debt. */
export interface PenyaPayment {
  /** 'YYYY-MM-DD' */
  date: string;
  /** tiyin, positive */
  amount: Tiyin;
}

/** What `calculatePenya` needs. */
export interface PenyaInput {
  /** the overdue amount, tiyin, ≥ 0 */
  debt: Tiyin;
  /** the last day the debt could be paid without penya, 'YYYY-MM-DD' */
  dueDate: string;
  rate: PenyaRate;
  /** partial (or full) payments, any order */
  payments?: readonly PenyaPayment[];
  /** the last day counted; default Tashkent's today (at `now`) */
  asOf?: string;
  /** the instant whose Tashkent date is the default `asOf`; default the current time */
  now?: Date;
}

/** A run of days with the same outstanding amount. */
export interface PenyaSegment {
  /** first day counted, inclusive */
  from: string;
  /** last day counted, inclusive */
  to: string;
  days: number;
  /** tiyin outstanding on each of these days */
  outstanding: Tiyin;
  /** this segment's penya rounded alone (display only; the total is rounded once) */
  amount: Tiyin;
}

/** Result of `calculatePenya`. */
export interface PenyaResult {
  /** the last day counted */
  asOf: string;
  /** days on which penya accrued (outstanding > 0) */
  days: number;
  segments: PenyaSegment[];
  /** penya in tiyin, rounded once half-up */
  amount: Tiyin;
  /** debt still unpaid at the end of `asOf`, tiyin */
  outstanding: Tiyin;
  /** how much the payments up to `asOf` exceed the debt, tiyin */
  overpaid: Tiyin;
}

/** The rate as an exact fraction of the amount per day: numerator / denominator. */
export function dailyRateFraction(rate: PenyaRate): { numerator: bigint; denominator: bigint } {
  const percent = typeof rate === 'string' ? rate : rate?.percent;
  const perDays = typeof rate === 'string' ? 1 : rate?.perDays;
  if (!Number.isSafeInteger(perDays) || perDays < 1) {
    throw new RangeError(`penya rate perDays must be a positive integer, got ${String(perDays)}`);
  }
  const d = parseDecimal(percent as string, { maxScale: PENYA_RATE_MAX_DECIMALS, name: 'penya rate percent' });
  return { numerator: d.units, denominator: 100n * pow10(d.scale) * BigInt(perDays) };
}

/**
 * Number of overdue days when a debt due on `dueDate` is paid on `paidOn`: from the day after the
 * due date to the payment day inclusive, never negative. ('2024-02-27', '2024-03-01') = 3.
 */
export function overdueDays(dueDate: string, paidOn: string): number {
  return Math.max(0, dayNumber(paidOn) - dayNumber(dueDate));
}

/**
 * Penya on an overdue debt with partial payments (see the file's comment for the conventions).
 * @throws TypeError when an amount is not a bigint or the rate not a decimal string
 * @throws RangeError on a bad date, a negative debt, a payment ≤ 0, or a negative/malformed rate
 */
export function calculatePenya(input: PenyaInput): PenyaResult {
  const { debt, dueDate } = input;
  if (typeof debt !== 'bigint') throw new TypeError(`debt must be a bigint of tiyin, got ${typeof debt}`);
  if (debt < 0n) throw new RangeError(`debt must not be negative, got ${debt} tiyin`);
  assertIsoDate(dueDate, 'dueDate');
  const asOf = input.asOf ?? todayTashkent(input.now ?? new Date());
  assertIsoDate(asOf, 'asOf');
  const { numerator, denominator } = dailyRateFraction(input.rate);

  const payments = (input.payments ?? []).map((p, i) => {
    assertIsoDate(p.date, `payment ${i} date`);
    if (typeof p.amount !== 'bigint') throw new TypeError(`payment ${i} amount must be a bigint of tiyin, got ${typeof p.amount}`);
    if (p.amount <= 0n) throw new RangeError(`payment ${i} amount must be positive, got ${p.amount} tiyin`);
    return { day: dayNumber(p.date), amount: p.amount };
  });
  const firstDay = dayNumber(dueDate) + 1;
  const lastDay = dayNumber(asOf);
  const counted = payments.filter((p) => p.day <= lastDay).sort((a, b) => a.day - b.day);

  let balance = debt; // debt minus payments dated before `day`
  let i = 0;
  while (i < counted.length && counted[i].day < firstDay) balance -= counted[i++].amount;

  const segments: PenyaSegment[] = [];
  let totalNumerator = 0n;
  let days = 0;
  const accrue = (from: number, to: number): void => {
    if (to < from || balance <= 0n) return;
    const n = to - from + 1;
    const segmentNumerator = balance * BigInt(n) * numerator;
    totalNumerator += segmentNumerator;
    days += n;
    segments.push({
      from: fromDayNumber(from),
      to: fromDayNumber(to),
      days: n,
      outstanding: balance,
      amount: divRoundHalfUp(segmentNumerator, denominator),
    });
  };
  let day = firstDay;
  for (; i < counted.length; i++) {
    const p = counted[i];
    accrue(day, Math.min(p.day, lastDay)); // the payment day itself still accrues on the old balance
    balance -= p.amount;
    day = Math.max(day, p.day + 1);
  }
  accrue(day, lastDay);

  return {
    asOf,
    days,
    segments,
    amount: divRoundHalfUp(totalNumerator, denominator),
    outstanding: balance > 0n ? balance : 0n,
    overpaid: balance < 0n ? -balance : 0n,
  };
}

/** The day after `dueDate`: the first day penya accrues. */
export function firstPenyaDay(dueDate: string): string {
  return addDays(dueDate, 1);
}
