import type Feature from 'ol/Feature';
import type { FeatureLike } from 'ol/Feature';
import type Point from 'ol/geom/Point';

/**
 * Bubbles that do not overlap: a cluster's circle grows with its count (up to 40 px) but never
 * past half the distance to its nearest neighbour at the current zoom, so at country zoom the
 * regions' bubbles (Tashkent city beside Tashkent region) stay apart; a circle too small for its
 * count keeps the count as a label above it, which the map declutters (docs/numbers.md).
 */

/** The most features measured pairwise (a viewport holds at most a few thousand). */
const MAX_MEASURED = 2000;

/** Sets on each point feature `room`: half the distance (map units) to its nearest neighbour. */
export function spaceOut(features: Feature[]): void {
  const pts = features.map((f) => (f.getGeometry() as Point | undefined)?.getCoordinates?.() ?? null);
  const n = features.length;
  if (n > MAX_MEASURED) return;
  for (let i = 0; i < n; i++) {
    const a = pts[i];
    if (!a) continue;
    let best = Infinity;
    for (let j = 0; j < n; j++) {
      const b = pts[j];
      if (j === i || !b) continue;
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (d < best) best = d;
    }
    features[i].set('room', best / 2, true);
  }
}

/** however close two neighbours are, a circle stays a visible dot */
export const MIN_RADIUS = 3;
export const MAX_RADIUS = 40;

/** A cluster's radius in pixels at `resolution` (map units per pixel). */
export function bubbleRadius(count: number, f: FeatureLike, resolution: number): number {
  const natural = Math.min(MAX_RADIUS, 13 + 5 * Math.log10(Math.max(1, count)));
  const room = f.get('room') as number | undefined;
  const fits = room && resolution > 0 ? room / resolution - 1 : Infinity;
  return Math.round(Math.max(MIN_RADIUS, Math.min(natural, fits)));
}

/** A count's label fits inside its circle (bold 12 px: about 7 px a character). */
export function labelInside(label: string, radius: number): boolean {
  return 2 * radius >= label.length * 7 + 6;
}
