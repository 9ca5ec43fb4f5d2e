import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta } from '../meta/types.ts';
import type { ListParams } from './list-params.ts';
import { q, searchExpression } from './sql.ts';
import { isIsoDate, isIsoDateTime } from '../meta/today.ts';
import { badParam } from '../kernel/errors.ts';

/** A list filter of the metadata as SQL on a query over the entity's rows (alias `t`). */
export function applyFilter(qb: Knex.QueryBuilder, e: EntityMeta, f: ListParams['filters'][number]): void {
  filterClause(e, f)?.apply(qb);
}

/**
 * A list filter's clause: how it is added to a query (`apply`), the values it binds there in
 * order (`bindings`), and what of its SQL text the values do not tell (`shape`: the clause's form
 * and its number of values) — a list's compiled SQL is kept by its filters' shapes
 * (api/engine/list-sql.ts). Null when the filter asks nothing (a search of blanks). A bad value
 * is a 400 naming the filter, as it was asked for.
 */
export interface FilterClause {
  shape: string;
  bindings: unknown[];
  apply(qb: Knex.QueryBuilder): void;
}

export function filterClause(e: EntityMeta, f: ListParams['filters'][number]): FilterClause | null {
  const col = f.column[0];
  const meta = e.fields[col];
  const ref = `t.${col}`;
  // a bad value is named as it was asked for: `from_paid_on`, `region_id`
  const param = f.param ?? f.name;
  const value = (v: unknown) => parseFilterValue(param, meta ?? { type: col.endsWith('_at') ? 'datetime' : 'integer' }, v);
  switch (f.meta.op) {
    case 'search': {
      if (!isTerm(f.value)) throw badParam(param, 'errors.bad_filter');
      const term = String(Array.isArray(f.value) ? f.value.join(' ') : f.value);
      if (term.length > MAX_TERM) throw badParam(param, 'errors.bad_filter');
      const folded = term
        .toLowerCase()
        .replace(/[ʻʼ’‘`]/g, "'")
        .replace(/\s+/g, ' ')
        .trim();
      if (!folded) return null;
      const like = `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return { shape: 'search', bindings: [like], apply: (qb) => qb.whereRaw(`${searchExpression(e, f.column, 't')} LIKE ?`, [like]) };
    }
    case 'range': {
      const v = value(f.value) as Knex.Value;
      const op = f.bound === 'from' ? '>=' : '<=';
      return { shape: op, bindings: [v], apply: (qb) => qb.where(ref, op, v) };
    }
    case 'bool': {
      const v = String(f.value);
      if (v !== 'true' && v !== 'false') throw badParam(param, 'errors.bad_filter');
      return { shape: 'bool', bindings: [v === 'true'], apply: (qb) => qb.where(ref, v === 'true') };
    }
    case 'eq':
    case 'in': {
      const list = Array.isArray(f.value) ? f.value : f.meta.op === 'in' ? String(f.value).split(',') : [f.value];
      if (!list.length || list.length > MAX_VALUES) throw badParam(param, 'errors.bad_filter');
      const values = list.map(value);
      if (meta?.through) {
        const { table, key, refKey } = meta.through;
        return {
          shape: 'through',
          bindings: [values],
          apply: (qb) =>
            qb.whereRaw(
              `exists (select 1 from ${q(table)} j where j.${q(key)} = ${q('t')}.${q('id')} and j.${q(refKey)} = any(?::bigint[]))`,
              [values] as unknown as Knex.RawBinding[],
            ),
        };
      }
      if (meta?.type === 'refs')
        return {
          shape: 'refs',
          bindings: [values],
          apply: (qb) => qb.whereRaw(`${q('t')}.${q(col)} && ?::bigint[]`, [values] as unknown as Knex.RawBinding[]),
        };
      if (values.length === 1) return { shape: 'eq', bindings: [values[0]], apply: (qb) => qb.where(ref, values[0] as Knex.Value) };
      return { shape: `in${values.length}`, bindings: values, apply: (qb) => qb.whereIn(ref, values as Knex.Value[]) };
    }
  }
}

/** A search term is text (or a list of texts); longer than this it is no one's search. */
const MAX_TERM = 1000;
/** An `in` filter names at most this many values. */
const MAX_VALUES = 1000;
const INT4 = { min: -2147483648, max: 2147483647 };

const isTerm = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' || (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'));

/**
 * A filter value typed as its column, or a 400 naming the filter: integers within PostgreSQL's
 * integer, ids within 1 … 2^53 − 1 (what a JS number holds exactly), decimals of at most 30 + 20
 * digits, dates and date-times as ISO 8601 in the years 1000–9999.
 */
function parseFilterValue(name: string, f: FieldMeta, v: unknown): unknown {
  const bad = () => badParam(name, 'errors.bad_filter');
  const s = typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
  if (typeof s !== 'string') throw bad();
  switch (f.type) {
    case 'integer': {
      if (!/^-?\d{1,10}$/.test(s)) throw bad();
      const n = Number(s);
      if (n < INT4.min || n > INT4.max) throw bad();
      return n;
    }
    case 'ref':
    case 'refs':
    case 'file':
    case 'image':
    case 'files': {
      if (!/^\d{1,16}$/.test(s)) throw bad();
      const n = Number(s);
      if (n < 1 || !Number.isSafeInteger(n)) throw bad();
      return n;
    }
    case 'decimal':
    case 'money':
      if (!/^-?\d{1,30}(\.\d{1,20})?$/.test(s)) throw bad();
      return s;
    case 'date':
      if (!isIsoDate(s.slice(0, 10)) || (s.length > 10 && !isIsoDateTime(s))) throw bad();
      return s.slice(0, 10);
    case 'datetime':
      if (!isIsoDateTime(s)) throw bad();
      return s;
    case 'boolean':
      if (s !== 'true' && s !== 'false') throw bad();
      return s === 'true';
    case 'enum':
      if (!f.values!.includes(s)) throw bad();
      return s;
    default:
      if (s.length > MAX_TERM) throw bad();
      return s;
  }
}
