import type { Knex } from 'knex';

/**
 * The engine's own tables: users and their roles, the action catalogue and each role's
 * (action id, state) rows, sessions, sign-in logs, uploaded files (resources), workflow flows,
 * audit rows, application errors and settings.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('resources', (t) => {
    t.bigIncrements('id');
    t.string('original_name', 255).notNullable();
    t.string('mime', 120).notNullable();
    t.bigInteger('size').notNullable();
    t.string('storage_path', 500).notNullable();
    t.string('sha256', 64).notNullable();
    t.bigInteger('created_by').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('users', (t) => {
    t.bigIncrements('id');
    t.string('username', 60).notNullable();
    t.text('password').notNullable();
    t.string('fio', 255);
    t.string('email', 255);
    t.string('phone', 20);
    t.string('lang_code', 2).notNullable().defaultTo('uz');
    t.bigInteger('img_resource_id').nullable().references('id').inTable('resources').onDelete('SET NULL');
    t.string('status', 10).notNullable().defaultTo('active');
    t.bigInteger('region_id').nullable();
    t.bigInteger('branch_id').nullable();
    t.bigInteger('subject_id').nullable();
    t.string('kind', 20).notNullable().defaultTo('staff');
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.bigInteger('created_by').nullable();
    t.bigInteger('updated_by').nullable();
    t.check(`?? in ('staff', 'mvd', 'population', 'subject', 'branch')`, ['kind'], 'users_kind_enum');
    t.check(`?? in ('active', 'blocked')`, ['status'], 'users_status_enum');
    t.check(`?? in ('uz', 'uk', 'ru')`, ['lang_code'], 'users_lang_enum');
  });
  await knex.raw('CREATE UNIQUE INDEX users_username_unique ON users (lower(username))');
  await knex.schema.alterTable('resources', (t) => {
    t.foreign('created_by').references('id').inTable('users').onDelete('SET NULL');
  });
  await knex.schema.alterTable('users', (t) => {
    t.foreign('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.foreign('updated_by').references('id').inTable('users').onDelete('SET NULL');
  });

  await knex.schema.createTable('roles', (t) => {
    t.bigIncrements('id');
    t.string('code', 60).notNullable().unique();
    t.jsonb('name').notNullable();
    t.boolean('is_system').notNullable().defaultTo(false);
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.bigInteger('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.bigInteger('updated_by').nullable().references('id').inTable('users').onDelete('SET NULL');
  });
  await knex.schema.createTable('user_roles', (t) => {
    t.bigInteger('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('role_id').notNullable().references('id').inTable('roles').onDelete('CASCADE');
    t.primary(['user_id', 'role_id']);
    t.index(['role_id']);
  });
  await knex.schema.createTable('app_actions', (t) => {
    t.integer('id').primary();
    t.string('caption', 200).notNullable();
    t.jsonb('name');
    t.string('module', 60).notNullable();
    t.string('kind', 20).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['module']);
  });
  await knex.schema.createTable('role_actions', (t) => {
    t.bigInteger('role_id').notNullable().references('id').inTable('roles').onDelete('CASCADE');
    t.integer('action_id').notNullable().references('id').inTable('app_actions').onDelete('CASCADE');
    t.smallint('state').notNullable().defaultTo(1);
    t.primary(['role_id', 'action_id']);
    t.index(['action_id']);
  });
  await knex.schema.createTable('sessions', (t) => {
    t.bigIncrements('id');
    t.string('token_hash', 64).notNullable().unique();
    t.bigInteger('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('ip', 64);
    t.string('user_agent', 500);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.index(['user_id']);
  });
  await knex.schema.createTable('login_logs', (t) => {
    t.bigIncrements('id');
    t.string('username', 100);
    t.bigInteger('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('ip', 64);
    t.string('user_agent', 500);
    t.boolean('success').notNullable();
    t.string('reason', 60);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
    t.index(['username', 'created_at']);
  });
  await knex.schema.createTable('flows', (t) => {
    t.bigIncrements('id');
    t.string('entity', 60).notNullable();
    t.bigInteger('record_id').notNullable();
    t.string('action', 60).notNullable();
    t.string('from_state', 40);
    t.string('to_state', 40);
    t.text('comment');
    t.bigInteger('resource_id').nullable().references('id').inTable('resources').onDelete('SET NULL');
    t.bigInteger('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['entity', 'record_id', 'created_at']);
  });
  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('id');
    t.string('entity', 60).notNullable();
    t.bigInteger('record_id').notNullable();
    t.string('op', 20).notNullable();
    t.jsonb('before');
    t.jsonb('after');
    t.bigInteger('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['entity', 'record_id']);
  });
  await knex.schema.createTable('app_errors', (t) => {
    t.bigIncrements('id');
    t.string('request_id', 64).notNullable();
    t.bigInteger('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('method', 10);
    t.string('path', 500);
    t.integer('status');
    t.text('message');
    t.text('stack');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
  });
  await knex.schema.createTable('one_time_codes', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('purpose', 20).notNullable();
    t.string('code_hash', 64).notNullable();
    t.integer('tries').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'purpose', 'created_at']);
  });
  await knex.schema.createTable('outbox', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('channel', 20).notNullable();
    t.string('address', 255).notNullable();
    t.string('subject', 255).notNullable();
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of [
    'outbox',
    'one_time_codes',
    'app_errors',
    'audit_log',
    'flows',
    'login_logs',
    'sessions',
    'role_actions',
    'app_actions',
    'user_roles',
    'roles',
  ]) {
    await knex.schema.dropTableIfExists(t);
  }
  await knex.schema.alterTable('resources', (t) => {
    t.dropForeign(['created_by']);
  });
  await knex.schema.dropTableIfExists('users');
  await knex.schema.dropTableIfExists('resources');
}
