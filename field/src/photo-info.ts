import type { Photo } from './types.ts';

/** What the device makes of a photo's EXIF (read by exif.ts): its time in Tashkent, and the note an offence file carries. */

/**
 * EXIF's "YYYY:MM:DD hh:mm:ss" as Tashkent's (UTC+5) "YYYY-MM-DD hh:mm": moved by its
 * OffsetTimeOriginal ("+03:00") when the camera wrote one; without it, the camera's clock, taken as
 * the local time it shows.
 */
export function exifTime(raw: unknown, offset: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2})/.exec(raw);
  if (!m || m[1] === '0000') return undefined;
  const [, y, mo, d, h, mi] = m;
  const o = typeof offset === 'string' ? /^([+-])(\d{2}):(\d{2})$/.exec(offset.trim()) : null;
  if (!o) return `${y}-${mo}-${d} ${h}:${mi}`;
  const shift = (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3])) * 60_000;
  const utc = Date.UTC(+y, +mo - 1, +d, +h, +mi) - shift;
  return new Date(utc + 5 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
}

/** What an offence file's note says of its photo: the EXIF time and GPS, the evidence of when and where it was taken. */
export function photoNote(p: Pick<Photo, 'takenAt' | 'timeFrom' | 'gps'>): string | undefined {
  const parts = [p.timeFrom === 'exif' && p.takenAt ? `EXIF ${p.takenAt} (UTC+5)` : '', p.gps ? `GPS ${p.gps.lat}, ${p.gps.lng}` : ''];
  return parts.filter(Boolean).join('; ') || undefined;
}
