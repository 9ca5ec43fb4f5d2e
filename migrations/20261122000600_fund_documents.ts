import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/** Acts and protocols with their stacks, penya, branch plans and expertise requests. */
const ENTITIES = ['stack-akts', 'subject-akts', 'subject-protocols', 'penya', 'branchs-plans', 'expertise-requests-data'];

export async function up(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(ENTITIES);
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityTables(ENTITIES);
}
