import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/** The reference books of /ecofund-sprav and /ecoinspection-dictionaries, built from their metadata. */
const BOOKS = [
  'regions',
  'areas',
  'min-oklads',
  'subject-categories',
  'subject-types',
  'report-categories',
  'subject-activities',
  'report-types',
  'child-report-types',
  'fine',
  'stack-akt-categories',
  'akt-types',
  'stack-protocol-categories',
  'banks-mfo',
  'rank',
  'position',
  'income-types',
  'offence-type',
  'template-document-types',
  'offence-files-type',
  'td-field-types',
  'inspector-lans',
  'td-field-reserved-types',
  'people-fact-statuses',
  'given-permit-types',
  'charity-foundation',
  'practical-applications',
];

export async function up(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(BOOKS);
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityTables(BOOKS);
}
