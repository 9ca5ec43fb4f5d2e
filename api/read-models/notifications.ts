import type { Knex } from 'knex';

/**
 * The notification queue's own tables as the modules need them: not entities, so read here
 * (docs/decisions/0040). A notification's deliveries are the system's, never answered as they are.
 */

/** Whether a notification has any delivery queued (a suggestion's answer settles only through one). */
export async function hasDeliveries(knex: Knex | Knex.Transaction, notificationId: number): Promise<boolean> {
  return !!(await knex('notification_recipients').where({ notification_id: notificationId }).first('id'));
}
