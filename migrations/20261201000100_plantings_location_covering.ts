import type { Knex } from 'knex';

/**
 * The public map's single plantings (zoom ≥ 15, `/api/public/map/plantings`) read by an index-only
 * scan: a viewport asks the points in a box and each one's id, count and species (and, for the
 * irrigation layer, whether it is irrigated); through the plain GiST index every point cost a random
 * heap page — at 20 M plantings about 2 500 pages and 66 ms for one 1280 × 800 px view, the largest
 * share of PostgreSQL's time under the mixed load (bench/load). With those columns in the index the
 * same view reads ~250 index pages a partition, 3 ms (docs/performance.md). It replaces the plain
 * index: every other query on `location` (the staff's geometry filters, exports) is served by it alike.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX IF NOT EXISTS plantings_location_view ON plantings USING gist (location) INCLUDE (id, count, species_id, irrigation)',
  );
  await knex.raw('DROP INDEX IF EXISTS plantings_location_idx');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS plantings_location_idx ON plantings USING gist (location)');
  await knex.raw('DROP INDEX IF EXISTS plantings_location_view');
}
