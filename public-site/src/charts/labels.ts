import type { Plugin } from 'chart.js';

/** Marks the canvas once drawn, for tests and anyone waiting for it. */
export const drawn: Plugin = {
  id: 'drawn',
  afterRender(chart) {
    chart.canvas.dataset.drawn = 'true';
  },
};

/** A label cut to n characters with an ellipsis. */
export const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A long name on two lines of about n characters (a narrow screen's axis), the rest cut. */
export function wrap(s: string, n: number): string | string[] {
  if (s.length <= n) return s;
  const words = s.split(' ');
  let first = words.shift()!;
  while (words.length && `${first} ${words[0]}`.length <= n) first += ` ${words.shift()}`;
  return words.length ? [clip(first, n), clip(words.join(' '), n)] : clip(first, n);
}

/**
 * The value axis's ticks: figures stay horizontal (never rotated into one another), at most 3 on
 * a phone and 8 on a wide screen, and Chart.js skips any that would still touch.
 */
export function valueTicks(compact?: boolean) {
  return { maxTicksLimit: compact ? 3 : 8, autoSkip: true, autoSkipPadding: 12, maxRotation: 0, minRotation: 0 } as const;
}
