import type { Knex } from 'knex';
import type { EntityMeta, MetaModel } from '../meta/types.ts';
import { publicEntity, visible } from '../engine/public-read.ts';

/**
 * The public statistics and map, read from the aggregates the statement triggers keep
 * (docs/decisions/0029): `planting_stats`, `planting_year_facts`, `planting_cells`. The aggregates
 * count every planting, so they are public exactly while the plantings' public block opens every
 * row (no `where`, no view); the regions and species they are grouped by are read through those
 * entities' public blocks. `publicAggregates` is that scope: null when the public may not read them.
 */
export interface PublicAggregates {
  plantings: EntityMeta;
  regions: EntityMeta;
  species: EntityMeta;
}

/** The public's scope over the plantings' aggregates, or null (a public statistics call is then a 404). */
export function publicAggregates(model: MetaModel): PublicAggregates | null {
  const plantings = publicEntity(model, 'plantings');
  const regions = publicEntity(model, 'regions');
  const species = publicEntity(model, 'tree-species');
  if (!plantings || !regions || !species) return null;
  if (Object.keys(plantings.public!.where ?? {}).length || Object.keys(plantings.view ?? {}).length) return null;
  return { plantings, regions, species };
}

export interface RegionTotal {
  region_id: number;
  name: unknown;
  trees: number;
  plantings: number;
}

/** A year's trees and plantings by public region, in the regions' order (a region with none: zeros). */
export async function yearByRegion(knex: Knex, scope: PublicAggregates, year: number): Promise<RegionTotal[]> {
  const rows = await visible(knex, scope.regions)
    .leftJoin('planting_stats as s', (j) => j.on('s.region_id', 't.id').andOn('s.year', knex.raw('?', [year])))
    .groupBy('t.id')
    .orderBy('t.ordering')
    .select(
      't.id as region_id',
      't.name',
      knex.raw('coalesce(sum(s.trees), 0)::bigint as trees'),
      knex.raw('coalesce(sum(s.plantings), 0)::bigint as plantings'),
    );
  return rows.map((r: { region_id: number; name: unknown; trees: string; plantings: string }) => ({
    region_id: r.region_id,
    name: r.name,
    trees: Number(r.trees),
    plantings: Number(r.plantings),
  }));
}

/** A year's trees by source (all regions: the aggregates count every planting, as the scope requires). */
export async function yearBySource(knex: Knex, _scope: PublicAggregates, year: number): Promise<Record<string, number>> {
  const rows = await knex('planting_stats').where({ year }).groupBy('source').select('source', knex.raw('sum(trees)::bigint as trees'));
  return Object.fromEntries(rows.map((r: { source: string; trees: string }) => [r.source, Number(r.trees)]));
}

/** A year's trees by public species (and, given, one region), most first. */
export async function yearBySpecies(
  knex: Knex,
  scope: PublicAggregates,
  year: number,
  regionId?: number,
): Promise<{ species_id: number; name: unknown; latin_name: unknown; kind: unknown; trees: number }[]> {
  const cols = ['name', 'latin_name', 'kind'].filter((f) => scope.species.public!.fields.includes(f)).map((f) => `t.${f}`);
  const q = visible(knex, scope.species)
    .join('planting_stats as s', 't.id', 's.species_id')
    .where('s.year', year)
    .groupBy('t.id')
    .orderBy('trees', 'desc')
    .select('t.id as species_id', ...cols, knex.raw('sum(s.trees)::bigint as trees'));
  if (regionId !== undefined) q.where('s.region_id', regionId);
  return (await q).map((r: { trees: string }) => ({ ...r, trees: Number(r.trees) })) as never;
}

/** Trees by public region with the region's centre (the map's lowest zoom); `irrigated`: the irrigated trees only. */
export async function treesByRegionCentre(
  knex: Knex,
  scope: PublicAggregates,
  irrigated: boolean,
): Promise<{ id: number; lng: number; lat: number; trees: number }[]> {
  if (!scope.regions.public!.fields.includes('centre')) return [];
  const q = irrigated
    ? visible(knex, scope.regions).join('planting_year_facts as s', 's.region_id', 't.id').where('s.irrigation', true)
    : visible(knex, scope.regions).join('planting_stats as s', 's.region_id', 't.id');
  const rows = await q
    .groupBy('t.id')
    .select('t.id', knex.raw('t.centre[0] as lng'), knex.raw('t.centre[1] as lat'), knex.raw('sum(s.trees)::bigint as trees'));
  return rows.map((r: { id: number; lng: number; lat: number; trees: string }) => ({
    id: r.id,
    lng: r.lng,
    lat: r.lat,
    trees: Number(r.trees),
  }));
}

/** The widest view asked column by column (a 4K screen at a level's lowest zoom spans ~300 columns of its cells). */
const MAX_CELL_COLUMNS = 1000;

/** The grid's cells of one level within columns `cx0..cx1` and rows `cy0..cy1`; `irrigated`: cells with irrigated trees only. */
export async function cellsInView(
  knex: Knex,
  _scope: PublicAggregates,
  level: number,
  [cx0, cy0, cx1, cy1]: [number, number, number, number],
  irrigated: boolean,
): Promise<{ trees: number; irrigated: number; lng_sum: number; lat_sum: number }[]> {
  // each column of cells its own range of the index (`cx = ANY`): a range of columns reads every
  // cell of those columns from the south of the country to its north, up to 50 times the view's
  // (zoom 13: 7 ms against 0.7 at 20 M plantings); a box wider than any screen keeps the range
  const q = knex('planting_cells').where({ level }).whereBetween('cy', [cy0, cy1]).select('trees', 'irrigated', 'lng_sum', 'lat_sum');
  if (cx1 - cx0 < MAX_CELL_COLUMNS) q.whereRaw('cx = ANY(?::int[])', [Array.from({ length: cx1 - cx0 + 1 }, (_, i) => cx0 + i)]);
  else q.whereBetween('cx', [cx0, cx1]);
  if (irrigated) q.where('irrigated', '>', 0);
  return q;
}
