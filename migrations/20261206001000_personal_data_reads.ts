import type { Knex } from 'knex';

/**
 * Personal data field by field (issue 31, docs/personal-data.md): the record of every clear read
 * of personal data by staff — who, which entity and rows, which fields, how (a list page, a
 * record, its history, an export, a person's data gathered for them) — one row a read, written by
 * the read path (api/engine/personal.ts) and listed by the administrator (the `personal-data-reads`
 * entity). Infrastructure like `audit_log`: no version, no foreign key to users (a user deleted
 * later leaves their reads). Indexed for the administrator's questions: a record's readers, a
 * user's reads, the newest first.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('personal_data_reads', (t) => {
    t.bigIncrements('id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.bigInteger('user_id');
    t.string('entity', 60).notNullable();
    t.string('kind', 40).notNullable();
    t.bigInteger('record_id');
    t.jsonb('record_ids');
    t.integer('rows').notNullable().defaultTo(0);
    t.jsonb('fields');
    t.index(['entity', 'record_id', 'created_at'], 'personal_data_reads_record_idx');
    t.index(['user_id', 'created_at'], 'personal_data_reads_user_idx');
    t.index(['created_at'], 'personal_data_reads_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('personal_data_reads');
}
