/**
 * Calendar dates as 'YYYY-MM-DD' strings on Tashkent's calendar. A date here is a calendar day,
 * not an instant: arithmetic counts days on the proleptic Gregorian calendar through UTC day
 * numbers, so no time zone or daylight-saving shift can move a date. Turning an instant into
 * Tashkent's date is api/meta/today.ts's job.
 */
import { isIsoDate } from '../meta/today.ts';

const MS_PER_DAY = 86_400_000;

/**
 * Checks that `value` is a real calendar date written 'YYYY-MM-DD'.
 * @throws TypeError when it is not a string
 * @throws RangeError when it is not a real date in that form ("2023-02-29", "2024-1-5")
 */
export function assertIsoDate(value: string, name = 'date'): void {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a 'YYYY-MM-DD' string, got ${typeof value}`);
  if (!isIsoDate(value)) throw new RangeError(`${name} is not a real date written YYYY-MM-DD: ${JSON.stringify(value)}`);
}

/** Days from 1970-01-01 to `date` (negative before it). */
export function dayNumber(date: string): number {
  assertIsoDate(date);
  return Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY;
}

/** The date `n` days after 1970-01-01. */
export function fromDayNumber(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`a day number must be an integer, got ${n}`);
  const s = new Date(n * MS_PER_DAY).toISOString();
  if (!/^\d{4}-/.test(s)) throw new RangeError(`day number ${n} is outside years 0000–9999`);
  return s.slice(0, 10);
}

/** `date` moved by `days` (which may be negative): addDays('2024-02-28', 1) = '2024-02-29'. */
export function addDays(date: string, days: number): string {
  if (!Number.isSafeInteger(days)) throw new RangeError(`days must be an integer, got ${days}`);
  return fromDayNumber(dayNumber(date) + days);
}

/** Whole days from `from` to `to` (negative when `to` is earlier): ('2023-12-31', '2024-01-01') = 1. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** True in Gregorian leap years (divisible by 4, except centuries not divisible by 400). */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Number of days in a month (1–12) of a year. */
export function daysInMonth(year: number, month: number): number {
  if (!Number.isInteger(month) || month < 1 || month > 12) throw new RangeError(`month must be 1–12, got ${month}`);
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** 'YYYY-MM-DD' from numbers (no checks beyond padding; callers validate). */
export function isoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
