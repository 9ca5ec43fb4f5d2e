import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * Chat with an operator (issue 14, docs/chat.md): the chats a visitor or a population user opens on
 * the public site, and their messages. The flood guard counts an address's chats and messages of the
 * last minutes, so both are indexed by address and time; a conversation is read by chat in order.
 */
export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(['chats', 'messages']);
  await knex.raw('CREATE UNIQUE INDEX IF NOT EXISTS chats_token_hash_idx ON chats (token_hash)');
  await knex.raw('CREATE INDEX IF NOT EXISTS chats_ip_created_idx ON chats (ip, created_at)');
  await knex.raw('CREATE INDEX IF NOT EXISTS chats_open_idx ON chats (status, id)');
  await knex.raw('CREATE INDEX IF NOT EXISTS messages_ip_created_idx ON messages (ip, created_at) WHERE ip IS NOT NULL');
  await knex.raw('CREATE INDEX IF NOT EXISTS messages_chat_id_idx ON messages (chat_id, id)');
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityTables(['messages', 'chats']);
}
