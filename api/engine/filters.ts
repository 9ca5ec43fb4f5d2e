import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta } from '../meta/types.ts';
import type { ListParams } from './list-params.ts';
import { q, searchExpression } from './sql.ts';
import { isIsoDate } from '../meta/today.ts';
import { badRequest } from '../http/errors.ts';

/** A list filter of the metadata as SQL on a query over the entity's rows (alias `t`). */
export function applyFilter(qb: Knex.QueryBuilder, e: EntityMeta, f: ListParams['filters'][number]): void {
  const col = f.column[0];
  const meta = e.fields[col];
  const ref = `t.${col}`;
  const value = (v: unknown) => parseFilterValue(f.name, meta ?? { type: col.endsWith('_at') ? 'datetime' : 'integer' }, v);
  switch (f.meta.op) {
    case 'search': {
      const term = String(Array.isArray(f.value) ? f.value.join(' ') : f.value);
      const folded = term.toLowerCase().replace(/[ʻʼ’‘`]/g, "'").replace(/\s+/g, ' ').trim();
      if (!folded) return;
      const like = `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.whereRaw(`${searchExpression(e, f.column, 't')} LIKE ?`, [like]);
      return;
    }
    case 'range':
      qb.where(ref, f.bound === 'from' ? '>=' : '<=', value(f.value) as Knex.Value);
      return;
    case 'bool': {
      const v = String(f.value);
      if (v !== 'true' && v !== 'false') throw badRequest('errors.bad_filter', { name: f.name });
      qb.where(ref, v === 'true');
      return;
    }
    case 'eq': case 'in': {
      const list = Array.isArray(f.value) ? f.value : f.meta.op === 'in' ? String(f.value).split(',') : [f.value];
      const values = list.map(value);
      if (meta?.through) {
        const { table, key, refKey } = meta.through;
        qb.whereRaw(`exists (select 1 from ${q(table)} j where j.${q(key)} = ${q('t')}.${q('id')} and j.${q(refKey)} = any(?::bigint[]))`, [values] as unknown as Knex.RawBinding[]);
      } else if (meta?.type === 'refs') qb.whereRaw(`${q('t')}.${q(col)} && ?::bigint[]`, [values] as unknown as Knex.RawBinding[]);
      else if (values.length === 1) qb.where(ref, values[0] as Knex.Value);
      else qb.whereIn(ref, values as Knex.Value[]);
      return;
    }
  }
}

/** A filter value typed as its column, or a 400 naming the filter. */
function parseFilterValue(name: string, f: FieldMeta, v: unknown): unknown {
  const bad = () => badRequest('errors.bad_filter', { name });
  const s = typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
  if (typeof s !== 'string') throw bad();
  switch (f.type) {
    case 'integer': case 'ref': case 'refs': case 'file': case 'image':
      if (!/^-?\d{1,15}$/.test(s)) throw bad();
      return Number(s);
    case 'decimal': case 'money':
      if (!/^-?\d+(\.\d+)?$/.test(s)) throw bad();
      return s;
    case 'date':
      if (!isIsoDate(s.slice(0, 10))) throw bad();
      return s.slice(0, 10);
    case 'datetime':
      if (Number.isNaN(Date.parse(s))) throw bad();
      return s;
    case 'boolean':
      if (s !== 'true' && s !== 'false') throw bad();
      return s === 'true';
    case 'enum':
      if (!f.values!.includes(s)) throw bad();
      return s;
    default:
      return s;
  }
}

