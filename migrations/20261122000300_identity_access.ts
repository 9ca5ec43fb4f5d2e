import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * Identity and access: the managing, access and admin books built from their metadata, and the
 * users table's links to groups, types, regions, branches, ranks and positions.
 */
const BOOKS = [
  'user-groups',
  'user-types',
  'branch',
  'app-action-groups',
  'app-action-categories',
  'app-action-types',
  'app-configs-groups',
  'app-configs',
  'resource-types',
];

export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(BOOKS);
  await knex.schema.alterTable('users', (t) => {
    t.bigInteger('user_group_id').nullable().references('id').inTable('user_groups').onDelete('SET NULL');
    t.bigInteger('user_type_id').nullable().references('id').inTable('user_types').onDelete('SET NULL');
    t.bigInteger('rank_id').nullable().references('id').inTable('rank').onDelete('SET NULL');
    t.bigInteger('position_id').nullable().references('id').inTable('position').onDelete('SET NULL');
    t.string('organ', 255).nullable();
    t.foreign('region_id').references('id').inTable('regions').onDelete('SET NULL');
    t.foreign('branch_id').references('id').inTable('branches').onDelete('SET NULL');
    t.index(['kind', 'id']);
    t.index(['region_id', 'id']);
    t.index(['status', 'id']);
  });
  await knex.raw(
    `CREATE INDEX users_search ON users USING gin ((translate(lower(coalesce("username", '') || ' ' || coalesce("fio", '') || ' ' || coalesce("phone", '') || ' ' || coalesce("email", '')), 'ʻʼ’‘\`', '''''''''''')) gin_trgm_ops)`,
  );
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS users_search');
  await knex.schema.alterTable('users', (t) => {
    t.dropForeign(['region_id']);
    t.dropForeign(['branch_id']);
    t.dropIndex(['kind', 'id']);
    t.dropIndex(['region_id', 'id']);
    t.dropIndex(['status', 'id']);
    t.dropColumns('user_group_id', 'user_type_id', 'rank_id', 'position_id', 'organ');
  });
  await h.dropEntityTables([...BOOKS].reverse());
}
