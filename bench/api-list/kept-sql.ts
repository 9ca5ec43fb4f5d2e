import knexFactory from 'knex';
import { benchModel } from './setup.ts';
import { Repository } from '../../api/engine/repository.ts';
import { parseListParams } from '../../api/engine/list-params.ts';
import { selectColumns } from '../../api/engine/sql.ts';
import { keepSql, keptSql, listShape } from '../../api/engine/list-sql.ts';
import type { Principal } from '../../api/auth/ability.ts';

/**
 * The CPU a list's SQL costs the API before it is sent (docs/decisions/0043): bench/api-list's
 * filtered page and its capped count, as a region-scoped caller, built and compiled by knex
 * afresh, against its shape's kept text bound to its values (what knex.raw does with it). No
 * database: `node --import tsx bench/api-list/kept-sql.ts`. CPU time (process.cpuUsage), so that a
 * machine others load changes it less than a wall clock.
 */
const knex = knexFactory({ client: 'pg' });
const model = benchModel();
const e = model.entities.get('bench-payments')!;
const principal: Principal = { id: 2, username: 's', actions: new Set([9901]), region_id: 6, branch_id: null, subject_id: null };
const query = { from_paid_on: '2025-01-01', to_paid_on: '2025-12-31', range: '[0,24]' };
const N = Number(process.env.BENCH_LISTS || 20000);

function compiled() {
  const repo = new Repository({ knex, model, principal, lang: 'uz' }, e);
  const params = parseListParams(e, query);
  const page = repo
    .applyOrder(repo.applyFilters(repo.scoped('read'), params), params)
    .select(knex.raw(selectColumns(e).join(', ')))
    .offset(params.offset)
    .limit(params.limit)
    .toSQL();
  const count = knex
    .select(knex.raw('count(*)::int as n'))
    .from(repo.applyFilters(repo.scoped('read'), params).select(knex.raw('1')).limit(10001).as('c'))
    .toSQL();
  return { page, count, params };
}

function kept() {
  const repo = new Repository({ knex, model, principal, lang: 'uz' }, e);
  const params = parseListParams(e, query);
  const shape = listShape(e, repo.ability, 'read', params);
  return (['page', 'count'] as const).map((kind) => {
    const values = [...shape.bindings, ...(kind === 'page' ? [params.limit] : [10001])];
    const key = `${kind}\u0000${shape.key}`;
    let sql = keptSql(e, key, values.length);
    if (sql === undefined) {
      keepSql(e, key, compiled()[kind], values);
      sql = keptSql(e, key, values.length);
      if (sql === undefined) throw new Error(`the ${kind}'s text was not kept`);
    }
    return knex
      .raw(sql, values as never[])
      .toSQL()
      .toNative();
  });
}

/** What knex sends for the page and the count, built and compiled afresh. */
function compiledNative() {
  const { page, count } = compiled();
  return [page.toNative(), count.toNative()];
}

function cpu(fn: () => unknown): string {
  for (let i = 0; i < 2000; i++) fn();
  const t = process.cpuUsage();
  for (let i = 0; i < N; i++) fn();
  const d = process.cpuUsage(t);
  return ((d.user + d.system) / N).toFixed(1);
}

for (let r = 0; r < 3; r++)
  console.log(`CPU µs a list (page + count): knex builds and compiles ${cpu(compiledNative)}, kept text ${cpu(kept)}`);
await knex.destroy();
