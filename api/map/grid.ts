/**
 * The maps' aggregation: points are summed into square cells of a few sizes (degrees of longitude
 * and latitude), kept up to date by statement-level triggers on every write, so a viewport at any
 * zoom reads at most a few thousand pre-summed rows and never scans the registry. A map names its
 * grid — the cell sizes and the zooms each serves — and reads it through the same functions: the
 * tree map (`PLANTING_GRID`, public-site.mapPlantings) and the offences map (`OFFENCE_GRID`,
 * offences.map).
 */
export interface GridLevel {
  level: number;
  /** the cell's side in degrees */
  size: number;
  /** the highest zoom this level serves (the level before it serves up to its own) */
  maxZoom: number;
}

export interface Grid {
  /** up to this zoom a map shows one count per region */
  regionsMaxZoom: number;
  /** from the coarsest; beyond the last one's maxZoom, single points */
  levels: readonly GridLevel[];
}

export type MapLayer = 'regions' | 'cells' | 'trees';

/** The tree map's grid: regions up to 6, cells of 0.1° to 9, 0.02° to 12, 0.004° to 14, single plantings from 15. */
export const PLANTING_GRID: Grid = {
  regionsMaxZoom: 6,
  levels: [
    { level: 1, size: 0.1, maxZoom: 9 },
    { level: 2, size: 0.02, maxZoom: 12 },
    { level: 3, size: 0.004, maxZoom: 14 },
  ],
};

/**
 * The offences map's grid: counts per region up to zoom 7 (the whole country on a screen), then cells
 * of 1/2°, 1/8°, 1/32° and 1/128° — powers of two, so a cell's edges are exact in floating point —
 * each serving two zooms, where a cell is 90 px wide at the first and 180 px at the second (a
 * cluster's count never crowds the next, and a screen holds at most about 14 × 9 of them), single
 * offences from 16.
 */
export const OFFENCE_GRID: Grid = {
  regionsMaxZoom: 7,
  levels: [
    { level: 1, size: 0.5, maxZoom: 9 },
    { level: 2, size: 0.125, maxZoom: 11 },
    { level: 3, size: 0.03125, maxZoom: 13 },
    { level: 4, size: 0.0078125, maxZoom: 15 },
  ],
};

/** The tree map's levels (kept for its callers). */
export const GRID_LEVELS = PLANTING_GRID.levels;

/** Which aggregate a zoom reads on a grid: the regions, the cells of a level, or single points ('trees'). */
export function layerForZoom(zoom: number, grid: Grid = PLANTING_GRID): { layer: MapLayer; level?: number } {
  if (zoom <= grid.regionsMaxZoom) return { layer: 'regions' };
  const l = grid.levels.find((g) => zoom <= g.maxZoom);
  return l ? { layer: 'cells', level: l.level } : { layer: 'trees' };
}

export function cellSize(level: number, grid: Grid = PLANTING_GRID): number {
  const l = grid.levels.find((g) => g.level === level);
  if (!l) throw new RangeError(`no grid level ${level}`);
  return l.size;
}

/** A grid's levels as an SQL VALUES list `(level, size), …`, for its triggers. */
export const levelsSql = (grid: Grid): string => grid.levels.map((l) => `(${l.level}, ${l.size})`).join(', ');

/** SQL VALUES list of the tree map's levels, for the triggers. */
export const LEVELS_SQL = levelsSql(PLANTING_GRID);

/** The cell numbers a viewport touches on a level: `floor(coordinate / size)` at its edges, both ends included. */
export function cellRange(bbox: readonly [number, number, number, number], size: number): { cx: [number, number]; cy: [number, number] } {
  const [minLng, minLat, maxLng, maxLat] = bbox;
  return { cx: [Math.floor(minLng / size), Math.floor(maxLng / size)], cy: [Math.floor(minLat / size), Math.floor(maxLat / size)] };
}

/** The zoom a click on a cluster goes to on a grid: the first zoom of the next level (or single points). */
export function nextZoom(zoom: number, grid: Grid = PLANTING_GRID): number {
  if (zoom <= grid.regionsMaxZoom) return grid.regionsMaxZoom + 1;
  const l = grid.levels.find((g) => zoom <= g.maxZoom);
  return l ? l.maxZoom + 1 : zoom + 1;
}

/**
 * A viewport `minLng,minLat,maxLng,maxLat` from a query; null unless four finite numbers in order.
 * A map zoomed out may ask beyond the world's edges: the box is cut to −180…180 and −90…90, so
 * the grid's cell numbers stay integers the database takes.
 */
export function parseBbox(raw: unknown): [number, number, number, number] | null {
  if (typeof raw !== 'string' || raw.length > 200) return null;
  const b = raw.split(',').map((s) => (s.trim() === '' ? NaN : Number(s)));
  if (b.length !== 4 || b.some((n) => !Number.isFinite(n)) || b[0] > b[2] || b[1] > b[3]) return null;
  const clamp = (n: number, max: number) => Math.min(max, Math.max(-max, n));
  return [clamp(b[0], 180), clamp(b[1], 90), clamp(b[2], 180), clamp(b[3], 90)];
}
