import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/** Compensation reports with their ingredients and workflow. */
export async function up(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(['subject-report-yearly']);
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityTables(['subject-report-yearly']);
}
