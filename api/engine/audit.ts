import type { Knex } from 'knex';
import type { EntityMeta, MetaModel } from '../meta/types.ts';

/**
 * The audit trail: one row per change of a row — who, when, which entity and row, the operation
 * (create, update, delete, or a workflow action or a route's named change) and the changed fields
 * before and after. Written by the engine's write path in the change's own transaction, so a
 * change and its audit row are both there or neither.
 */

export type AuditOp = 'create' | 'update' | 'delete' | 'action';

export interface AuditEntry {
  id: number;
  op: AuditOp;
  /** the workflow action or the route's change (set-password, import, access…) */
  action?: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** Columns the engine keeps by itself: their change is the change, not a field of it. */
const BOOKKEEPING = new Set(['version', 'updated_at', 'updated_by', 'created_at', 'created_by']);

/** What a password looks like in the trail: that it was set, never its hash. */
export const HIDDEN_VALUE = '••••••';

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields that differ between two snapshots of a row, with their values before and after; on
 * create (no before) or delete (no after) the fields that hold a value. `secret` names fields set
 * in this change whose value is never shown (passwords).
 */
export function auditDiff(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  secret: Iterable<string> = [],
): { before: Record<string, unknown> | null; after: Record<string, unknown> | null } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const k of keys) {
    if (BOOKKEEPING.has(k) || k === 'id') continue;
    const x = before?.[k] ?? null;
    const y = after?.[k] ?? null;
    // a created or deleted row's field: kept when it holds a value (an import's 100 000 rows are
    // diffed here without a JSON text of each field)
    if ((x === null) !== (y === null) && typeof (x ?? y) === 'string') {
      if (before) b[k] = x;
      if (after) a[k] = y;
      continue;
    }
    if (same(x, y) || (Array.isArray(x) && !x.length && y === null) || (Array.isArray(y) && !y.length && x === null)) continue;
    if (before) b[k] = x;
    if (after) a[k] = y;
  }
  for (const k of secret) {
    if (before) b[k] = HIDDEN_VALUE;
    if (after) a[k] = HIDDEN_VALUE;
  }
  return { before: before ? b : null, after: after ? a : null };
}

/** Audit rows written in one statement (an import's): each statement's JSON stays a few MB. */
const AUDIT_BATCH = 5000;

/**
 * Writes the audit rows of some changes of one entity's rows, in the change's transaction. Many
 * (an import's) go as one statement a batch — the rows as one JSON parameter that
 * `json_populate_recordset` reads — instead of one a few hundred rows with seven parameters each.
 */
export async function writeAudit(trx: Knex.Transaction, e: EntityMeta, userId: number | null, entries: AuditEntry[]): Promise<void> {
  if (entries.length > 500) {
    for (let i = 0; i < entries.length; i += AUDIT_BATCH) {
      const rows = entries.slice(i, i + AUDIT_BATCH).map((x) => ({
        entity: e.name,
        record_id: x.id,
        op: x.op,
        action: x.action ?? null,
        user_id: userId,
        before: x.before,
        after: x.after,
      }));
      await trx.raw(
        `INSERT INTO audit_log (entity, record_id, op, action, user_id, before, after)
        SELECT entity, record_id, op, action, user_id, before, after FROM json_populate_recordset(NULL::audit_log, ?::json)`,
        [JSON.stringify(rows)],
      );
    }
    return;
  }
  const rows = entries.map((x) => ({
    entity: e.name,
    record_id: x.id,
    op: x.op,
    action: x.action ?? null,
    user_id: userId,
    before: x.before === null ? null : JSON.stringify(x.before),
    after: x.after === null ? null : JSON.stringify(x.after),
  }));
  for (let i = 0; i < rows.length; i += 500) await trx('audit_log').insert(rows.slice(i, i + 500));
}

/** Entities whose rows live in the same table (a table and its views): one row's history is theirs together. */
export function sameTable(model: MetaModel, e: EntityMeta): string[] {
  return [...model.entities.values()].filter((x) => x.table === e.table).map((x) => x.name);
}

/**
 * A row's audit trail, newest first, with who made each change. `since`, when the row was made (its
 * `created_at`), spares the reading of the trail's months before it (bench/audit).
 */
export async function rowHistory(
  knex: Knex,
  model: MetaModel,
  e: EntityMeta,
  id: number,
  limit = 500,
  since?: unknown,
): Promise<Record<string, unknown>[]> {
  const query = knex('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .whereIn('a.entity', sameTable(model, e))
    .where('a.record_id', id);
  // a row's trail begins when the row was made: the months of the partitioned trail before it are
  // not read (a day earlier, so that no clock's difference loses its first entry)
  if (since instanceof Date || (typeof since === 'string' && since))
    query.where('a.created_at', '>=', knex.raw(`?::timestamptz - interval '1 day'`, [since instanceof Date ? since.toISOString() : since]));
  return query
    .orderBy('a.id', 'desc')
    .limit(limit)
    .select('a.id', 'a.entity', 'a.op', 'a.action', 'a.before', 'a.after', 'a.created_at', 'a.user_id', 'u.fio as user_fio', 'u.username');
}
