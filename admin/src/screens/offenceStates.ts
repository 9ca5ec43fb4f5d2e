/**
 * The offences map's colour of each offence state (the legend, the clusters' rings, the points):
 * chosen apart for colour-blind readers as well (grey, blue, orange, purple, green) and dark
 * enough for the white edge drawn around them.
 */
const COLORS: Record<string, string> = {
  draft: '#757575',
  review: '#1565c0',
  returned: '#e65100',
  mvd: '#6a1b9a',
  closed: '#2e7d32',
};

export const stateColor = (state: string): string => COLORS[state] ?? '#455a64';

/** A cluster's radius in pixels: 14 for one offence, up to 30 for a hundred thousand (the map's rings and the legend's sizes). */
export const clusterRadius = (count: number): number => Math.round(14 + Math.min(16, Math.log10(Math.max(1, count)) * 3.2));

/** The cluster sizes the legend draws: one offence, a hundred, ten thousand. */
export const LEGEND_SIZES = [1, 100, 10_000] as const;
