import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * Accounts people run themselves (issue 28, docs/accounts.md): a resident's garden knows its owner
 * (`my_gardens.owner_user_id`, the `own` row set that lets the resident read back what they
 * registered), and a sign-up's one-time codes are kept by the address they were sent to, before
 * any account exists (`sign_up_codes`: only the code's hash; infrastructure beside
 * `one_time_codes`, not an entity).
 */
export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.addEntityColumns('my-gardens', ['owner_user_id']);
  await knex.schema.createTable('sign_up_codes', (t) => {
    t.bigIncrements('id');
    t.string('address', 255).notNullable();
    t.string('code_hash', 64).notNullable();
    t.integer('tries').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['address', 'created_at']);
  });
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await knex.schema.dropTable('sign_up_codes');
  await h.dropEntityColumns('my-gardens', ['owner_user_id']);
}
