import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The inspection's growing table partitioned by year like `plantings` (issue 16; docs/scaling.md,
 * "Partitions"): `offences` by the year of `offence_date` — a partition a year and a default one,
 * rows moved, indexes, checks, outgoing keys and the offence map's statement-level triggers kept;
 * the primary key becomes `(id, offence_date)`. The references to an offence — its offenders,
 * witnesses, files, payments and the people's facts — become the triggers doing what their
 * foreign keys did (api/db/partitions.ts). Nothing is rebuilt: the rows are moved, not written anew.
 *
 * `payments` stays one table for now: its BEFORE DELETE row triggers (a deleted payment's splits
 * taken out of the fund's aggregates while they are still there) would also fire when an UPDATE of
 * `paid_on` moves a row to another year's partition — PostgreSQL runs a moved row's BEFORE DELETE
 * triggers — and take its splits out twice (docs/scaling.md).
 */
export async function up(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.partitionByYear('offences', 'offence_date');
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.unpartition('offences');
}
