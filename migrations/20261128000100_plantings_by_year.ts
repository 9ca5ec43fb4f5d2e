import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The registry's growing table partitioned by year (issue 16, "past one machine"; docs/scaling.md):
 * `plantings` becomes a table partitioned by the year of `planted_on` — a partition a year, a
 * default one for any other date — with its rows moved, its indexes, checks, outgoing keys and the
 * aggregates' statement-level triggers kept (they are on the parent and see every partition); the
 * primary key is `(id, planted_on)`. The two references to a planting (a public planting's, an
 * inspection's) become triggers doing what their foreign keys did, since PostgreSQL cannot key a
 * reference to a partitioned table by `id` alone. The aggregates are not rebuilt: the rows are
 * moved, not written anew.
 */
export async function up(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.partitionByYear('plantings', 'planted_on');
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.unpartition('plantings');
}
