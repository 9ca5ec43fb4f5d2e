import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta, PersonalKind } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import { actorOf } from '../auth/ability.ts';

/**
 * Personal data field by field (docs/personal-data.md, docs/decisions/0060): the fields metadata
 * marks `personal`, their masks, whether a caller reads them in clear (the entity's
 * `access.personal`), a mask sent back on a write taken as "unchanged", and the record of each
 * clear read by staff (`personal_data_reads`). The repository's read path (repository/read.ts),
 * the exports (export.ts) and the write path (repository/write.ts) call these; nothing else masks.
 */

/** A personal field of an entity: its own (`child` undefined) or a child table's column. */
export interface PersonalField {
  name: string;
  child?: string;
  kind: PersonalKind;
  field: FieldMeta;
}

const fieldsByEntity = new WeakMap<EntityMeta, PersonalField[]>();

/** The personal fields of an entity, its child tables' included (kept once an entity). */
export function personalFields(e: EntityMeta): PersonalField[] {
  let out = fieldsByEntity.get(e);
  if (out) return out;
  out = [];
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.personal) out.push({ name, kind: f.personal, field: f });
    if (f.type === 'children')
      for (const [cn, cf] of Object.entries(f.fields ?? {}))
        if (cf.personal) out.push({ name: cn, child: name, kind: cf.personal, field: cf });
  }
  fieldsByEntity.set(e, out);
  return out;
}

/** Whether the entity holds personal data a reader may see masked: a personal field that is masked (a name is not). */
export function hasMaskedFields(e: EntityMeta): boolean {
  return personalFields(e).some((p) => p.kind !== 'name');
}

/** Whether a caller reads an entity's personal fields in clear: the trusted engine, or whoever holds its `access.personal`. */
export function readsInClear(e: EntityMeta, principal: Principal, trusted = false): boolean {
  if (trusted) return true;
  const id = e.access.personal;
  return id !== undefined && principal.actions.has(id);
}

const stars = (n: number) => '*'.repeat(Math.max(0, n));

/**
 * A value as a reader without the right sees it. Every mask of a string holds a `*` (how the faces
 * tell a masked value); a document (a file's id) is hidden as null; a name is shown as it is.
 * A PINFL shows its first digit and last four (`3*********1234`); an inn_or_pinfl field's nine-digit
 * INN (an organisation's) is no person's and stays; a passport its series and last two digits
 * (`AA *****67`); a phone its last two (`+998 ** *** ** 67`); an e-mail its first letter and domain;
 * an address its first part (the city or district, up to the first comma); a birth date its year.
 */
export function maskValue(kind: PersonalKind, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  if (kind === 'name') return value;
  if (kind === 'document') return null;
  const s = String(value);
  switch (kind) {
    case 'pinfl':
      return /^\d{14}$/.test(s) ? `${s[0]}${stars(9)}${s.slice(-4)}` : /^\d{9}$/.test(s) ? s : stars(s.length);
    case 'passport':
      return s.length > 4 ? `${s.slice(0, 2)} ${stars(s.length - 4)}${s.slice(-2)}` : stars(s.length);
    case 'phone':
      return s.length >= 9 ? `+998 ** *** ** ${s.slice(-2)}` : stars(s.length);
    case 'email': {
      const at = s.indexOf('@');
      return at > 0 ? `${s[0]}***${s.slice(at)}` : stars(s.length);
    }
    case 'address': {
      const comma = s.indexOf(',');
      const head = comma > 0 ? s.slice(0, comma) : s.split(/\s+/)[0];
      return head.length < s.length ? `${head}, ***` : '***';
    }
    case 'birthdate':
      return /^\d{4}-/.test(s) ? `${s.slice(0, 4)}-**-**` : '****';
  }
}

/** Masks a row's personal fields (its child rows' too) in place for a reader without the right; answers the row. */
export function maskRow(e: EntityMeta, row: Record<string, unknown>): Record<string, unknown> {
  for (const p of personalFields(e)) {
    if (p.kind === 'name') continue;
    if (!p.child) {
      if (p.name in row) row[p.name] = maskValue(p.kind, row[p.name]);
      continue;
    }
    const children = row[p.child];
    if (Array.isArray(children))
      for (const c of children as Record<string, unknown>[]) if (p.name in c) c[p.name] = maskValue(p.kind, c[p.name]);
  }
  return row;
}

/**
 * The personal fields (`offenders.passport` for a child's) that hold a value in some of the rows:
 * what a clear read of them shows. Names do not count: they are shown to every reader.
 */
export function shownPersonal(e: EntityMeta, rows: Record<string, unknown>[]): string[] {
  const out: string[] = [];
  for (const p of personalFields(e)) {
    if (p.kind === 'name') continue;
    const held = (r: Record<string, unknown>) => r[p.name] !== null && r[p.name] !== undefined && r[p.name] !== '';
    const shown = p.child
      ? rows.some((r) => Array.isArray(r[p.child!]) && (r[p.child!] as Record<string, unknown>[]).some(held))
      : rows.some(held);
    if (shown) out.push(p.child ? `${p.child}.${p.name}` : p.name);
  }
  return out;
}

const squeeze = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, '') : v);

/**
 * Whether a value sent is the mask of the stored one (spaces aside, as a form may take them out).
 * A document (null to the reader) and a birth date (a date input cannot hold "1985-**-**" and may
 * send it empty) sent empty count as their mask: the reader cannot clear what they cannot see.
 */
function isMaskOf(kind: PersonalKind, sent: unknown, stored: unknown): boolean {
  if (stored === null || stored === undefined || stored === '' || kind === 'name') return false;
  if ((kind === 'document' || kind === 'birthdate') && (sent === null || sent === undefined || sent === '')) return true;
  return typeof sent === 'string' && squeeze(sent) === squeeze(maskValue(kind, stored));
}

/**
 * A payload from a reader without the right, with each personal value that is the mask of the
 * stored one put back to the stored value (the mask means "unchanged"; a form sends back what it
 * was given). Child rows are matched to the stored ones by their `id`. A document or birth date a
 * reader cannot see is kept when they send it empty. A new row (no `before`) is left as it is.
 */
export function unmaskPayload(
  e: EntityMeta,
  payload: Record<string, unknown>,
  before: Record<string, unknown> | null,
): Record<string, unknown> {
  if (!before) return payload;
  const out = { ...payload };
  const byChild = new Map<string, PersonalField[]>();
  for (const p of personalFields(e)) {
    if (p.kind === 'name') continue;
    if (p.child) {
      byChild.set(p.child, [...(byChild.get(p.child) ?? []), p]);
      continue;
    }
    if (p.name in out && isMaskOf(p.kind, out[p.name], before[p.name])) out[p.name] = before[p.name];
  }
  for (const [child, fields] of byChild) {
    if (!Array.isArray(out[child]) || !Array.isArray(before[child])) continue;
    const stored = new Map((before[child] as Record<string, unknown>[]).map((c) => [Number(c.id), c]));
    out[child] = (out[child] as unknown[]).map((c) => {
      if (!c || typeof c !== 'object') return c;
      const row = c as Record<string, unknown>;
      const was = row.id !== undefined ? stored.get(Number(row.id)) : undefined;
      if (!was) return row;
      const next = { ...row };
      for (const p of fields) if (isMaskOf(p.kind, next[p.name], was[p.name])) next[p.name] = was[p.name];
      return next;
    });
  }
  return out;
}

/** How a clear read was made: a list page, a record, its history, an export, a person's data gathered for them. */
export type ClearReadKind = 'list' | 'record' | 'history' | 'export' | 'person';

/**
 * Records a clear read of personal data by a member of staff: who, which entity and rows (a list
 * page is one record naming its ids), which fields, how. Written on the reading connection (the
 * caller's transaction when there is one) as one INSERT; nobody signed in is never recorded
 * (the public reads no personal field).
 */
export async function recordClearRead(
  db: Knex | Knex.Transaction,
  principal: Principal,
  e: EntityMeta,
  kind: ClearReadKind,
  ids: number[],
  fields: string[],
  rows = ids.length,
): Promise<void> {
  const user = actorOf(principal);
  if (user === null || !fields.length) return;
  await db('personal_data_reads').insert({
    user_id: user,
    entity: e.name,
    kind,
    // one record's read names it (the administrator filters by it); a page's or an export's ids are listed
    record_id: ids.length === 1 ? ids[0] : null,
    record_ids: JSON.stringify(ids.slice(0, MAX_IDS)),
    rows,
    fields: JSON.stringify(fields),
  });
}

/** A read of more rows (an export) names its first this many and counts the rest. */
export const MAX_IDS = 1000;

/**
 * The rows of an entity holding a person's identifier — a PINFL or a passport number — in one of
 * its personal fields of that kind (a child row's included): their ids, whatever the scope (the
 * caller of a person's export or erasure holds its own right; api/modules/personal-data).
 */
export async function rowsHoldingPerson(
  db: Knex | Knex.Transaction,
  e: EntityMeta,
  kind: 'pinfl' | 'passport',
  value: string,
): Promise<number[]> {
  const own = personalFields(e).filter((p) => p.kind === kind);
  if (!own.length) return [];
  const qb = db(`${e.table} as t`).select('t.id').orderBy('t.id');
  if (e.softDelete) qb.whereNull('t.deleted_at');
  for (const [col, v] of Object.entries(e.view ?? {})) qb.where(`t.${col}`, v);
  qb.where((w) => {
    for (const p of own) {
      if (!p.child) w.orWhere(`t.${p.name}`, value);
      else {
        const f = e.fields[p.child];
        const key = f.parentKey ?? 'parent_id';
        w.orWhereExists((x) => x.select(db.raw('1')).from(`${f.table} as c`).whereRaw(`c.${key} = t.id`).where(`c.${p.name}`, value));
      }
    }
  });
  return (await qb).map((r: { id: number }) => Number(r.id));
}

/**
 * The personal values of the audit rows of one record replaced by their masks, the rows themselves
 * (who, when, what operation, the other fields and the money) kept: after a person's data is
 * anonymised, the trail does not keep what was erased (docs/decisions/0062).
 */
export async function maskAuditOf(trx: Knex.Transaction, e: EntityMeta, id: number): Promise<number> {
  const own = personalFields(e);
  if (!own.length) return 0;
  const rows: { id: number; before: Record<string, unknown> | null; after: Record<string, unknown> | null }[] = await trx('audit_log')
    .where({ entity: e.name, record_id: id })
    .select('id', 'before', 'after');
  let n = 0;
  for (const r of rows) {
    const before = r.before ? maskAllKinds(e, structuredClone(r.before)) : null;
    const after = r.after ? maskAllKinds(e, structuredClone(r.after)) : null;
    if (JSON.stringify(before) === JSON.stringify(r.before) && JSON.stringify(after) === JSON.stringify(r.after)) continue;
    await trx('audit_log')
      .where({ id: r.id })
      .update({ before: before && JSON.stringify(before), after: after && JSON.stringify(after) });
    n++;
  }
  return n;
}

/** A row with every personal value masked, names included (an audit row of an anonymised person). */
function maskAllKinds(e: EntityMeta, row: Record<string, unknown>): Record<string, unknown> {
  maskRow(e, row);
  for (const p of personalFields(e)) {
    if (p.kind !== 'name') continue;
    const hide = (r: Record<string, unknown>) => {
      if (r[p.name]) r[p.name] = ANONYMOUS_TEXT;
    };
    if (!p.child) hide(row);
    else if (Array.isArray(row[p.child])) (row[p.child] as Record<string, unknown>[]).forEach(hide);
  }
  return row;
}

/** What an anonymised name or address reads. */
export const ANONYMOUS_TEXT = '***';

/**
 * What an anonymised value is written as: a value its field still accepts (a required name, a
 * PINFL's fourteen digits), telling nothing. Null where the field may be empty.
 */
export function anonymousValue(p: PersonalField): unknown {
  switch (p.kind) {
    case 'pinfl':
      return p.field.format === 'inn_or_pinfl' || p.field.format === 'pinfl' ? '00000000000000' : ANONYMOUS_TEXT;
    case 'passport':
      return p.field.format === 'passport' ? 'AA0000000' : ANONYMOUS_TEXT;
    case 'phone':
      return p.field.required ? '000000000' : null;
    case 'email':
      return null;
    case 'name':
    case 'address':
      return p.field.required ? ANONYMOUS_TEXT : p.kind === 'name' ? ANONYMOUS_TEXT : null;
    case 'birthdate':
    case 'document':
      return null;
  }
}
