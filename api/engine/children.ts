import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta } from '../meta/types.ts';
import { columnSelect, toColumnValue } from './sql.ts';

/**
 * Child tables (`children` fields) and join tables (`refs` with `through`): reading them for a set
 * of rows and writing them for one row. A child table has `parent_id` and `ordering` (made by the
 * engine), or a key and an order of its own (`parentKey`, `orderBy`) for a table the engine keeps.
 */

export function childFields(e: EntityMeta): [string, FieldMeta][] {
  return Object.entries(e.fields).filter(([, f]) => f.type === 'children');
}

const keyOf = (f: FieldMeta) => f.parentKey ?? 'parent_id';

/** Each row's child rows under its field names, in their order. */
export async function loadChildren(db: Knex | Knex.Transaction, e: EntityMeta, rows: Record<string, unknown>[]): Promise<void> {
  if (!rows.length) return;
  const ids = rows.map((r) => r.id as number);
  for (const [name, f] of childFields(e)) {
    const key = keyOf(f);
    const own = Object.entries(f.fields ?? {}).map(([n, cf]) => columnSelect(n, cf, 'c'));
    const cols = f.parentKey ? [`c.${key} AS parent_id`, ...own] : ['c.parent_id', 'c.id', 'c.ordering', ...own];
    const order = f.parentKey ? [`c.${key}`, `c.${f.orderBy}`] : ['c.parent_id', 'c.ordering', 'c.id'];
    const children = await db(`${f.table} as c`)
      .whereIn(`c.${key}`, ids)
      .orderByRaw(order.join(', '))
      .select(db.raw(cols.join(', ')));
    const byParent = new Map<number, Record<string, unknown>[]>();
    for (const { parent_id: parent, ...c } of children as Record<string, unknown>[]) {
      const list = byParent.get(parent as number) ?? [];
      list.push(c);
      byParent.set(parent as number, list);
    }
    for (const r of rows) r[name] = byParent.get(r.id as number) ?? [];
  }
}

/** Replaces a row's child rows of one field with these (the writable columns of each, defaults filled). */
export async function replaceChildren(
  trx: Knex.Transaction,
  f: FieldMeta,
  id: number,
  rows: Record<string, unknown>[],
  creating: boolean,
  computed = false,
): Promise<void> {
  const key = keyOf(f);
  if (!creating) await trx(f.table!).where(key, id).delete();
  if (!rows.length) return;
  const columns = Object.entries(f.fields ?? {}).filter(([, cf]) => computed || (!cf.readOnly && !cf.computedBy && !cf.from));
  const values = rows.map((r, i) => {
    const out: Record<string, unknown> = f.parentKey ? { [key]: id } : { parent_id: id, ordering: i };
    for (const [cn, cf] of columns) {
      const v = r[cn] === undefined ? cf.default : r[cn];
      if (v !== undefined) out[cn] = toColumnValue(trx, cf, v);
    }
    return out;
  });
  for (let i = 0; i < values.length; i += 500) await trx(f.table!).insert(values.slice(i, i + 500));
}

/** Sets the computed columns of existing child rows of one row (a hook's result: rows that carry their `id`). */
export async function patchChildren(trx: Knex.Transaction, f: FieldMeta, id: number, rows: Record<string, unknown>[]): Promise<void> {
  for (const r of rows) {
    const values: Record<string, unknown> = {};
    for (const [cn, v] of Object.entries(r)) {
      const cf = f.fields?.[cn];
      if (cn !== 'id' && cf) values[cn] = toColumnValue(trx, cf, v);
    }
    if (Object.keys(values).length)
      await trx(f.table!)
        .where({ id: r.id, [keyOf(f)]: id })
        .update(values);
  }
}

/**
 * A multi-reference kept in a join table, replaced as a whole. With a flag column, the rows that
 * leave are kept with flag 0 and the rows that come are set to 1, so a closed grant is remembered.
 */
export async function writeJoin(trx: Knex.Transaction, f: FieldMeta, id: number, value: unknown): Promise<void> {
  const { table, key, refKey, flag } = f.through!;
  const ids = [...new Set(((value as number[] | null) ?? []).map(Number))];
  if (flag) {
    const keep = trx(table).where(key, id).where(flag, 1);
    if (ids.length) keep.whereNotIn(refKey, ids);
    await keep.update({ [flag]: 0 });
    for (let i = 0; i < ids.length; i += 500) {
      await trx(table)
        .insert(ids.slice(i, i + 500).map((r) => ({ [key]: id, [refKey]: r, [flag]: 1 })))
        .onConflict([key, refKey])
        .merge([flag]);
    }
    return;
  }
  await trx(table).where(key, id).delete();
  for (let i = 0; i < ids.length; i += 500) await trx(table).insert(ids.slice(i, i + 500).map((r) => ({ [key]: id, [refKey]: r })));
}
