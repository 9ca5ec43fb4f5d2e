/** The fund works on Tashkent's calendar (Asia/Tashkent, UTC+5, no daylight saving). */
export const TIME_ZONE = 'Asia/Tashkent';

const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today's date in Tashkent as YYYY-MM-DD. */
export function todayTashkent(now: Date = new Date()): string {
  return fmt.format(now);
}

/** The current year in Tashkent. */
export function currentYearTashkent(now: Date = new Date()): number {
  return Number(todayTashkent(now).slice(0, 4));
}

/** True when s is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
