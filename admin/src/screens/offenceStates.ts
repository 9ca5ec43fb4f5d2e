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
