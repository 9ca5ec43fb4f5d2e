import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The enforcement side (issue 12, offences): mahallas under the districts, offences with their
 * offenders, witnesses and typed files, and the fine payments attached to them (docs/offences.md).
 * The offence's place is a point (GiST) and its state, type, article and region are indexed for the
 * offences map and the filtered list. Staff users' position and rank are columns `users` already
 * has (the police users' view uses them).
 */
const ENTITIES = ['mahalla', 'offences', 'offences-payment'];

export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(ENTITIES);
  // the map and the list filtered by region and state, newest first
  await knex.raw('CREATE INDEX IF NOT EXISTS offences_region_status_date_idx ON offences (region_id, status, offence_date DESC, id)');
  await knex.raw('CREATE INDEX IF NOT EXISTS offences_type_status_idx ON offences (offence_type_id, status)');
  await knex.raw('CREATE INDEX IF NOT EXISTS offences_decree_number_idx ON offences (decree_number)');
  await knex.raw('CREATE INDEX IF NOT EXISTS offence_payments_offence_status_idx ON offence_payments (offence_id, status)');
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS offence_payments_offence_status_idx');
  await knex.raw('DROP INDEX IF EXISTS offences_decree_number_idx');
  await knex.raw('DROP INDEX IF EXISTS offences_type_status_idx');
  await knex.raw('DROP INDEX IF EXISTS offences_region_status_date_idx');
  await h.dropEntityTables([...ENTITIES].reverse());
}
