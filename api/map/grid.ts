/**
 * The map's aggregation: plantings are summed into square cells of three sizes (degrees of
 * longitude and latitude), kept up to date by statement-level triggers on every write, so a
 * viewport at any zoom reads at most a few thousand pre-summed rows and never scans the registry.
 */
export const GRID_LEVELS = [
  { level: 1, size: 0.1 },
  { level: 2, size: 0.02 },
  { level: 3, size: 0.004 },
] as const;

export type MapLayer = 'regions' | 'cells' | 'trees';

/** Which aggregate a zoom level reads: regions up to 6, cells of 0.1° to 9, 0.02° to 12, 0.004° to 14, single plantings from 15. */
export function layerForZoom(zoom: number): { layer: MapLayer; level?: number } {
  if (zoom <= 6) return { layer: 'regions' };
  if (zoom <= 9) return { layer: 'cells', level: 1 };
  if (zoom <= 12) return { layer: 'cells', level: 2 };
  if (zoom <= 14) return { layer: 'cells', level: 3 };
  return { layer: 'trees' };
}

export function cellSize(level: number): number {
  const l = GRID_LEVELS.find((g) => g.level === level);
  if (!l) throw new RangeError(`no grid level ${level}`);
  return l.size;
}

/** SQL VALUES list of the levels, for the triggers. */
export const LEVELS_SQL = GRID_LEVELS.map((l) => `(${l.level}, ${l.size})`).join(', ');

/**
 * A viewport `minLng,minLat,maxLng,maxLat` from a query; null unless four finite numbers in order.
 * A map zoomed out may ask beyond the world's edges: the box is cut to −180…180 and −90…90, so
 * the grid's cell numbers stay integers the database takes.
 */
export function parseBbox(raw: unknown): [number, number, number, number] | null {
  const b = String(raw ?? '').split(',').map(Number);
  if (b.length !== 4 || b.some((n) => !Number.isFinite(n)) || b[0] > b[2] || b[1] > b[3]) return null;
  const clamp = (n: number, max: number) => Math.min(max, Math.max(-max, n));
  return [clamp(b[0], 180), clamp(b[1], 90), clamp(b[2], 180), clamp(b[3], 90)];
}
