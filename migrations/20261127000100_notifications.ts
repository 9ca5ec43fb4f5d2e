import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * Notifications (issue 14, docs/notifications.md): methods, types, templates and the notifications
 * sent, from the metadata; and their deliveries — one a recipient and method, the durable queue the
 * worker takes its work from (`delivery_state` queued → sent / failed, in-app → read; `next_at` is
 * when a queued delivery is next due: its retry's back-off, or the lease of the worker that took
 * it). The sign-in and reset codes' outbox goes: its messages are deliveries now.
 */
export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(['notification-methods', 'notification-types', 'notification-templates', 'notification']);
  await knex.schema.createTable('notification_recipients', (t) => {
    t.bigIncrements('id');
    t.bigInteger('notification_id').notNullable().references('id').inTable('notifications').onDelete('CASCADE');
    t.bigInteger('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('channel', 20).notNullable();
    t.string('address', 255).nullable();
    t.string('lang_code', 2).notNullable().defaultTo('uz');
    t.string('subject', 255).nullable();
    t.text('body').notNullable();
    t.string('delivery_state', 20).notNullable().defaultTo('queued');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('error').nullable();
    t.timestamp('next_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.timestamp('read_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE notification_recipients ADD CONSTRAINT notification_recipients_channel_check CHECK (channel IN ('in_app', 'email', 'sms')),
    ADD CONSTRAINT notification_recipients_state_check CHECK (delivery_state IN ('queued', 'sent', 'failed', 'read'))`);
  // the worker's queue: only what is still queued, by when it is due
  await knex.raw("CREATE INDEX notification_recipients_due_idx ON notification_recipients (next_at, id) WHERE delivery_state = 'queued'");
  // the bell: one's own in-app notifications, newest first, and the unread ones
  await knex.raw("CREATE INDEX notification_recipients_mine_idx ON notification_recipients (user_id, id DESC) WHERE channel = 'in_app'");
  await knex.raw(
    "CREATE INDEX notification_recipients_unread_idx ON notification_recipients (user_id) WHERE channel = 'in_app' AND delivery_state = 'sent'",
  );
  await knex.raw('CREATE INDEX notification_recipients_notification_idx ON notification_recipients (notification_id, id)');
  await knex.schema.dropTableIfExists('outbox');
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await knex.schema.createTable('outbox', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('channel', 20).notNullable();
    t.string('address', 255).notNullable();
    t.string('subject', 255).notNullable();
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.dropTableIfExists('notification_recipients');
  await h.dropEntityTables(['notification', 'notification-templates', 'notification-types', 'notification-methods']);
}
