import type { EntityMeta } from '../meta/types.ts';
import { abilitySql, type EntityAbility } from '../auth/ability.ts';
import { forbidden } from '../kernel/errors.ts';
import { filterClause } from './filters.ts';
import type { ListParams } from './list-params.ts';

/**
 * A list's compiled SQL, kept by the list's shape (docs/decisions/0043-a-list-s-sql-kept-by-its-shape.md).
 * Knex builds and compiles a list's queries afresh on every request, and that was the largest part
 * of what the generic list costs beyond the node + pg floor (bench/api-list). The SQL text of a
 * list depends only on its shape — the entity, the operation, the caller's scope conditions as
 * SQL (not their values), each filter's name and clause form with its number of values, how many
 * ids it asks for, and for a page its sort, language and whether it skips rows — so a shape's
 * first query is built by knex as ever and its text kept; the next of the same shape binds its own
 * values to that text. A text is kept only when the values knex bound are, in order, those the
 * shape gives (`keepSql`): a clause this file does not know the binding order of is compiled
 * afresh each time, as before, never run with values out of place.
 */

/** A list's shape: the key its queries' texts are kept by, and the values they bind first, in order (the scope's, the view's, the filters', the ids). */
export interface ListShape {
  key: string;
  bindings: unknown[];
}

/**
 * The shape of a list of an entity's rows for an operation, as `Repository.scoped` and
 * `applyFilters` make its query (the ability is null for a trusted caller, who is not scoped):
 * 403 when the operation is not the caller's on any row, a 400 naming a filter whose value is bad.
 */
export function listShape(e: EntityMeta, ability: EntityAbility | null, op: string, params: ListParams): ListShape {
  const key: string[] = [op];
  const bindings: unknown[] = [];
  if (ability) {
    const scope = abilitySql(ability, e, op, 't');
    if (scope === false) throw forbidden();
    key.push(`a:${scope ? scope.text : ''}`);
    if (scope) bindings.push(...scope.bindings);
  } else key.push('trusted');
  for (const v of Object.values(e.view ?? {})) bindings.push(v);
  for (const f of params.filters) {
    const clause = filterClause(e, f);
    key.push(`f:${f.name}:${f.bound ?? ''}:${f.column.join(',')}:${clause ? clause.shape : '-'}`);
    if (clause) bindings.push(...clause.bindings);
  }
  if (params.ids) {
    key.push(`ids:${params.ids.length}`);
    bindings.push(...params.ids);
  }
  return { key: key.join('\u0000'), bindings };
}

interface Kept {
  sql: string;
  /** the values the text binds */
  marks: number;
}

/** Texts kept, by entity (a reloaded model's entities are new objects) and query key; null: a shape whose text is not kept. */
const kept = new WeakMap<EntityMeta, Map<string, Kept | null>>();

/** Shapes kept at most for an entity: past it the entity's are forgotten and kept anew (as entityAbility's). */
const MAX_SHAPES = 1000;

/** The kept text of a query (`key`: its kind and its list's shape) binding these many values; undefined until one was kept. */
export function keptSql(e: EntityMeta, key: string, values: number): string | undefined {
  const k = kept.get(e)?.get(key);
  return k && k.marks === values ? k.sql : undefined;
}

/**
 * Keeps the text of a query knex compiled (`compiled`) under its key, when the values it bound
 * are `expected` in order and its text binds no identifier (`??`); else the key is recorded as
 * not kept, and its queries are compiled afresh each time.
 */
export function keepSql(
  e: EntityMeta,
  key: string,
  compiled: { sql: string; bindings: readonly unknown[] },
  expected: readonly unknown[],
): void {
  let byKey = kept.get(e);
  if (!byKey) kept.set(e, (byKey = new Map()));
  if (byKey.has(key)) return;
  if (byKey.size >= MAX_SHAPES) byKey.clear();
  const marks = valueMarks(compiled.sql);
  const same =
    marks === expected.length &&
    compiled.bindings.length === expected.length &&
    compiled.bindings.every((v, i) => JSON.stringify(v) === JSON.stringify(expected[i]));
  byKey.set(key, same ? { sql: compiled.sql, marks } : null);
}

/** The value placeholders of a text as knex.raw reads them (`?`; `\?` is a question mark); null when it names identifiers (`??`). */
function valueMarks(sql: string): number | null {
  let n = 0;
  for (const m of sql.match(/\\?\?\??/g) ?? []) {
    if (m === '?') n++;
    else if (m !== '\\?') return null;
  }
  return n;
}

/** The shapes kept for an entity (for tests: that a list's queries are kept, and not run afresh). */
export function keptShapes(e: EntityMeta): { kept: number; refused: number } {
  const all = [...(kept.get(e)?.values() ?? [])];
  return { kept: all.filter(Boolean).length, refused: all.filter((k) => k === null).length };
}
