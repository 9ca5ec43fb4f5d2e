import { describe, expect, it } from 'vitest';
import { cellMaxRadius, shareScale } from './bubbleBoard';
import { bubbleRadius, legendSamples, MAX_RADIUS, MIN_RADIUS, roundDown, separate } from './bubbles';

// the regions' counts of the demo data at country zoom (/public/map/plantings, layer "regions")
const REGIONS = [
  7137493, 4061810, 4381639, 11489048, 11487550, 15990563, 10479691, 6951323, 11519614, 10642802, 9314780, 11097907, 8570743, 13918105,
];

describe('bubbleRadius', () => {
  it('draws the biggest count at the largest radius and areas in the proportion of the counts', () => {
    const max = Math.max(...REGIONS);
    expect(bubbleRadius(max, max)).toBe(MAX_RADIUS);
    for (const a of REGIONS) {
      for (const b of REGIONS) {
        const ra = bubbleRadius(a, max);
        const rb = bubbleRadius(b, max);
        if (a > b) expect(ra).toBeGreaterThanOrEqual(rb);
        // tenths of a pixel: the areas' ratio within 1 % of the counts'
        expect(Math.abs((ra * ra) / (rb * rb) / (a / b) - 1)).toBeLessThan(0.01);
      }
    }
    // Tashkent city (16 M) is the biggest of all, not the smallest
    const tashkent = bubbleRadius(15990563, max);
    expect(Math.max(...REGIONS.map((c) => bubbleRadius(c, max)))).toBe(tashkent);
  });

  it('keeps a visible dot for a tiny share and never passes the largest radius', () => {
    expect(bubbleRadius(1, 16_000_000)).toBe(MIN_RADIUS);
    expect(bubbleRadius(0, 100)).toBe(MIN_RADIUS);
    expect(bubbleRadius(500, 100)).toBe(MAX_RADIUS);
    expect(bubbleRadius(100, 100, 20)).toBe(20);
    // a quarter of the count: half the radius
    expect(bubbleRadius(25, 100, 20)).toBe(10);
  });
});

describe('the legend', () => {
  it('samples round counts drawn by the same function as the map', () => {
    expect(roundDown(15990563)).toBe(10_000_000);
    expect(roundDown(4_100)).toBe(2_000);
    expect(roundDown(0.5)).toBe(0);
    const samples = legendSamples(15990563);
    expect(samples.map((s) => s.count)).toEqual([10_000_000, 2_000_000, 500_000]);
    for (const s of samples) expect(s.r).toBe(bubbleRadius(s.count, 15990563));
    // radii descend with the counts
    expect(samples[0].r).toBeGreaterThan(samples[1].r);
    expect(samples[1].r).toBeGreaterThan(samples[2].r);
  });

  it('leaves out dots and repeats for a small view', () => {
    expect(legendSamples(3).map((s) => s.count)).toEqual([2]);
    expect(legendSamples(0)).toEqual([]);
  });
});

describe('separate', () => {
  it('pushes overlapping bubbles apart, the bigger moving less, and leaves lone ones where they are', () => {
    const bubbles = [
      { x: 100, y: 100, r: 34 }, // Tashkent city
      { x: 104, y: 116, r: 29 }, // Tashkent region, a few pixels away
      { x: 400, y: 100, r: 20 }, // far away
    ];
    const moves = separate(bubbles);
    const at = bubbles.map((b, i) => ({ x: b.x + moves[i][0], y: b.y + moves[i][1], r: b.r }));
    expect(Math.hypot(at[0].x - at[1].x, at[0].y - at[1].y)).toBeGreaterThanOrEqual(at[0].r + at[1].r);
    expect(Math.hypot(...moves[0])).toBeLessThan(Math.hypot(...moves[1]));
    expect(moves[2]).toEqual([0, 0]);
  });

  it('parts bubbles on the same spot', () => {
    const moves = separate([
      { x: 10, y: 10, r: 10 },
      { x: 10, y: 10, r: 10 },
    ]);
    expect(Math.abs(moves[0][0] - moves[1][0])).toBeGreaterThanOrEqual(20);
  });
});

describe('the shared scale', () => {
  it('is the biggest count of the layers on at the leading layer’s radius', () => {
    expect(
      shareScale([
        { max: 100, maxRadius: 20 },
        { max: 40, maxRadius: 34 },
      ]),
    ).toEqual({ max: 100, maxRadius: 20 });
    expect(shareScale([undefined, { max: 40, maxRadius: 34 }])).toEqual({ max: 40, maxRadius: 34 });
    expect(shareScale([undefined, { max: 0, maxRadius: 34 }])).toBeNull();
  });

  it('gives a grid’s cells about a cell’s width on the screen', () => {
    // 0.1° at zoom 7 (1 223 m a pixel): about 9 px, kept at the 12 px floor; at zoom 9, 36 px → the maximum
    expect(cellMaxRadius(0.1, 1222.99)).toBe(12);
    expect(cellMaxRadius(0.1, 305.75)).toBe(MAX_RADIUS);
    expect(cellMaxRadius(0.1, 611.5)).toBe(18);
  });
});
