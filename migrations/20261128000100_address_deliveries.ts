import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * Deliveries to an address that is not a user's (issue 14: a public visitor's suggestion answered
 * by e-mail or SMS, docs/notifications.md): a notification may name an `address` and its
 * `lang_code` instead of users, and its delivery row then has no user — but always an address. A
 * suggestion keeps the language its sender wrote in, so the answer goes out in it.
 */
export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.addEntityColumns('notification', ['address', 'lang_code']);
  await h.addEntityColumns('suggestion', ['lang_code']);
  await knex.raw('ALTER TABLE notification_recipients ALTER COLUMN user_id DROP NOT NULL');
  await knex.raw(
    "ALTER TABLE notification_recipients ADD CONSTRAINT notification_recipients_to_check CHECK (user_id IS NOT NULL OR coalesce(address, '') <> '')",
  );
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await knex.raw('ALTER TABLE notification_recipients DROP CONSTRAINT IF EXISTS notification_recipients_to_check');
  await knex('notification_recipients').whereNull('user_id').delete();
  await knex.raw('ALTER TABLE notification_recipients ALTER COLUMN user_id SET NOT NULL');
  await h.dropEntityColumns('suggestion', ['lang_code']);
  await h.dropEntityColumns('notification', ['address', 'lang_code']);
}
