import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/** The environmental fund: subjects (with norms and certificates), payment stacks and payments (with their splits). */
const ENTITIES = ['subject', 'stack-payments', 'payments'];

export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(ENTITIES);
  // a subject user is limited to their subject
  await knex.schema.alterTable('users', (t) => {
    t.foreign('subject_id').references('id').inTable('subjects').onDelete('SET NULL');
  });
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropForeign(['subject_id']);
  });
  await h.dropEntityTables(ENTITIES);
}
