import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import type { EntityMeta, Lang, MetaModel, NotifyMeta } from '../meta/types.ts';
import { ANONYMOUS, type Principal } from '../auth/ability.ts';
import { inLang, render, type Text3 } from './render.ts';
import { Wakers } from '../db/worker-support.ts';
import { Repository } from '../engine/repository.ts';
import type { WorkflowMoved } from '../engine/events.ts';

export type Channel = 'in_app' | 'email' | 'sms';
export const LANGS: Lang[] = ['uz', 'uk', 'ru'];

/** Whom a notification goes to: the users matching every filter given; none at all is everyone. */
export interface Audience {
  user_id?: number | null;
  /** a role by id, or by its code */
  role_id?: number | null;
  role?: string;
  region_id?: number | null;
  subject_id?: number | null;
  branch_id?: number | null;
  /**
   * Instead of users: one address that is nobody's account (a public visitor's e-mail or phone), in
   * the language given. The method is the address's: e-mail when it holds `@`, else SMS.
   */
  address?: { to: string; lang: Lang } | null;
}

export interface NotifyInput {
  /** the type's code (notification-types.code) */
  type: string;
  to: Audience;
  /** the template variables, kept on the notification row */
  vars?: Record<string, unknown>;
  /** variables rendered into the texts but never stored on the row nor in the audit trail (a one-time code) */
  secret?: Record<string, unknown>;
  /** only these methods (default: every active method the type has an active template for) */
  channels?: Channel[];
  /** the row that caused it */
  source?: { entity: string; id: number };
}

/** What `notifications.queue` (the notification row's hook) receives beside the row: see notify(). */
export const pending = new AsyncLocalStorage<{ secret?: Record<string, unknown>; channels?: Channel[] }>();

const wakers = new Wakers();
/** A worker asks to be woken when a transaction that queued deliveries commits. */
export const onQueued = (fn: () => void): (() => void) => wakers.on(fn);

/**
 * Queues a notification in the caller's transaction: the `notification` row is written through the
 * engine's one write path (trusted: the event that causes it was allowed; one audit row), and its
 * hook expands the recipients into queued deliveries in the same transaction — so a notification
 * exists exactly when the change that caused it committed. Answers the row, or null when the type
 * is unknown or inactive.
 */
export async function notify(
  db: Knex | Knex.Transaction,
  model: MetaModel,
  input: NotifyInput,
  principal: Principal = ANONYMOUS,
): Promise<Record<string, unknown> | null> {
  const type = await db('notification_types').where({ code: input.type, is_active: true }).first('id', 'name');
  if (!type) return null;
  const to = { ...input.to };
  if (to.role !== undefined) {
    const role = await db('roles').where({ code: to.role }).first('id');
    if (!role) return null;
    to.role_id = role.id;
  }
  const e = model.entities.get('notification')!;
  const repo = new Repository(
    {
      knex: db as Knex,
      model,
      principal,
      lang: 'uz',
      trx: (db as Knex.Transaction).isTransaction ? (db as Knex.Transaction) : undefined,
      trusted: true,
    },
    e,
  );
  const payload = {
    type_id: type.id,
    // a notification the system sends is titled by its type, in the language it goes out in, so
    // that its record names what it is rather than its number (an answer to a suggestion, a code)
    title: inLang(type.name as Text3, to.address?.lang ?? 'uz').slice(0, 255) || null,
    user_id: to.user_id ?? null,
    role_id: to.role_id ?? null,
    region_id: to.region_id ?? null,
    subject_id: to.subject_id ?? null,
    address: to.address?.to ?? null,
    lang_code: to.address ? to.address.lang : null,
    payload: input.vars ?? {},
    source_entity: input.source?.entity ?? null,
    source_id: input.source?.id ?? null,
  };
  const row = await pending.run({ secret: input.secret, channels: input.channels }, () =>
    repo.create(payload, { fields: ['address', 'lang_code', 'payload', 'source_entity', 'source_id', 'title'], action: input.type }),
  );
  return row;
}

/** The short scalar values of a row a template may use (ids, numbers, strings, dates), by field name. */
function rowVars(e: EntityMeta, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { id: row.id };
  for (const [name, f] of Object.entries(e.fields)) {
    const v = row[name];
    if (v == null || typeof v === 'object') continue;
    // short values only: a long text (a report's signature, a payment's purpose) stays on its row
    if (['string', 'integer', 'decimal', 'money', 'date', 'datetime', 'enum', 'ref', 'boolean'].includes(f.type)) out[name] = v;
  }
  return out;
}

/**
 * A workflow move's notification (the action's `notify`): to the users of the row's subject,
 * region or branch and/or of a role; its variables are the row's plain fields, `id`, the move's
 * `comment` and parameters. Nothing is queued when the row has no such scope value.
 */
export async function notifyMove(
  trx: Knex.Transaction,
  model: MetaModel,
  e: EntityMeta,
  meta: NotifyMeta,
  row: Record<string, unknown>,
  extra: Record<string, unknown>,
  principal: Principal,
): Promise<void> {
  const to: Audience = {};
  if (meta.to.scope) {
    const col = e.scope?.[meta.to.scope];
    const v = col ? row[col] : null;
    if (v == null) return;
    to[`${meta.to.scope}_id`] = Number(v);
  }
  if (meta.to.role) to.role = meta.to.role;
  await notify(
    trx,
    model,
    { type: meta.type, to, vars: { ...rowVars(e, row), ...extra }, source: { entity: e.name, id: row.id as number } },
    principal,
  );
}

/** The engine's `workflow.moved` event, heard by the notifications module: the action's `notify`, queued in the move's transaction. */
export async function notifyMoved(m: WorkflowMoved): Promise<void> {
  if (m.notify) await notifyMove(m.trx, m.model, m.entity, m.notify, m.row, m.extra, m.principal);
}

/** A notification's deliveries all settled: sent (at least one reached its recipient) or failed (every one failed for good). */
export interface DeliverySettled {
  id: number;
  state: 'sent' | 'failed';
}
/** What the row that caused notifications learns of their delivery (a suggestion's `reply_state`): its ids and states. */
export type SettledListener = (knex: Knex, model: MetaModel, settled: DeliverySettled[]) => Promise<void>;
const settledListeners = new Map<string, SettledListener>();

/** The hook point for a source entity: called by the delivery worker after deliveries of that entity's notifications settle. */
export function onDeliverySettled(entity: string, listener: SettledListener): () => void {
  settledListeners.set(entity, listener);
  return () => {
    if (settledListeners.get(entity) === listener) settledListeners.delete(entity);
  };
}

/**
 * Tells each listening source entity how the given notifications' deliveries ended: per source row,
 * `sent` once one of its deliveries is sent, `failed` once every one failed; a row with a delivery
 * still queued is not told yet. One query; nothing when no entity listens.
 */
export async function deliveriesSettled(knex: Knex, model: MetaModel, notificationIds: number[]): Promise<void> {
  const entities = [...settledListeners.keys()];
  if (!entities.length || !notificationIds.length) return;
  const { rows } = await knex.raw(
    `SELECT n.source_entity AS entity, n.source_id AS id,
      CASE WHEN bool_or(r.delivery_state = 'sent') THEN 'sent' WHEN bool_and(r.delivery_state = 'failed') THEN 'failed' END AS state
    FROM notifications n JOIN notification_recipients r ON r.notification_id = n.id
    WHERE n.id = ANY(?::bigint[]) AND n.source_entity = ANY(?::text[]) AND n.source_id IS NOT NULL
    GROUP BY 1, 2`,
    [notificationIds, entities],
  );
  const byEntity = new Map<string, DeliverySettled[]>();
  for (const r of rows as { entity: string; id: number | string; state: 'sent' | 'failed' | null }[]) {
    if (!r.state) continue;
    byEntity.set(r.entity, [...(byEntity.get(r.entity) ?? []), { id: Number(r.id), state: r.state }]);
  }
  for (const [entity, settled] of byEntity) await settledListeners.get(entity)!(knex, model, settled);
}

/** The method an address is reached by: e-mail when it holds `@`, else SMS. */
export const channelOf = (address: string): Channel => (address.includes('@') ? 'email' : 'sms');

/**
 * The deliveries of a notification row: one per recipient and method — each active method the
 * type has an active template for (its newest) (or those asked for), to each active user the row's filters
 * match who has an address for it — rendered in the user's language, queued. One INSERT … SELECT
 * a method, whatever the number of recipients. Answers how many were queued.
 */
export async function queueDeliveries(
  trx: Knex.Transaction,
  row: Record<string, unknown>,
  opts: { secret?: Record<string, unknown>; channels?: Channel[] } = {},
): Promise<number> {
  // the newest active template of each channel among the active methods
  const q = trx('notification_templates as t')
    .join('notification_methods as m', 'm.id', 't.method_id')
    .where({ 't.type_id': row.type_id, 't.is_active': true, 'm.is_active': true })
    .distinctOn('m.channel')
    .select('t.subject', 't.body', 'm.channel')
    .orderBy([{ column: 'm.channel' }, { column: 't.id', order: 'desc' }]);
  const address = typeof row.address === 'string' && row.address !== '' ? row.address : null;
  // to an address: its one method only, and never to users
  if (address) q.where('m.channel', channelOf(address));
  if (opts.channels) q.whereIn('m.channel', opts.channels);
  const templates: { subject: Text3 | null; body: Text3; channel: Channel }[] = await q;
  const vars = {
    ...((row.payload as Record<string, unknown>) ?? {}),
    ...(row.title != null ? { title: row.title } : {}),
    ...(row.text != null ? { text: row.text } : {}),
    ...opts.secret,
  };
  if (address) {
    const t = templates[0];
    if (!t) return 0;
    const lang = LANGS.includes(row.lang_code as Lang) ? (row.lang_code as Lang) : 'uz';
    await trx('notification_recipients').insert({
      notification_id: row.id,
      user_id: null,
      channel: t.channel,
      address,
      lang_code: lang,
      subject: render(inLang(t.subject, lang), vars).slice(0, 255),
      body: render(inLang(t.body, lang), vars),
      delivery_state: 'queued',
      attempts: 0,
      next_at: trx.fn.now(),
    });
    wakers.afterCommit(trx);
    return 1;
  }
  let total = 0;
  for (const t of templates) {
    const subject = LANGS.map((l) => render(inLang(t.subject, l), vars).slice(0, 255));
    const body = LANGS.map((l) => render(inLang(t.body, l), vars));
    const addressCol = t.channel === 'email' ? 'u.email' : t.channel === 'sms' ? 'u.phone' : 'NULL';
    const where: string[] = [];
    const bindings: unknown[] = [row.id, t.channel, ...subject.slice(1).reverse(), subject[0], ...body.slice(1).reverse(), body[0]];
    if (row.user_id != null) {
      where.push('u.id = ?');
      bindings.push(row.user_id);
    } else where.push("u.status = 'active'");
    if (row.region_id != null) {
      where.push('u.region_id = ?');
      bindings.push(row.region_id);
    }
    if (row.subject_id != null) {
      where.push('u.subject_id = ?');
      bindings.push(row.subject_id);
    }
    if (row.branch_id != null) {
      where.push('u.branch_id = ?');
      bindings.push(row.branch_id);
    }
    if (row.role_id != null) {
      where.push('EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role_id = ?)');
      bindings.push(row.role_id);
    }
    if (t.channel !== 'in_app') where.push(`coalesce(${addressCol}, '') <> ''`);
    const lang = "coalesce(u.lang_code, 'uz')";
    // uk and ru by name, anything else Uzbek Latin (the order of the bindings above: ru, uk, uz)
    const [{ n }] = (
      await trx.raw(
        `WITH ins AS (
        INSERT INTO notification_recipients (notification_id, user_id, channel, address, lang_code, subject, body, delivery_state, attempts, next_at)
        SELECT ?, u.id, ?, ${addressCol}, ${lang},
          CASE ${lang} WHEN 'ru' THEN ? WHEN 'uk' THEN ? ELSE ? END,
          CASE ${lang} WHEN 'ru' THEN ? WHEN 'uk' THEN ? ELSE ? END,
          'queued', 0, now()
        FROM users u WHERE ${where.join(' AND ')} ORDER BY u.id
        RETURNING 1)
      SELECT count(*)::int AS n FROM ins`,
        bindings as Knex.RawBinding[],
      )
    ).rows;
    total += n;
  }
  if (total) wakers.afterCommit(trx);
  return total;
}
