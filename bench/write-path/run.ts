import knexFactory from 'knex';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { buildRegistry } from '../../api/registry.ts';
import { migrate } from '../../api/db/migrator.ts';
import { seed } from '../../seeds/index.ts';
import { Repository } from '../../api/engine/repository.ts';
import { Workflow } from '../../api/engine/workflow.ts';
import { withDatabase } from '../../test/support/pg-url.ts';
import type { Principal } from '../../api/auth/ability.ts';

/**
 * bench/write-path: what the one write path costs — each change checked against the caller's scope
 * before and after, validated, its references looked up, its hook run and one audit row written in
 * its transaction. Measured in-process (no HTTP) on a fresh database of the PostgreSQL server named by
 * BENCH_DATABASE_URL (default the local one), as a region-scoped fund user:
 *   create, update and a single workflow move, one row at a time (p50 / p99 per change);
 *   a bulk move of 1 000 rows in one transaction (confirm: each split by its hook);
 *   an import of 10 000 payments with createMany (rows/s).
 * Prints the figures; docs/performance.md keeps them with the machine.
 */
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'ecofond_bench_write';
const N = Number(process.env.BENCH_ROWS || 500);
const BULK = 1000;
const IMPORT = Number(process.env.BENCH_IMPORT_ROWS || 10_000);

const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
await admin.raw(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await admin.raw(`CREATE DATABASE ${DB}`);
await admin.destroy();
const db = openDatabase({ url: withDatabase(url, DB), poolMax: 4 });
const knex = db.knex;
const model = buildRegistry().bind(loadMetadata());
await migrate(knex, model);
await seed(knex, model, { adminPassword: 'bench-password' });

const region = (await knex('regions').orderBy('id').first('id')).id as number;
const category = (await knex('subject_categories').first('id')).id as number;
const income = (await knex('income_types').where({ code: '3450715' }).first('id')).id as number;
const actions = new Set([...model.actions.keys()]);
const user: Principal = {
  id: (await knex('users').where({ username: 'admin' }).first('id')).id,
  username: 'admin',
  actions,
  region_id: region,
  branch_id: null,
  subject_id: null,
};
const repo = (entity: string) => new Repository({ knex, model, principal: user, lang: 'uz' }, model.entities.get(entity)!);

const subjects = await repo('subject').createMany(
  Array.from({ length: 20 }, (_, i) => ({ inn: String(500000000 + i), name: `Bench ${i}`, region_id: region, category_id: category })),
);
const stack = await repo('stack-payments').create({ number: 'BENCH', statement_date: '2025-06-01' });
const payment = (i: number) => ({
  stack_id: stack.id,
  paid_on: '2025-06-01',
  number: `B-${i}`,
  amount: `${1000 + i}.50`,
  payment_type: 'card',
  income_type_id: income,
});

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(1);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms (${s.length} changes)`;
}
async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = process.hrtime.bigint();
  const r = await fn();
  return [r, Number(process.hrtime.bigint() - t) / 1e6];
}

const created: number[] = [];
const createMs: number[] = [];
for (let i = 0; i < N; i++) {
  const [row, ms] = await timed(() => repo('payments').create(payment(i)));
  created.push(row.id as number);
  createMs.push(ms);
}
console.log(`create, one row a transaction: ${stats(createMs)}`);

const updateMs: number[] = [];
for (const id of created) {
  const version = (await knex('payments').where({ id }).first('version')).version;
  updateMs.push((await timed(() => repo('payments').update(id, { purpose: 'Kompensatsiya (bench)' }, version)))[1]);
}
console.log(`update, one row a transaction: ${stats(updateMs)}`);

const moveMs: number[] = [];
for (const [i, id] of created.entries()) {
  moveMs.push((await timed(() => new Workflow(repo('payments')).run(id, 'attach', { subject_id: subjects[i % subjects.length].id })))[1]);
}
console.log(`workflow move (attach), one row: ${stats(moveMs)}`);

const bulk = await repo('payments').createMany(Array.from({ length: BULK }, (_, i) => payment(N + i)));
for (const chunk of [bulk.slice(0, BULK / 2), bulk.slice(BULK / 2)]) {
  await new Workflow(repo('payments')).runMany('attach', { ids: chunk.map((r) => r.id), subject_id: subjects[0].id });
}
const [, bulkMs] = await timed(() => new Workflow(repo('payments')).runMany('confirm', { ids: bulk.map((r) => r.id) }));
console.log(
  `bulk confirm of ${BULK} rows in one transaction (each split by its hook): ${bulkMs.toFixed(0)} ms, ${(bulkMs / BULK).toFixed(2)} ms a row`,
);

const [, importMs] = await timed(() =>
  repo('payments').createMany(
    Array.from({ length: IMPORT }, (_, i) => payment(N + BULK + i)),
    { action: 'import' },
  ),
);
console.log(`createMany of ${IMPORT} payments (an import): ${importMs.toFixed(0)} ms, ${Math.round(IMPORT / (importMs / 1000))} rows/s`);

const [{ n }] = await knex('audit_log').count<{ n: number }[]>({ n: '*' });
console.log(`audit rows written: ${n}`);
await db.close();
const drop = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
await drop.raw(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await drop.destroy();
