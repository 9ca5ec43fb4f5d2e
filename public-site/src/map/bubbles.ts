/**
 * Bubbles whose AREA tells their count (docs/numbers.md, "The map"): a bubble's radius grows with
 * the square root of its count, against the biggest count of the view (drawn at the largest
 * radius), never below a dot that can be seen and hit. The legend's sample bubbles come from the
 * same function. Where two regions' bubbles would overlap (Tashkent city inside Tashkent region),
 * they are pushed apart on the screen, the bigger one moving less, each keeping a thin line to its
 * true place — never shrunk, which would make the biggest count the smallest bubble.
 */

/** however small its share, a bubble stays a visible dot a finger can hit */
export const MIN_RADIUS = 5;
/** the biggest count of the view on a wide screen */
export const MAX_RADIUS = 34;

/**
 * The largest radius for a map of `width`×`height` pixels: a phone's map holds the whole country
 * in a third of a wide screen's, so its biggest bubble is smaller (18 px at 360 px, 34 from 640).
 */
export function maxRadiusFor(width: number, height: number): number {
  return Math.max(16, Math.min(MAX_RADIUS, Math.round(Math.min(width, height) / 18)));
}

/**
 * A bubble's radius in pixels: area proportional to `count`, the count `scaleMax` at `maxRadius`
 * (clamped to [MIN_RADIUS, maxRadius]); in tenths of a pixel, so that the styles can be cached.
 */
export function bubbleRadius(count: number, scaleMax: number, maxRadius = MAX_RADIUS): number {
  if (!(count > 0) || !(scaleMax > 0)) return MIN_RADIUS;
  const r = maxRadius * Math.sqrt(count / scaleMax);
  return Math.round(Math.max(MIN_RADIUS, Math.min(maxRadius, r)) * 10) / 10;
}

/** The largest "round" number (1, 2 or 5 times a power of ten) not above n. */
export function roundDown(n: number): number {
  if (!(n >= 1)) return 0;
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [5, 2, 1]) if (m * p <= n) return m * p;
  return p;
}

/**
 * The legend's sample bubbles for a view whose biggest count is `scaleMax`: up to three round
 * counts (about the biggest, a quarter and a twentieth of it), each with the radius the map draws
 * it at; the ones that would be no bigger than a dot, or repeat, are left out.
 */
export function legendSamples(scaleMax: number, maxRadius = MAX_RADIUS): { count: number; r: number }[] {
  const out: { count: number; r: number }[] = [];
  for (const share of [1, 1 / 4, 1 / 20]) {
    const count = roundDown(scaleMax * share);
    if (count < 1 || out.some((s) => s.count === count)) continue;
    const r = bubbleRadius(count, scaleMax, maxRadius);
    if (r <= MIN_RADIUS && out.length > 0) continue;
    out.push({ count, r });
  }
  return out;
}

export interface Placed {
  x: number;
  y: number;
  r: number;
}

/**
 * Moves bubbles (pixels) apart until no two overlap (with `gap` pixels between them) or the
 * iterations run out: each overlapping pair is pushed apart along the line between their centres,
 * each by the other's share of their two areas (a big bubble hardly moves, a small one gives way).
 * Gives back each bubble's offset [dx, dy] in pixels. Meant for a few dozen bubbles (the regions).
 */
export function separate(bubbles: Placed[], gap = 3, iterations = 80): [number, number][] {
  const n = bubbles.length;
  const x = bubbles.map((b) => b.x);
  const y = bubbles.map((b) => b.y);
  for (let it = 0; it < iterations; it++) {
    let moved = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const need = bubbles[i].r + bubbles[j].r + gap;
        let dx = x[j] - x[i];
        let dy = y[j] - y[i];
        let d = Math.hypot(dx, dy);
        if (d >= need) continue;
        if (d < 1e-6) {
          // the same place: apart along a fixed direction, so that the result does not depend on chance
          dx = 1;
          dy = 0;
          d = 1;
        }
        const push = need - d + 0.01;
        const ai = bubbles[i].r ** 2;
        const aj = bubbles[j].r ** 2;
        const si = (push * aj) / (ai + aj);
        const sj = (push * ai) / (ai + aj);
        x[i] -= (dx / d) * si;
        y[i] -= (dy / d) * si;
        x[j] += (dx / d) * sj;
        y[j] += (dy / d) * sj;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return bubbles.map((b, i) => [x[i] - b.x, y[i] - b.y]);
}

/** A count's label fits inside its circle (bold 12 px: about 7 px a character). */
export function labelInside(label: string, radius: number): boolean {
  return 2 * radius >= label.length * 7 + 6;
}
