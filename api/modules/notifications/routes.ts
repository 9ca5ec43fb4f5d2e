import type { RouteContext, RouteHandler } from '../types.ts';
import type { AppContext } from '../../http/middleware.ts';
import { badParam, notFound, validationError } from '../../kernel/errors.ts';

/** A page of a signed-in user's own in-app notifications: `?page=1&perPage=20&unread=1`. */
function pageOf(ctx: AppContext): { limit: number; offset: number; unread: boolean } {
  const page = ctx.query.page === undefined ? 1 : Number(ctx.query.page);
  const perPage = ctx.query.perPage === undefined ? 20 : Number(ctx.query.perPage);
  if (!Number.isSafeInteger(page) || page < 1 || page > 100_000) throw badParam('page');
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > 100) throw badParam('perPage');
  return { limit: perPage, offset: (page - 1) * perPage, unread: ctx.query.unread === '1' || ctx.query.unread === 'true' };
}

/** The caller's own in-app deliveries (their rows and no other's: the owner is the check), read by the system. */
const mine = (rc: RouteContext) =>
  rc
    .trustedRepo('notification-recipients')
    .scoped('read', rc.knex)
    .where({ 't.user_id': rc.principal!.id, 't.channel': 'in_app' })
    .whereIn('t.delivery_state', ['sent', 'read']);

/**
 * Marks the caller's own in-app notification read: a write of the delivery row through the
 * engine's one path (trusted — it is the caller's own row, checked here; one audit row under the
 * caller). Reading it again changes nothing.
 */
async function markRead(rc: RouteContext, id: number): Promise<boolean> {
  const row = await mine(rc).where('t.id', id).first('t.id', 't.delivery_state');
  if (!row) throw notFound();
  if (row.delivery_state === 'read') return false;
  await rc.trustedRepo('notification-recipients').update(id, { delivery_state: 'read', read_at: new Date().toISOString() }, undefined, {
    fields: ['delivery_state', 'read_at'],
    action: 'read',
    anyVersion: true,
  });
  return true;
}

export const NOTIFICATION_HANDLERS: Record<string, RouteHandler> = {
  'notifications.mine': async (ctx, rc) => {
    const { limit, offset, unread } = pageOf(ctx);
    const q = mine(rc);
    if (unread) q.where('t.delivery_state', 'sent');
    const [rows, [{ n }], [{ u }]] = await Promise.all([
      q
        .clone()
        .orderBy('t.id', 'desc')
        .limit(limit)
        .offset(offset)
        .select('t.id', 't.notification_id', 't.subject', 't.body', 't.delivery_state', 't.sent_at', 't.read_at', 't.created_at'),
      q.clone().count<{ n: number }[]>({ n: '*' }),
      mine(rc).where('t.delivery_state', 'sent').count<{ u: number }[]>({ u: '*' }),
    ]);
    ctx.body = {
      data: rows.map((r: Record<string, unknown>) => ({ ...r, read: r.delivery_state === 'read' })),
      total: Number(n),
      unread: Number(u),
    };
  },
  'notifications.unread': async (ctx, rc) => {
    const [{ n }] = await mine(rc).where('t.delivery_state', 'sent').count<{ n: number }[]>({ n: '*' });
    const last = await mine(rc).orderBy('t.id', 'desc').first('t.id');
    ctx.body = { count: Number(n), last: last?.id ?? null };
  },
  /** `{ids: [...]}`: the caller's own notifications marked read (another's is not found). */
  'notifications.read': async (ctx, rc) => {
    const ids = (ctx.request.body as { ids?: unknown } | undefined)?.ids;
    if (!Array.isArray(ids) || !ids.length || ids.length > 1000 || !ids.every((x) => Number.isSafeInteger(x) && x > 0))
      throw validationError({ ids: { key: 'validation.wrong_format' } });
    let changed = 0;
    for (const id of new Set(ids as number[])) changed += (await markRead(rc, id)) ? 1 : 0;
    ctx.body = { read: ids.length, changed };
  },
  'notifications.readAll': async (ctx, rc) => {
    const ids: number[] = await mine(rc).where('t.delivery_state', 'sent').orderBy('t.id').limit(1000).pluck('t.id');
    for (const id of ids) await markRead(rc, id);
    ctx.body = { read: ids.length };
  },
};
