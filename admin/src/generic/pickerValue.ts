/**
 * The values a date picker shows and the form keeps (docs/decisions/0085). The form and the API
 * hold dates as `YYYY-MM-DD` and moments as ISO strings; the picker works on wall time: a date as
 * it is, a moment as Tashkent's clock shows it (UTC+5, no daylight saving) whatever the browser's
 * own time zone, and a moment picked goes back as ISO with `+05:00`.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const TASHKENT_MS = 5 * 3600_000;

/** What a picker emits while its sections are not all typed: the form refuses it by its validator. */
export const PARTIAL_DATE = 'partial-date';

/**
 * A form value → the wall time the picker shows: `YYYY-MM-DD` for a date, `YYYY-MM-DDTHH:mm:ss`
 * (Tashkent) for a moment; null for an empty or unreadable value.
 */
export function wallOf(value: unknown, time: boolean): string | null {
  if (value === null || value === undefined || value === '' || value === PARTIAL_DATE) return null;
  const s = String(value);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!time) {
    if (day) return s;
    // a moment given to a date field: its day in Tashkent
    const wall = tashkentWall(s);
    return wall ? wall.slice(0, 10) : null;
  }
  // a bare date given to a moment field: midnight in Tashkent (what the API reads it as, api/engine/normalise.ts)
  if (day) return `${s}T00:00:00`;
  return tashkentWall(s);
}

function tashkentWall(s: string): string | null {
  const t = Date.parse(s);
  if (Number.isNaN(t)) return null;
  const d = new Date(t + TASHKENT_MS);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** The wall time the picker holds → the form's value: `YYYY-MM-DD`, or ISO with `+05:00` for a moment. */
export function valueOfWall(wall: string, time: boolean): string {
  return time ? `${wall.slice(0, 19)}+05:00` : wall.slice(0, 10);
}
