import type { Knex } from 'knex';
import { offenceCells } from '../../read-models/offence-cells.ts';
import type { RouteHandler } from '../types.ts';
import type { EntityMeta } from '../../meta/types.ts';
import type { Repository } from '../../engine/repository.ts';
import { badParam } from '../../kernel/errors.ts';
import { parseListParams, type ListParams } from '../../engine/list-params.ts';
import { applyFilter } from '../../engine/filters.ts';
import { abilityColumns } from '../../auth/ability.ts';
import { OFFENCE_GRID, cellRange, cellSize, layerForZoom, nextZoom, parseBbox } from '../../map/grid.ts';

/**
 * The offences map (`GET /api/ecofund-offences/offences/map?bbox&zoom&<filters>`, docs/offences.md
 * "Offences map"): the offences the caller may read that have a place, as counts per region (zoom
 * ≤ 6), clusters per cell of OFFENCE_GRID (7–14) with their count by state, and single offences
 * (15 on, at most MAX_POINTS, `truncated`). Filters are the offences list's own, by the same names
 * and checks: region, offence type, state, and the period of the offence date (Tashkent's calendar
 * days).
 *
 * Clusters come from `offence_cells` (migrations/20261126000100_offence_map.ts) whenever the
 * caller's row scope names only columns the aggregates keep — region and `mvd_sent`: region staff,
 * the police, headquarters — with the engine's own conditions (applyAbility) and filters
 * (applyFilter) applied to them. A period is read there by whole months; the days of a month it
 * covers only in part are counted from the offences (a covering index on the date) and added. A caller whose
 * rows are a set the aggregates cannot tell (an inspector's own offences: `inspector_id`) is
 * counted from the offences themselves through the engine's scoped query — an indexed, small set.
 */
export const MAX_POINTS = 3000;
/** The list's filters the map takes; any other parameter (but bbox, zoom, lang) is a 400 naming it. */
const MAP_FILTERS = new Set(['region_id', 'offence_type_id', 'status', 'offence_date', 'from_offence_date', 'to_offence_date']);
/** The offence columns `offence_cells` keeps under the same names: scope conditions and filters on them apply to it. */
const AGGREGATED = new Set(['region_id', 'status', 'mvd_sent', 'offence_type_id']);
const NOT_FILTERS = new Set(['bbox', 'zoom', 'lang']);
/**
 * The grouping sets each level of `offence_cells` keeps (bit 1: by type, bit 2: by month): all
 * four on the coarse levels, on the fine ones (3, 4) only none and both — there a cell holds few
 * offences, and a set by month is nearly one row an offence. The migration keeps the same.
 */
export const CELL_SETS: Record<number, readonly number[]> = { 0: [0, 1, 2, 3], 1: [0, 1, 2, 3], 2: [0, 1, 2, 3], 3: [0, 3], 4: [0, 3] };
/** A viewport asks for at most this many tiles by name; beyond, a range of them (a bbox far wider than its zoom's screen). */
const MAX_TILES = 256;

/** A cell's tile in `offence_cells`: 32 × 32 cells (`>> 5` floors negative numbers too, as SQL's does). */
export const cellTile = (cx: number, cy: number) => (cx >> 5) * 8192 + (cy >> 5);

type Bbox = [number, number, number, number];
/** One group of counted offences: a region (k1) or a cell (k1, k2), its count, summed coordinates and count by state (s0, s1, …). */
type Part = { k1: number; k2: number; n: number | string; lng_sum: number; lat_sum: number } & Record<`s${number}`, number | string>;

/** The select list of a group: its key, count, summed coordinates, and a count per state (`sum(n) filter (where status = …)`). */
function groupColumns(knex: Knex, states: string[], k1: string, k2: string, count: string, lng: string, lat: string): Knex.Raw[] {
  return [
    knex.raw(`${k1} as k1`),
    knex.raw(`${k2} as k2`),
    knex.raw(`${count}::bigint as n`),
    knex.raw(`${lng} as lng_sum`),
    knex.raw(`${lat} as lat_sum`),
    ...states.map((s, i) => knex.raw(`coalesce(${count} filter (where t.status = ?), 0)::bigint as s${i}`, [s])),
  ];
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** `zoom`: a number 0–22 (fractions allowed, as a map sends them). */
function parseZoom(raw: unknown): number {
  const s = typeof raw === 'string' ? raw : '';
  if (!/^\d{1,2}(\.\d{1,6})?$/.test(s) || Number(s) > 22) throw badParam('zoom');
  return Number(s);
}

/** The month key the aggregates use: 2025-03-14 → 202503. */
const monthOf = (d: string) => Number(d.slice(0, 4)) * 100 + Number(d.slice(5, 7));
const shiftMonth = (m: number, by: 1 | -1) => {
  const y = Math.floor(m / 100);
  const mm = (m % 100) + by;
  return mm > 12 ? (y + 1) * 100 + 1 : mm < 1 ? (y - 1) * 100 + 12 : y * 100 + mm;
};
const lastDay = (d: string) => new Date(Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)), 0)).getUTCDate();
const iso = (y: number, m: number, day: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
const firstOfMonth = (d: string) => `${d.slice(0, 8)}01`;
const lastOfMonth = (d: string) => iso(Number(d.slice(0, 4)), Number(d.slice(5, 7)), lastDay(d));

/**
 * A period split for the aggregates: the whole months it covers (`months`, inclusive, absent when
 * none) and the days of the months it covers in part (`edges`, inclusive date ranges).
 */
export function splitPeriod(
  from: string | undefined,
  to: string | undefined,
): { months?: [number, number]; edges: [string, string][]; empty: boolean } {
  if (from && to && from > to) return { edges: [], empty: true };
  const lo = from ? (from.endsWith('-01') ? monthOf(from) : shiftMonth(monthOf(from), 1)) : 0;
  const hi = to ? (to === lastOfMonth(to) ? monthOf(to) : shiftMonth(monthOf(to), -1)) : 999912;
  const edges: [string, string][] = [];
  const sameMonth = !!from && !!to && from.slice(0, 7) === to.slice(0, 7);
  if (sameMonth && !(from!.endsWith('-01') && to === lastOfMonth(to!))) edges.push([from!, to!]);
  else if (!sameMonth) {
    if (from && !from.endsWith('-01')) edges.push([from, lastOfMonth(from)]);
    if (to && to !== lastOfMonth(to)) edges.push([firstOfMonth(to), to]);
  }
  return { months: lo <= hi ? [lo, hi] : undefined, edges, empty: false };
}

/** Whether the caller's row scope can be read from the aggregates: it names only the columns they keep. */
function aggregatesServe(repo: Repository, e: EntityMeta): boolean {
  const cols = abilityColumns(repo.ability, e, 'read');
  return !!cols && [...cols].every((c) => AGGREGATED.has(c)) && !e.softDelete && !e.view;
}

/** Counts from the aggregates: the caller's scope and the non-date filters on `offence_cells`, the period by whole months. */
async function fromAggregates(
  knex: Knex,
  repo: Repository,
  e: EntityMeta,
  states: string[],
  params: ListParams,
  level: number,
  bbox: Bbox,
  months: [number, number] | null,
): Promise<Part[]> {
  const need = (params.filters.some((f) => f.name === 'offence_type_id') ? 1 : 0) + (months ? 2 : 0);
  // the smallest set the filters need that the level keeps
  const grp = CELL_SETS[level].includes(need) ? need : 3;
  // level and grouping set as literals: constants of the code, and the planner sees them
  const q = offenceCells(knex, repo, level, grp);
  if (!q) return [];
  if (level > 0) {
    const { cx, cy } = cellRange(bbox, cellSize(level, OFFENCE_GRID));
    const [tx, ty] = [
      [cx[0] >> 5, cx[1] >> 5],
      [cy[0] >> 5, cy[1] >> 5],
    ];
    const tiles: number[] = [];
    for (let x = tx[0]; x <= tx[1] && tiles.length <= MAX_TILES; x++) for (let y = ty[0]; y <= ty[1]; y++) tiles.push(x * 8192 + y);
    if (tiles.length <= MAX_TILES) q.whereRaw('t.tile = ANY(?)', [tiles]);
    else q.whereBetween('t.tile', [cellTile(cx[0], cy[0]), cellTile(cx[1], cy[1])]);
    q.whereBetween('t.cx', cx).whereBetween('t.cy', cy);
  } else q.where('t.tile', 0);
  if (months) q.whereBetween('t.month', months);
  for (const f of params.filters) if (f.name !== 'offence_date') applyFilter(q, e, f);
  // a region's count (level 0) or a cell's, by state
  const [k1, k2] = level > 0 ? ['t.cx', 't.cy'] : ['t.region_id', '0'];
  return q
    .groupByRaw('1, 2')
    .select(groupColumns(knex, states, k1, k2, 'sum(t.n)', 'sum(t.lng_sum)', 'sum(t.lat_sum)')) as unknown as Promise<Part[]>;
}

/**
 * Counts from the offences themselves, through the engine's scoped query and the list's filters:
 * for a caller the aggregates cannot scope (an inspector: the `(inspector_id, offence_date)`
 * covering index), and for the days of a month a period takes in part (`days`, replacing the
 * period's filters: the `(offence_date)` covering index). The viewport is a condition on the cell
 * numbers, not the location's box: a box would lead the planner to the location's index, whose
 * estimate for a box is a guess, and away from the small set the scope or the days make.
 */
async function fromRows(
  knex: Knex,
  repo: Repository,
  states: string[],
  params: ListParams,
  level: number,
  bbox: Bbox,
  days?: [string, string],
): Promise<Part[]> {
  const q = repo.scoped('read').whereNotNull('t.location');
  repo.applyFilters(q, days ? { ...params, filters: params.filters.filter((f) => f.name !== 'offence_date') } : params);
  if (days) q.whereBetween('t.offence_date', days);
  if (level === 0) {
    return q
      .groupByRaw('1, 2')
      .select(groupColumns(knex, states, 't.region_id', '0', 'count(*)', 'sum(t.location[0])', 'sum(t.location[1])')) as unknown as Promise<
      Part[]
    >;
  }
  const size = cellSize(level, OFFENCE_GRID);
  const { cx, cy } = cellRange(bbox, size);
  const x = `floor(t.location[0] / ${size})::int`;
  const y = `floor(t.location[1] / ${size})::int`;
  q.whereRaw(`${x} between ? and ?`, cx).whereRaw(`${y} between ? and ?`, cy);
  return q
    .groupByRaw('1, 2')
    .select(groupColumns(knex, states, x, y, 'count(*)', 'sum(t.location[0])', 'sum(t.location[1])')) as unknown as Promise<Part[]>;
}

export const mapHandler: RouteHandler = async (ctx, rc) => {
  const e = rc.entity!;
  const bbox = parseBbox(ctx.query.bbox);
  if (!bbox) throw badParam('bbox');
  const zoom = parseZoom(ctx.query.zoom);
  const query: Record<string, string | string[] | undefined> = {};
  for (const [k, v] of Object.entries(ctx.query)) {
    if (NOT_FILTERS.has(k)) continue;
    if (!MAP_FILTERS.has(k)) throw badParam(k, 'errors.unknown_filter');
    query[k] = v;
  }
  const params = parseListParams(e, query);
  const repo = rc.repo();
  // every filter value checked (a 400 naming it) before anything is read
  repo.applyFilters(rc.knex.queryBuilder(), params);
  const states = (e.fields.status?.values ?? []) as string[];
  const { layer, level } = layerForZoom(zoom, OFFENCE_GRID);
  ctx.set('Cache-Control', 'private, no-store');

  if (layer === 'trees') {
    // the offences in the box first, by the place's index (OFFSET 0 keeps the planner from folding the
    // subquery into the scope's conditions: it has no estimate for a box, and would AND a region's
    // whole index with it), then the caller's scope and the filters on those few
    const inBox = rc.knex.raw('(select * from ?? where location <@ box(point(?, ?), point(?, ?)) offset 0) as t', [e.table, ...bbox]);
    const rows = await repo
      .applyFilters(repo.scoped('read', undefined, inBox), params)
      .limit(MAX_POINTS + 1)
      .select(
        't.id',
        rc.knex.raw('t.location[0] as lng'),
        rc.knex.raw('t.location[1] as lat'),
        't.status',
        't.offence_type_id',
        't.number',
      );
    ctx.body = {
      layer: 'offences',
      zoom,
      states,
      truncated: rows.length > MAX_POINTS,
      items: rows
        .slice(0, MAX_POINTS)
        .map((r: { id: number; lng: number; lat: number; status: string; offence_type_id: number | null; number: string }) => [
          Number(r.id),
          round(r.lng),
          round(r.lat),
          r.status,
          r.offence_type_id === null ? null : Number(r.offence_type_id),
          r.number,
        ]),
    };
    return;
  }

  const lvl = layer === 'regions' ? 0 : level!;
  const dates = params.filters.filter((f) => f.name === 'offence_date');
  // several bounds (`offence_date=a,b` and `from_offence_date=c`) all hold: the latest start, the earliest end
  const bound = (b: 'from' | 'to') => {
    const days = dates
      .filter((f) => f.bound === b)
      .map((f) => String(f.value).slice(0, 10))
      .sort();
    return b === 'from' ? days.pop() : days.shift();
  };
  const [from, to] = [bound('from'), bound('to')];
  let parts: Part[] = [];
  let source: 'aggregates' | 'rows' = 'rows';
  if (aggregatesServe(repo, e)) {
    source = 'aggregates';
    const period = dates.length ? splitPeriod(from, to) : { months: undefined, edges: [], empty: false };
    if (!period.empty) {
      if (!dates.length || period.months) parts = await fromAggregates(rc.knex, repo, e, states, params, lvl, bbox, period.months ?? null);
      for (const days of period.edges) parts = parts.concat(await fromRows(rc.knex, repo, states, params, lvl, bbox, days));
    }
  } else parts = await fromRows(rc.knex, repo, states, params, lvl, bbox);

  // one cluster per region or cell: its count by state and its offences' centre
  const clusters = new Map<string, { k1: number; n: number; lng: number; lat: number; by: number[] }>();
  for (const p of parts) {
    const key = `${p.k1}:${p.k2}`;
    let c = clusters.get(key);
    if (!c) clusters.set(key, (c = { k1: Number(p.k1), n: 0, lng: 0, lat: 0, by: states.map(() => 0) }));
    c.n += Number(p.n);
    c.lng += Number(p.lng_sum);
    c.lat += Number(p.lat_sum);
    states.forEach((_, i) => {
      c!.by[i] += Number(p[`s${i}`]);
    });
  }
  const items = [...clusters.values()]
    .filter((c) => c.n > 0)
    .map((c) =>
      layer === 'regions' ? [round(c.lng / c.n), round(c.lat / c.n), c.n, c.by, c.k1] : [round(c.lng / c.n), round(c.lat / c.n), c.n, c.by],
    );
  ctx.body = {
    layer,
    zoom,
    states,
    source,
    next_zoom: nextZoom(zoom, OFFENCE_GRID),
    ...(layer === 'cells' ? { level: lvl, size: cellSize(lvl, OFFENCE_GRID) } : {}),
    total: items.reduce((s, i) => s + (i[2] as number), 0),
    items,
  };
};
