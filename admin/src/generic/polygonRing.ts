/** An open ring of [lng, lat] pairs, as the API writes a polygon (the closing point not repeated). */
export type Ring = [number, number][];

/** The API's bounds of a ring (api/engine/payload-schema.ts). */
export const MIN_POINTS = 3;
export const MAX_POINTS = 2000;

const isPair = (p: unknown): p is [number, number] =>
  Array.isArray(p) && p.length === 2 && p.every((n) => typeof n === 'number' && Number.isFinite(n));

/** A value that is a ring of number pairs (of any length), else null. */
export function asRing(v: unknown): Ring | null {
  return Array.isArray(v) && v.length > 0 && v.every(isPair) ? (v as Ring) : null;
}

/** The ring without its last point when that repeats the first (a closed ring, as OpenLayers and many tools write it). */
export function openRing(ring: Ring): Ring {
  if (ring.length < 2) return ring;
  const [a, b] = [ring[0], ring[ring.length - 1]];
  return a[0] === b[0] && a[1] === b[1] ? ring.slice(0, -1) : ring;
}

/** One `lng lat` line per point. */
export function ringToText(ring: Ring | null): string {
  return ring ? ring.map(([lng, lat]) => `${lng} ${lat}`).join('\n') : '';
}

const NUM = String.raw`([-+]?\d+(?:[.,]\d+)?)`;
const LINE = new RegExp(String.raw`^\s*${NUM}\s*[,;\s]\s*${NUM}\s*$`);

/**
 * Lines of `lng lat` (or `lng, lat`; a decimal comma is read as a point) to a ring: null for no
 * text, undefined when a line is not two numbers.
 */
export function textToRing(text: string): Ring | null | undefined {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (!lines.length) return null;
  const ring: Ring = [];
  for (const line of lines) {
    const m = LINE.exec(line);
    if (!m) return undefined;
    ring.push([Number(m[1].replace(',', '.')), Number(m[2].replace(',', '.'))]);
  }
  return openRing(ring);
}

export const sameRing = (a: Ring | null | undefined, b: Ring | null) =>
  (a ?? null) === b || (!!a && !!b && a.length === b.length && a.every((p, i) => p[0] === b[i][0] && p[1] === b[i][1]));

export type Message = string | { message: string; args: Record<string, unknown> };

/** What the API would say of a value (the same message keys), before it is sent. */
export function checkRing(v: unknown, required?: boolean): Message | undefined {
  if (v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length)) return required ? 'validation.required' : undefined;
  const ring = asRing(v);
  if (!ring) return 'validation.wrong_format';
  if (ring.length < MIN_POINTS || ring.length > MAX_POINTS)
    return { message: 'validation.polygon_points', args: { min: MIN_POINTS, max: MAX_POINTS } };
  if (ring.some(([lng, lat]) => Math.abs(lng) > 180 || Math.abs(lat) > 90)) return 'validation.coordinates';
  return undefined;
}
