import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The plantings list as the back-office asks it — one region (the scope's, or the filter's) and a
 * period, newest first — counts its rows (the capped count, up to 10 000) through this index alone:
 * with only `(region_id, id)` each row was fetched from the heap to test its date, 180–600 ms on a
 * year of a region at 20 million plantings (docs/performance.md, "National data"); an index-only
 * scan of `(region_id, planted_on, id)` is a few milliseconds. On the partitioned table: one per
 * year's partition.
 */
export async function up(knex: Knex, _h: MigrationHelpers): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS plantings_region_planted_idx ON plantings (region_id, planted_on, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS plantings_region_planted_idx');
}
