/**
 * Report periods (spec §9: quarters 1 to 4, yearly, monthly), their first and last days, the
 * deadline after a period and whether a report is late.
 *
 * Deadline: the period's last day + `daysAfterEnd` days (default 15). Every period ends on the
 * last day of a month, so for up to 28 days this is "the Nth day of the following month": Q1 →
 * 15 April, February → 15 March, the year 2025 → 2026-01-15. A report submitted on the deadline
 * is on time; from the next day it is late. Deadlines are not moved for weekends or holidays.
 * "Now" is Tashkent's today (api/meta/today.ts).
 */
import { todayTashkent } from '../meta/today.ts';
import { addDays, assertIsoDate, daysBetween, daysInMonth, isoDate } from './dates.ts';

/** A report period. */
export type ReportPeriod =
  | { kind: 'quarter'; year: number; quarter: 1 | 2 | 3 | 4 }
  | { kind: 'month'; year: number; month: number }
  | { kind: 'year'; year: number };

/** The report-types book's period codes. */
export type PeriodCode = 'q1' | 'q2' | 'q3' | 'q4' | 'month' | 'year';

/** Days after a period's end by which its report is due, when not told otherwise. */
export const DEFAULT_DAYS_AFTER_END = 15;

function checkYear(year: number): void {
  if (!Number.isInteger(year) || year < 1 || year > 9998) throw new RangeError(`year must be an integer 1–9998, got ${year}`);
}

function checkPeriod(p: ReportPeriod): void {
  checkYear(p.year);
  if (p.kind === 'quarter' && ![1, 2, 3, 4].includes(p.quarter)) throw new RangeError(`quarter must be 1–4, got ${p.quarter}`);
  if (p.kind === 'month' && (!Number.isInteger(p.month) || p.month < 1 || p.month > 12))
    throw new RangeError(`month must be 1–12, got ${p.month}`);
  if (!['quarter', 'month', 'year'].includes(p.kind))
    throw new RangeError(`unknown period kind ${JSON.stringify((p as { kind: unknown }).kind)}`);
}

/**
 * A period from a report type's code and a year (and a month for 'month').
 * periodFromCode('q2', 2025) = { kind: 'quarter', year: 2025, quarter: 2 }.
 */
export function periodFromCode(code: PeriodCode, year: number, month?: number): ReportPeriod {
  let p: ReportPeriod;
  switch (code) {
    case 'q1':
    case 'q2':
    case 'q3':
    case 'q4':
      p = { kind: 'quarter', year, quarter: Number(code[1]) as 1 | 2 | 3 | 4 };
      break;
    case 'month':
      if (month === undefined) throw new RangeError("a 'month' period needs a month");
      p = { kind: 'month', year, month };
      break;
    case 'year':
      p = { kind: 'year', year };
      break;
    default:
      throw new RangeError(`unknown period code ${JSON.stringify(code)}: use q1, q2, q3, q4, month or year`);
  }
  checkPeriod(p);
  return p;
}

/** First and last day of a period, both inclusive. Q1 2024 = 2024-01-01 … 2024-03-31. */
export function periodRange(p: ReportPeriod): { start: string; end: string } {
  checkPeriod(p);
  const [first, last] = p.kind === 'quarter' ? [3 * p.quarter - 2, 3 * p.quarter] : p.kind === 'month' ? [p.month, p.month] : [1, 12];
  return { start: isoDate(p.year, first, 1), end: isoDate(p.year, last, daysInMonth(p.year, last)) };
}

/** The last day a period's report is on time: its last day + `daysAfterEnd` (default 15). */
export function reportDeadline(p: ReportPeriod, daysAfterEnd: number = DEFAULT_DAYS_AFTER_END): string {
  if (!Number.isInteger(daysAfterEnd) || daysAfterEnd < 0)
    throw new RangeError(`daysAfterEnd must be a non-negative integer, got ${daysAfterEnd}`);
  return addDays(periodRange(p).end, daysAfterEnd);
}

/** Options of `reportLateness`. */
export interface LatenessOptions {
  /** the day the report was submitted; absent = not submitted yet, judged against today */
  submittedOn?: string | null;
  /** days after the period's end (default 15) */
  daysAfterEnd?: number;
  /** the instant whose Tashkent date is "today"; default the current time */
  now?: Date;
}

/** Whether and how late a period's report is. */
export interface Lateness {
  deadline: string;
  /** the day compared: submittedOn, or Tashkent's today when not submitted */
  on: string;
  late: boolean;
  /** days past the deadline, 0 when on time */
  daysLate: number;
}

/**
 * Is the report late? Submitted on or before the deadline: no. Not submitted: late once Tashkent's
 * today is past the deadline.
 */
export function reportLateness(p: ReportPeriod, options: LatenessOptions = {}): Lateness {
  const deadline = reportDeadline(p, options.daysAfterEnd ?? DEFAULT_DAYS_AFTER_END);
  const on = options.submittedOn ?? todayTashkent(options.now ?? new Date());
  assertIsoDate(on, 'submittedOn');
  const daysLate = Math.max(0, daysBetween(deadline, on));
  return { deadline, on, late: daysLate > 0, daysLate };
}

/** Shorthand of `reportLateness(...).late`. */
export function isReportLate(p: ReportPeriod, options: LatenessOptions = {}): boolean {
  return reportLateness(p, options).late;
}
