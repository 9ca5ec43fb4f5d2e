import type { Knex } from 'knex';

/**
 * The chat's reads past its entities' repositories: the flood guard's count by the visitor's
 * address (a system count of the public's own writes, any chat) and an operator's inbox — the
 * chats the caller may read (their scoped query is given) with each one's last message and its
 * count of visitor messages no operator has read (messages are read as part of the chat that holds
 * them, never past it).
 */

/** How many chats (or messages) the address opened (wrote) in the last `minutes`, counted up to `limit`. */
export async function recentFromAddress(
  trx: Knex.Transaction,
  table: 'chats' | 'messages',
  ip: string,
  minutes: number,
  limit: number,
): Promise<number> {
  const { rows } = await trx.raw(
    `select count(*)::int as n from (select 1 from ${table === 'chats' ? 'chats' : 'messages'} where ip = ? and created_at > now() - make_interval(mins => ?) limit ?) s`,
    [ip, minutes, limit],
  );
  return rows[0].n;
}

/** Adds to a scoped query of chats (aliased `t`) each chat's last message (`lm.*`) and its unread visitor messages (`unread`). */
export function withLastMessage(chats: Knex.QueryBuilder, k: Knex): Knex.QueryBuilder {
  return chats
    .joinRaw(
      'left join lateral (select m.id, m.body, m.author, m.created_at from messages m where m.chat_id = t.id order by m.id desc limit 1) lm on true',
    )
    .select(
      k.raw(
        `(select count(*)::int from messages m where m.chat_id = t.id and m.author = 'visitor' and m.id > coalesce(t.operator_read_id, 0)) as unread`,
      ),
      'lm.id as last_id',
      'lm.body as last_body',
      'lm.author as last_author',
      'lm.created_at as last_at',
    );
}
