import type { Knex } from 'knex';
import type { RouteHandler, RouteContext } from '../types.ts';
import type { AppContext } from '../../http/middleware.ts';
import type { Principal } from '../../auth/ability.ts';
import { ANONYMOUS } from '../../auth/ability.ts';
import { ApiError, badParam, notFound, validationError } from '../../kernel/errors.ts';
import type { Repository } from '../../engine/repository.ts';
import { newToken, tokenHash } from '../../auth/sessions.ts';
import { chatSetting } from '../../auth/config.ts';
import { iso, notifyChat } from './events.ts';
import { recentFromAddress, withLastMessage } from '../../read-models/chat.ts';

/** How many messages a conversation answers at most (the newest); older ones are the list's. */
const HISTORY_LIMIT = 500;
/** The header a visitor's chat token travels in (never the URL: it would land in logs). */
export const CHAT_TOKEN_HEADER = 'X-Chat-Token';

/**
 * The flood guard (spec §8: "Chat blocked for too many actions, try later"): the address's stored
 * chats or messages of the last `chat.window_minutes`, counted in the database so that every server
 * process and a restart see the same count. At the limit the call is a 429 and nothing is stored.
 * The count runs in the write's transaction under a transaction advisory lock on the address and the
 * kind, so parallel requests of one address — through any process — count one after another, each
 * seeing the rows the ones before it committed: the limit holds exactly, not "check, then write".
 * The settings are read before the transaction opens (`floodLimits`): a transaction waiting for the
 * lock holds its connection, so nothing in it may need a second one from the pool.
 */
async function assertUnderLimit(trx: Knex.Transaction, table: 'chats' | 'messages', ip: string, limits: FloodLimits): Promise<void> {
  const limit = table === 'chats' ? limits.chats : limits.messages;
  // held to the transaction's end (commit or rollback): the next request of this address waits for it
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`chat-${table}:${ip}`]);
  if ((await recentFromAddress(trx, table, ip, limits.minutes, limit)) >= limit)
    throw new ApiError('tooManyAttempts', 'errors.chat_blocked');
}

interface FloodLimits {
  chats: number;
  messages: number;
  minutes: number;
}
const floodLimits = async (knex: Knex): Promise<FloodLimits> => ({
  chats: await chatSetting(knex, 'chat.chats_per_window'),
  messages: await chatSetting(knex, 'chat.messages_per_window'),
  minutes: await chatSetting(knex, 'chat.window_minutes'),
});

const addressOf = (ctx: AppContext) => String(ctx.ip || 'unknown').slice(0, 64);

/** A message's text: trimmed, 1–2000 characters, else a 400 naming `body`. */
function bodyOf(ctx: AppContext, required: boolean): string | undefined {
  const raw = (ctx.request.body as Record<string, unknown> | undefined)?.body;
  if (raw === undefined || raw === null || raw === '') {
    if (required) throw validationError({ body: { key: 'validation.required' } });
    return undefined;
  }
  if (typeof raw !== 'string') throw validationError({ body: { key: 'validation.wrong_format' } });
  const text = raw.trim();
  if (!text) throw validationError({ body: { key: 'validation.required' } });
  if (text.length > 2000) throw validationError({ body: { key: 'validation.max_length', args: { limit: 2000 } } });
  return text;
}

/** A chat's row as its visitor's calls read it. */
interface VisitorChatRow {
  id: number;
  status: string;
  visitor_name: string | null;
  lang: string;
  user_id: number | string | null;
  token_hash: string | null;
  created_at: Date;
}

/**
 * The chat a public caller may use: theirs by the token they were given when they opened it, or —
 * a population user signed in — by their session. Anyone else's chat is not found. `chats` is the
 * system's trusted repository of chats: the token or the session is the check.
 */
export async function visitorChat(
  chats: Repository,
  id: number,
  token: string | undefined,
  principal: Principal | null,
): Promise<VisitorChatRow> {
  const chat: VisitorChatRow | undefined = await chats
    .scoped('read')
    .where({ 't.id': id })
    .first('t.id', 't.status', 't.visitor_name', 't.lang', 't.user_id', 't.token_hash', 't.created_at');
  if (!chat) throw notFound();
  const byToken = !!token && token.length <= 100 && chat.token_hash === tokenHash(token);
  const byUser = !!principal && principal.id > 0 && Number(chat.user_id) === principal.id;
  if (!byToken && !byUser) throw notFound();
  return chat;
}

const messageOut = (m: Record<string, unknown>) => ({ id: Number(m.id), author: m.author, body: m.body, created_at: iso(m.created_at) });

/** `?after=<id>`: only the messages after it (catching up after a lost connection). */
function afterParam(ctx: AppContext): number {
  const raw = ctx.query.after;
  if (raw === undefined || raw === '') return 0;
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw)) throw badParam('after', 'errors.bad_param');
  return Number(raw);
}

/**
 * A chat's messages: read with the chat, whose right and scope the caller was checked against (its
 * visitor's token or session, an operator's read of the chat), so the system's own read of them.
 */
const messagesOfChat = (rc: RouteContext, chatId: number): Knex.QueryBuilder =>
  rc.trustedRepo('messages').scoped('read', rc.knex).where({ 't.chat_id': chatId });

async function messagesOf(qb: Knex.QueryBuilder, after: number) {
  const rows = await qb
    .where('t.id', '>', after)
    .orderBy('t.id', 'desc')
    .limit(HISTORY_LIMIT)
    .select('t.id', 't.author', 't.body', 't.created_at');
  return rows.reverse().map(messageOut);
}

/** A visitor's or population user's message, through the engine as them (or nobody), limited per address. */
async function writeVisitorMessage(rc: RouteContext, trx: Knex.Transaction, chatId: number, body: string, ip: string, limits: FloodLimits) {
  await assertUnderLimit(trx, 'messages', ip, limits);
  return rc.trustedRepo('messages', trx).create({ chat_id: chatId, body, author: 'visitor', ip }, { fields: ['author', 'ip'] });
}

export const CHAT_HANDLERS: Record<string, RouteHandler> = {
  /**
   * Opens a chat (and writes its first message when `body` is sent): limited per address, the
   * chat's token answered once — the visitor keeps it (localStorage) and shows it to read and write.
   */
  'chat.open': async (ctx, rc) => {
    const raw = (ctx.request.body ?? {}) as Record<string, unknown>;
    const name = raw.name === undefined || raw.name === null ? '' : raw.name;
    if (typeof name !== 'string' || name.trim().length > 100)
      throw validationError({ name: { key: 'validation.max_length', args: { limit: 100 } } });
    const body = bodyOf(ctx, false);
    const ip = addressOf(ctx);
    const { token, hash } = newToken();
    const principal = rc.principal ?? ANONYMOUS;
    const limits = await floodLimits(rc.knex);
    const out = await rc.knex.transaction(async (trx) => {
      await assertUnderLimit(trx, 'chats', ip, limits);
      const chat = await rc.trustedRepo('chats', trx).create(
        {
          visitor_name: name.trim() || null,
          user_id: principal.id > 0 ? principal.id : null,
          lang: rc.lang,
          ip,
          token_hash: hash,
        },
        { fields: ['visitor_name', 'user_id', 'lang', 'ip', 'token_hash'] },
      );
      const first = body ? await writeVisitorMessage(rc, trx, Number(chat.id), body, ip, limits) : null;
      return { chat, first };
    });
    ctx.status = 201;
    ctx.body = {
      id: out.chat.id,
      token,
      status: out.chat.status,
      visitor_name: out.chat.visitor_name ?? null,
      messages: out.first ? [messageOut(out.first)] : [],
    };
  },

  /** The chat and its messages (`?after=<id>`: the newer ones only), to its visitor. */
  'chat.history': async (ctx, rc) => {
    const chat = await visitorChat(
      rc.trustedRepo('chats'),
      rc.id ?? Number(ctx.params.id),
      ctx.get(CHAT_TOKEN_HEADER) || undefined,
      rc.principal,
    );
    const messages = await messagesOf(messagesOfChat(rc, chat.id), afterParam(ctx));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { id: chat.id, status: chat.status, visitor_name: chat.visitor_name ?? null, messages };
  },

  /** The visitor writes: only in their own open chat, limited per address. */
  'chat.send': async (ctx, rc) => {
    const id = Number(ctx.params.id);
    const chat = await visitorChat(rc.trustedRepo('chats'), id, ctx.get(CHAT_TOKEN_HEADER) || undefined, rc.principal);
    if (chat.status !== 'open') throw new ApiError('workflow', 'errors.chat_closed');
    const body = bodyOf(ctx, true)!;
    const ip = addressOf(ctx);
    const limits = await floodLimits(rc.knex);
    const row = await rc.knex.transaction((trx) => writeVisitorMessage(rc, trx, id, body, ip, limits));
    ctx.status = 201;
    ctx.body = messageOut(row);
  },

  /** Plain HTTP at the socket's address: the socket itself is answered by the upgrade (hub.ts). */
  'chat.socket': async (ctx) => {
    ctx.status = 426;
    ctx.set('Upgrade', 'websocket');
    ctx.body = { code: 426, message: 'Upgrade Required', description: 'A WebSocket connection is expected here (docs/chat.md).' };
  },

  /** The open chats the operator may read, newest activity first, each with its count of visitor messages no operator has read. */
  'chat.inbox': async (ctx, rc) => {
    const k = rc.knex;
    const rows = await withLastMessage(rc.repo('chats').scoped('read').where('t.status', 'open'), k)
      .select('t.id', 't.visitor_name', 't.user_id', 't.lang', 't.created_at', 't.version')
      .orderByRaw('coalesce(lm.created_at, t.created_at) desc, t.id desc')
      .limit(500);
    // the signed-in visitors' names, read as the system beside the chats the caller may read
    const userIds = [
      ...new Set<number>(
        rows.filter((r: Record<string, unknown>) => r.user_id != null).map((r: Record<string, unknown>) => Number(r.user_id)),
      ),
    ];
    const users: { id: number; fio: unknown }[] = userIds.length
      ? await rc.trustedRepo('users').scoped('read', k).whereIn('t.id', userIds).select(['t.id', 't.fio'])
      : [];
    const fio = new Map<number, unknown>(users.map((u): [number, unknown] => [Number(u.id), u.fio]));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = rows.map((r: Record<string, unknown>) => ({
      id: Number(r.id),
      visitor_name: r.visitor_name ?? null,
      user_id: r.user_id ?? null,
      user_fio: (r.user_id != null ? fio.get(Number(r.user_id)) : null) ?? null,
      lang: r.lang,
      created_at: iso(r.created_at),
      unread: Number(r.unread),
      last: r.last_id
        ? { id: Number(r.last_id), body: String(r.last_body).slice(0, 200), author: r.last_author, created_at: iso(r.last_at) }
        : null,
    }));
  },

  /** A chat and its messages (`?after=<id>`: the newer ones), to an operator who may read the chat. */
  'chat.conversation': async (ctx, rc) => {
    const row = rc.row!;
    // the chat's right is the conversation's: its messages are read with it (the row was read in the caller's scope)
    const messages = await messagesOf(messagesOfChat(rc, Number(row.id)), afterParam(ctx));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      id: row.id,
      status: row.status,
      visitor_name: row.visitor_name ?? null,
      user_id: row.user_id ?? null,
      lang: row.lang,
      created_at: iso(row.created_at),
      operator_read_id: Number(row.operator_read_id ?? 0),
      messages,
    };
  },

  /** An operator answers, through the engine as themselves; a closed chat takes no answer (409). */
  'chat.answer': async (ctx, rc) => {
    const row = rc.row!;
    if (row.status !== 'open') throw new ApiError('workflow', 'errors.chat_closed');
    const body = bodyOf(ctx, true)!;
    const { id } = await rc.repo('messages').create({ chat_id: row.id, body, author: 'operator' }, { fields: ['author'] });
    ctx.status = 201;
    // answered whether or not the operator may read the messages' list: it is their own message
    ctx.body = messageOut(
      await messagesOfChat(rc, Number(row.id)).where({ 't.id': id }).first('t.id', 't.author', 't.body', 't.created_at'),
    );
  },

  /**
   * The operators have read the chat up to a message (`upTo`, default its last): the unread count
   * is the visitor's messages after it. Moves forward only; announced to the other operators.
   */
  'chat.markRead': async (ctx, rc) => {
    const row = rc.row!;
    const raw = (ctx.request.body as Record<string, unknown> | undefined)?.upTo;
    let upTo: number;
    if (raw === undefined || raw === null) {
      upTo = Number((await messagesOfChat(rc, Number(row.id)).max('t.id as m').first())?.m ?? 0);
    } else if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) {
      upTo = raw;
    } else throw validationError({ upTo: { key: 'validation.wrong_format' } });
    let current = Number(row.operator_read_id ?? 0);
    if (upTo > current) {
      await rc.knex.transaction(async (trx) => {
        // compared with the mark as it stands locked: of two operators reading at once, the later mark stays
        let moved = false;
        await rc
          .repo('chats')
          .other('chats', { trx })
          .update(
            Number(row.id),
            (chat) => {
              current = Number(chat.operator_read_id ?? 0);
              return upTo > current ? ((moved = true), { operator_read_id: upTo }) : null;
            },
            undefined,
            { fields: ['operator_read_id'], anyVersion: true, action: 'read' },
          );
        if (moved) await notifyChat(trx, { type: 'read', chat: Number(row.id), upTo });
      });
    }
    ctx.body = { id: row.id, operator_read_id: Math.max(upTo, current) };
  },
};
