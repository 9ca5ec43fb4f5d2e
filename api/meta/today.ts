/** The fund works on Tashkent's calendar (Asia/Tashkent, UTC+5, no daylight saving). */
export const TIME_ZONE = 'Asia/Tashkent';

const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today's date in Tashkent as YYYY-MM-DD. */
export function todayTashkent(now: Date = new Date()): string {
  // Tashkent's offset is whole hours: a minute never spans its midnight, so the day of a minute is kept
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== lastMinute || !lastDay) {
    lastDay = fmt.format(now);
    lastMinute = minute;
  }
  return lastDay;
}
let lastMinute = NaN;
let lastDay = '';

/**
 * A file's name dated by Tashkent's day, as users there date it: `payments-2026-12-02.xlsx` for an
 * export made at 20:00 UTC on 1 December (01:00 on the 2nd in Tashkent). Every download and job file
 * the system names goes through here, never through the UTC day of `toISOString()`.
 */
export function datedFileName(base: string, ext: string, now: Date = new Date()): string {
  return `${base}-${todayTashkent(now)}.${ext}`;
}

/** The current year in Tashkent. */
export function currentYearTashkent(now: Date = new Date()): number {
  return Number(todayTashkent(now).slice(0, 4));
}

/**
 * Dates the system takes are in the years 1000–9999: four digits, as written everywhere, and far
 * from PostgreSQL's limits (it has no year 0000 and reads 0001–0999 as ancient history no record
 * here is from). Payloads, filters, report parameters and imported sheets all check this bound.
 */
export const MIN_YEAR = 1000;
export const MAX_YEAR = 9999;

/** True when s is a real calendar date written YYYY-MM-DD in the years MIN_YEAR–MAX_YEAR. */
export function isIsoDate(s: string): boolean {
  if (!/^[1-9]\d{3}-\d{2}-\d{2}$/.test(s)) return false;
  const y = Number(s.slice(0, 4));
  const m = Number(s.slice(5, 7));
  const d = Number(s.slice(8, 10));
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (m === 2 && leap ? 29 : MONTH_DAYS[m - 1]);
}
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A date and time as ISO 8601 only — `YYYY-MM-DD`, then optionally `THH:MM[:SS[.fffffffff]]` and a
 * zone `Z` or `±HH[:MM]` — a real calendar date in the years 1000–9999 (as dates are), hours below
 * 24, minutes and seconds below 60, a zone within ±14 hours. What `Date.parse` also accepts
 * ("March 7", "2024-01-01 25:00", year 0) PostgreSQL does not, or reads otherwise.
 */
export function isIsoDateTime(s: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2})(?::?(\d{2}))?)?)?$/i.exec(s);
  if (!m || !isIsoDate(m[1])) return false;
  const [, , hh, mm, ss, zh, zm] = m;
  return (
    (hh === undefined || (Number(hh) < 24 && Number(mm) < 60 && (ss === undefined || Number(ss) < 60))) &&
    (zh === undefined || (Number(zh) <= 14 && (zm === undefined || Number(zm) < 60)))
  );
}
