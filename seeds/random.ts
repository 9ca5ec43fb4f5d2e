/** A small deterministic generator for the demo data, so the demo looks the same on every machine. */
export function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    real: (min: number, max: number) => min + next() * (max - min),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
  };
}

export type Rnd = ReturnType<typeof random>;
