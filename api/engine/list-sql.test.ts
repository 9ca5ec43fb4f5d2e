import { describe, expect, it } from 'vitest';
import knexFactory from 'knex';
import { loadMetadata } from '../meta/load.ts';
import type { EntityMeta, FieldMeta } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import { Repository } from './repository.ts';
import { parseListParams } from './list-params.ts';
import { selectColumns } from './sql.ts';
import { keepSql, keptShapes, keptSql, listShape } from './list-sql.ts';

// compiling needs no connection: knex's pg dialect only
const knex = knexFactory({ client: 'pg' });
const model = loadMetadata();

/** A value each filter takes, by its column's type. */
function sample(name: string, f: FieldMeta | undefined, op: string): string {
  if (op === 'search') return 'tosh';
  if (!f && name.endsWith('_at')) return '2025-01-01T00:00:00Z';
  if (op === 'bool' || f?.type === 'boolean') return 'true';
  switch (f?.type) {
    case 'date':
      return '2025-01-01';
    case 'datetime':
      return '2025-01-01T00:00:00Z';
    case 'decimal':
    case 'money':
      return '1.50';
    case 'enum':
      return f.values![0];
    case 'string':
    case 'text':
      return 'abc';
    default:
      return op === 'in' ? '1,2' : '3';
  }
}

/** Every declared filter of an entity given a value (ranges both bounds), as a request's query. */
function everyFilter(e: EntityMeta): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, m] of Object.entries(e.list.filters ?? {})) {
    const op = typeof m === 'string' ? m : m.op;
    const v = sample(name, e.fields[name], op);
    if (op === 'range') Object.assign(query, { [`from_${name}`]: v, [`to_${name}`]: v });
    else query[name] = v;
  }
  return query;
}

const principal = (p: Partial<Principal>): Principal => ({
  id: 7,
  username: 'u',
  actions: new Set(),
  region_id: null,
  branch_id: null,
  subject_id: null,
  ...p,
});

describe("a list's SQL kept by its shape", () => {
  it('binds, for every entity and each caller, the values knex binds, in its order', () => {
    let checked = 0;
    for (const e of model.entities.values()) {
      const actions = new Set(
        [e.access.read, ...Object.values(e.rows ?? {}).map((r) => r.action)].filter((a): a is number => a !== undefined),
      );
      const callers = [principal({ actions }), principal({ actions, region_id: 5, branch_id: 6, subject_id: 8 })];
      for (const [i, p] of callers.entries()) {
        if (!e.access.read) continue;
        const repo = new Repository({ knex, model, principal: p, lang: 'ru', trusted: i === 0 && e.name.length % 2 === 0 }, e);
        const params = parseListParams(e, { ...everyFilter(e), range: '[25,49]' });
        const shape = listShape(e, repo.ctx.trusted ? null : repo.ability, 'read', params);
        const page = repo
          .applyOrder(repo.applyFilters(repo.scoped('read'), params), params)
          .select(knex.raw(selectColumns(e).join(', ')))
          .offset(params.offset)
          .limit(params.limit)
          .toSQL();
        expect(page.bindings, `${e.name} page`).toEqual([...shape.bindings, params.limit, params.offset]);
        const count = knex
          .select(knex.raw('count(*)::int as n'))
          .from(repo.applyFilters(repo.scoped('read'), params).select(knex.raw('1')).limit(10001).as('c'))
          .toSQL();
        expect(count.bindings, `${e.name} count`).toEqual([...shape.bindings, 10001]);
        const key = `test\u0000${i}\u0000${shape.key}`;
        keepSql(e, key, page, [...shape.bindings, params.limit, params.offset]);
        expect(keptSql(e, key, shape.bindings.length + 2), `${e.name} kept`).toBe(page.sql);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('tells shapes apart by what changes the text, not by the values', () => {
    const e = model.entities.get('areas')!;
    const p = principal({ actions: new Set([e.access.read!]) });
    const shape = (q: Record<string, string>) =>
      listShape(e, new Repository({ knex, model, principal: p, lang: 'uz' }, e).ability, 'read', parseListParams(e, q));
    expect(shape({ region_id: '3' }).key).toBe(shape({ region_id: '4' }).key);
    expect(shape({ region_id: '3' }).bindings).toEqual([3]);
    expect(shape({ region_id: '3' }).key).not.toBe(shape({}).key);
    expect(shape({ filter: JSON.stringify({ id: [1, 2] }) }).key).not.toBe(shape({ filter: JSON.stringify({ id: [1, 2, 3] }) }).key);
  });

  it("does not keep a text whose values are not the shape's, nor one that names identifiers", () => {
    const e = model.entities.get('regions')!;
    const before = keptShapes(e).refused;
    keepSql(e, 'x1', { sql: 'select ? , ?', bindings: [1, 2] }, [2, 1]);
    keepSql(e, 'x2', { sql: 'select ?? from t where a = ?', bindings: ['a', 1] }, [1]);
    keepSql(e, 'x3', { sql: 'select 1 where a = ? and b \\? c', bindings: [1] }, [1]);
    expect(keptShapes(e).refused - before).toBe(2);
    expect(keptSql(e, 'x1', 2)).toBeUndefined();
    expect(keptSql(e, 'x3', 1)).toBe('select 1 where a = ? and b \\? c');
    // a text is run only with as many values as it binds
    expect(keptSql(e, 'x3', 2)).toBeUndefined();
  });
});
