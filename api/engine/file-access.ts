import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta, MetaModel } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import { allows } from '../auth/ability.ts';
import { q } from './sql.ts';
import { readsInClear } from './personal.ts';

/**
 * Which files a caller may read, set-wise: the one query the write path (a write may add to a row
 * only files its writer may read) and the file routes (files.ts's readableFiles) both ask. It
 * reads each entity's rows through `scoped`, the caller's scoped read of that entity (the
 * repository's), so this file needs no repository of its own.
 */

const FILE_TYPES = new Set(['file', 'image', 'files']);

/** A column that keeps file ids: a field of the entity, or a column of one of its child tables (`child`, under the children field `parent`). */
export interface FileColumn {
  field: string;
  f: FieldMeta;
  child?: FieldMeta;
  parent?: string;
}

const fileColumnsOf = new WeakMap<EntityMeta, FileColumn[]>();

/** Where an entity keeps file ids: its own columns, and its child tables' columns. */
export function fileColumns(e: EntityMeta): FileColumn[] {
  let out = fileColumnsOf.get(e);
  if (out) return out;
  out = [];
  for (const [name, f] of Object.entries(e.fields)) {
    if (FILE_TYPES.has(f.type)) out.push({ field: name, f });
    if (f.type === 'children')
      for (const [cn, cf] of Object.entries(f.fields ?? {}))
        if (FILE_TYPES.has(cf.type)) out.push({ field: cn, f: cf, child: f, parent: name });
  }
  fileColumnsOf.set(e, out);
  return out;
}

/** A condition "this row (alias t) holds the file x.id" — x the candidate ids' set. */
function holds(knex: Knex, col: FileColumn): Knex.Raw {
  const match = (alias: string) => (col.f.type === 'files' ? `${alias}.${q(col.field)} @> ARRAY[x.id]` : `${alias}.${q(col.field)} = x.id`);
  if (!col.child) return knex.raw(match('t'));
  return knex.raw(
    `exists (select 1 from ${q(col.child.table!)} c where c.${q(col.child.parentKey ?? 'parent_id')} = t.id and ${match('c')})`,
  );
}

/**
 * The files of `ids` the caller may read: those they uploaded, those a row they may read holds (in
 * their scope), and those a workflow step of a row they may read carries. Set-wise: one query for
 * the uploads, then one an entity with file columns (all the ids still unanswered at once), until
 * every id is answered; in the caller's transaction when given one.
 */
export async function filesReadable(
  db: Knex | Knex.Transaction,
  model: MetaModel,
  principal: Principal,
  ids: readonly number[],
  knex: Knex,
  scoped: (e: EntityMeta) => Knex.QueryBuilder,
): Promise<Set<number>> {
  const out = new Set<number>();
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (!wanted.length) return out;
  let open: number[] = [];
  for (let i = 0; i < wanted.length; i += 5000) {
    for (const r of await db('resources')
      .whereIn('id', wanted.slice(i, i + 5000))
      .select('id', 'created_by')) {
      if (r.created_by !== null && Number(r.created_by) === principal.id) out.add(Number(r.id));
      else open.push(Number(r.id));
    }
  }
  const settle = (found: unknown[]) => {
    for (const id of found) out.add(Number(id));
    open = open.filter((id) => !out.has(id));
  };
  for (const e of model.entities.values()) {
    if (!open.length) return out;
    if (!allows(e, 'read', principal)) continue;
    // a personal document (a passport's copy) is the file of whoever reads the entity's personal data in clear only
    const clear = readsInClear(e, principal);
    const cols = fileColumns(e).filter((c) => clear || c.f.personal !== 'document');
    if (!cols.length) continue;
    const rows = scoped(e)
      .where((w) => {
        for (const c of cols) w.orWhere(holds(knex, c));
      })
      .select(knex.raw('1'));
    settle(
      await db
        .select('x.id')
        .from(knex.raw('unnest(?::bigint[]) as x(id)', [open]))
        .whereExists(rows)
        .pluck('x.id'),
    );
  }
  if (!open.length) return out;
  const flows = await db('flows').whereIn('resource_id', open).select('entity', 'record_id', 'resource_id');
  for (const f of flows) {
    const e = model.entities.get(f.entity);
    if (!e || out.has(Number(f.resource_id)) || !allows(e, 'read', principal)) continue;
    if (await scoped(e).where('t.id', f.record_id).first('t.id')) out.add(Number(f.resource_id));
  }
  return out;
}
