import type { RouteHandler } from '../types.ts';
import type { AppContext } from '../../http/middleware.ts';
import { Repository } from '../../engine/repository.ts';
import { badParam, notFound, validationError } from '../../kernel/errors.ts';
import type { Principal } from '../../auth/ability.ts';
import type { Knex } from 'knex';
import type { Lang, MetaModel } from '../../meta/types.ts';

/** A page of a signed-in user's own in-app notifications: `?page=1&perPage=20&unread=1`. */
function pageOf(ctx: AppContext): { limit: number; offset: number; unread: boolean } {
  const page = ctx.query.page === undefined ? 1 : Number(ctx.query.page);
  const perPage = ctx.query.perPage === undefined ? 20 : Number(ctx.query.perPage);
  if (!Number.isSafeInteger(page) || page < 1 || page > 100_000) throw badParam('page');
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > 100) throw badParam('perPage');
  return { limit: perPage, offset: (page - 1) * perPage, unread: ctx.query.unread === '1' || ctx.query.unread === 'true' };
}

const mine = (knex: Knex, p: Principal) =>
  knex('notification_recipients as r').where({ 'r.user_id': p.id, 'r.channel': 'in_app' }).whereIn('r.delivery_state', ['sent', 'read']);

/**
 * Marks the caller's own in-app notification read: a write of the delivery row through the
 * engine's one path (trusted — it is the caller's own row, checked here; one audit row under the
 * caller). Reading it again changes nothing.
 */
async function markRead(knex: Knex, model: MetaModel, principal: Principal, lang: Lang, id: number): Promise<boolean> {
  const row = await mine(knex, principal).where('r.id', id).first('r.id', 'r.delivery_state');
  if (!row) throw notFound();
  if (row.delivery_state === 'read') return false;
  const repo = new Repository({ knex, model, principal, lang, trusted: true }, model.entities.get('notification-recipients')!);
  await repo.update(id, { delivery_state: 'read', read_at: new Date().toISOString() }, undefined, {
    fields: ['delivery_state', 'read_at'],
    action: 'read',
    anyVersion: true,
  });
  return true;
}

export const NOTIFICATION_HANDLERS: Record<string, RouteHandler> = {
  'notifications.mine': async (ctx, { knex, principal }) => {
    const { limit, offset, unread } = pageOf(ctx);
    const q = mine(knex, principal!);
    if (unread) q.where('r.delivery_state', 'sent');
    const [rows, [{ n }], [{ u }]] = await Promise.all([
      q
        .clone()
        .orderBy('r.id', 'desc')
        .limit(limit)
        .offset(offset)
        .select('r.id', 'r.notification_id', 'r.subject', 'r.body', 'r.delivery_state', 'r.sent_at', 'r.read_at', 'r.created_at'),
      q.clone().count<{ n: number }[]>({ n: '*' }),
      mine(knex, principal!).where('r.delivery_state', 'sent').count<{ u: number }[]>({ u: '*' }),
    ]);
    ctx.body = { data: rows.map((r) => ({ ...r, read: r.delivery_state === 'read' })), total: Number(n), unread: Number(u) };
  },
  'notifications.unread': async (ctx, { knex, principal }) => {
    const [{ n }] = await mine(knex, principal!).where('r.delivery_state', 'sent').count<{ n: number }[]>({ n: '*' });
    const last = await mine(knex, principal!).orderBy('r.id', 'desc').first('r.id');
    ctx.body = { count: Number(n), last: last?.id ?? null };
  },
  /** `{ids: [...]}`: the caller's own notifications marked read (another's is not found). */
  'notifications.read': async (ctx, { knex, model, principal, lang }) => {
    const ids = (ctx.request.body as { ids?: unknown } | undefined)?.ids;
    if (!Array.isArray(ids) || !ids.length || ids.length > 1000 || !ids.every((x) => Number.isSafeInteger(x) && x > 0))
      throw validationError({ ids: { key: 'validation.wrong_format' } });
    let changed = 0;
    for (const id of new Set(ids as number[])) changed += (await markRead(knex, model, principal!, lang, id)) ? 1 : 0;
    ctx.body = { read: ids.length, changed };
  },
  'notifications.readAll': async (ctx, { knex, model, principal, lang }) => {
    const ids: number[] = await mine(knex, principal!).where('r.delivery_state', 'sent').orderBy('r.id').limit(1000).pluck('r.id');
    for (const id of ids) await markRead(knex, model, principal!, lang, id);
    ctx.body = { read: ids.length };
  },
};
