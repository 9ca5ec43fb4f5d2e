import type { Knex } from 'knex';

/**
 * Exactly once on the server (issue 30, docs/field-app.md): the idempotency key of each create a
 * client sent with `Idempotency-Key` — whose key (the user), which entity, a hash of the body, the
 * row it created and the status answered — written in the create's own transaction, so a key is
 * there exactly when its row is. Unique per user and key: a second request with the key waits on
 * the first's insert and then finds it. Infrastructure like `audit_log`: no version, no foreign
 * key (a user or row removed later leaves the key until it expires). `expires_at` is indexed for
 * the cleanup that removes old keys (api/jobs/worker.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable();
    t.string('key', 100).notNullable();
    t.string('entity', 60).notNullable();
    t.string('body_hash', 64).notNullable();
    t.bigInteger('record_id');
    t.integer('status');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.unique(['user_id', 'key'], { indexName: 'idempotency_keys_user_key_uq' });
    t.index(['expires_at'], 'idempotency_keys_expires_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
