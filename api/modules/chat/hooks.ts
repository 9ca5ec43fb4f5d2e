import type { Hook } from '../types.ts';
import { iso, notifyChat } from './events.ts';

/**
 * The chat's hooks: a message written is announced to the chat's sockets when its transaction
 * commits; closing a chat records when and by whom, and is announced the same way.
 */
export const CHAT_HOOKS: Record<string, Hook> = {
  'chat.messageWritten': async ({ trx, row, action }) => {
    if (action !== 'create') return;
    await notifyChat(trx, {
      type: 'message',
      chat: Number(row.chat_id),
      id: Number(row.id),
      author: row.author as 'visitor' | 'operator',
      body: String(row.body),
      created_at: iso(row.created_at),
    });
  },

  'chat.closed': async ({ trx, row, principal }) => {
    await notifyChat(trx, { type: 'closed', chat: Number(row.id) });
    return { closed_at: new Date().toISOString(), closed_by: principal.id > 0 ? principal.id : null };
  },
};
