import type { Knex } from 'knex';

/**
 * The chat's events travel through PostgreSQL: a write sends `pg_notify` in its own transaction, so
 * an event leaves only when its message (or closing) is committed, and every server process that
 * LISTENs on the channel — on a real server all of them, on embedded PGlite the one — pushes it to
 * its sockets (hub.ts). The payload is what the sockets receive, as is.
 */
export const CHAT_CHANNEL = 'ecofond_chat';

export type ChatEvent =
  | { type: 'message'; chat: number; id: number; author: 'visitor' | 'operator'; body: string; created_at: string }
  | { type: 'closed'; chat: number }
  | { type: 'read'; chat: number; upTo: number };

/** Sends an event on commit of the transaction it is given (at once outside one). */
export async function notifyChat(db: Knex | Knex.Transaction, event: ChatEvent): Promise<void> {
  await db.raw('select pg_notify(?, ?)', [CHAT_CHANNEL, JSON.stringify(event)]);
}

/** A timestamp as ISO 8601 (pg gives Date objects, PGlite too). */
export const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
