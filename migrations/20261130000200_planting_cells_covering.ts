import type { Knex } from 'knex';

/**
 * The map's cells read by an index-only scan: a viewport at zoom 8–14 reads a range of
 * `(level, cx, cy)` and every row's counts and centre; through the primary key each row cost a
 * random heap page (at 20 M plantings, 1.4 M cells, 7 000 cells 24 ms warm), with the counts in the
 * index 2 ms (docs/performance.md, bench/map at 20 M). Updates of the counts are no longer HOT —
 * the ingest of a batch pays for it (measured there).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX IF NOT EXISTS planting_cells_view ON planting_cells (level, cx, cy) INCLUDE (trees, irrigated, lng_sum, lat_sum)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS planting_cells_view');
}
