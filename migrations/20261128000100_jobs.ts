import type { Knex } from 'knex';

/**
 * Background jobs (docs/jobs.md): large exports now, imports later. A job is the request of one
 * user (`user_id`, whose rights and scope are read again when it runs), of a registered `kind`
 * with its `params`; the worker takes it `FOR UPDATE SKIP LOCKED`, holds it under a lease it
 * renews while it runs (`lease_until`, `run_token`: a running job whose lease ended is taken
 * again), records its progress, and leaves its file under the data folder (`result_path`) until
 * `expires_at`, when the worker removes the file and the row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('jobs', (t) => {
    t.bigIncrements('id');
    t.string('kind', 60).notNullable();
    t.bigInteger('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('lang', 2).notNullable().defaultTo('uz');
    t.jsonb('params').notNullable().defaultTo('{}');
    // what the job is, in the three languages (the entity's or the report's caption)
    t.jsonb('title').nullable();
    t.string('state', 20).notNullable().defaultTo('queued');
    t.bigInteger('progress_done').notNullable().defaultTo(0);
    t.bigInteger('progress_total').nullable();
    t.boolean('cancel_requested').notNullable().defaultTo(false);
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('run_token', 40).nullable();
    t.timestamp('lease_until', { useTz: true }).nullable();
    t.string('result_path', 500).nullable();
    t.string('result_name', 255).nullable();
    t.string('result_mime', 100).nullable();
    t.bigInteger('result_size').nullable();
    // what the kind answered (an import's counts), and a failure as {kind, key, args, errors, count}
    t.jsonb('result').nullable();
    t.jsonb('error').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
  });
  await knex.raw("ALTER TABLE jobs ADD CONSTRAINT jobs_state_check CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled'))");
  // the worker's queue: what is waiting or running (a running one is taken again when its lease ends)
  await knex.raw("CREATE INDEX jobs_due_idx ON jobs (id) WHERE state IN ('queued', 'running')");
  // one's own jobs, newest first
  await knex.raw('CREATE INDEX jobs_user_idx ON jobs (user_id, id DESC)');
  // the cleaner: finished jobs by when they go
  await knex.raw('CREATE INDEX jobs_expires_idx ON jobs (expires_at) WHERE expires_at IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('jobs');
}
