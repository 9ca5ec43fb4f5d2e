import { loadavg } from 'node:os';
import knexFactory from 'knex';
import { benchUrl } from '../support/http.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { searchExpression } from '../../api/engine/sql.ts';
import { cpuSeconds } from '../support/proc.ts';

/**
 * bench/import/index-costs: what each index of `payments` costs an import (decision 0087). On the
 * database `BENCH_KEEP=1 npm run bench:import` leaves (BENCH_IMPORT_DB, ecofond_bench_import), the
 * statement's rows (the stack BENCH-1) are inserted again into `payments` by the server alone —
 * the bench's INSERT … SELECT floor, from a temp copy of them — in a transaction rolled back, once
 * with the table as it is and once per variant: each index dropped (in the same transaction), the
 * trigram index built otherwise, or the indexes named in BENCH_DROP dropped together. The figure
 * is the backend's CPU time (/proc/<pid>/stat: a local server only), which the machine's load
 * moves far less than the wall time; each variant's run is paired with a run of the table as it
 * is, taken in turn, BENCH_REPEAT (3) times after a warm-up, and the median of the pairs'
 * differences is what the variant saves.
 *   BENCH_ONLY=drop:<index>,search,… runs only the variants whose names begin so; BENCH_ROWS=n the statement's first n rows.
 */
const DB = process.env.BENCH_IMPORT_DB || 'ecofond_bench_import';
const REPEAT = Number(process.env.BENCH_REPEAT || 3);
const ONLY = (process.env.BENCH_ONLY || '').split(',').filter(Boolean);
/** the statement's first BENCH_ROWS rows only (default all of them): the costs scale with the rows */
const LIMIT = Number(process.env.BENCH_ROWS || 0);
const COLS =
  'stack_id, paid_on, number, amount, purpose, payer, payer_inn, payer_account, payment_type, income_type_id, income_code, status, created_by, updated_by';

const knex = knexFactory({ client: 'pg', connection: benchUrl(DB), pool: { min: 1, max: 1 } });
const stack = (await knex('payment_stacks').where({ number: 'BENCH-1' }).first('id'))?.id as number | undefined;
if (!stack) {
  console.error(`no stack BENCH-1 in ${DB}: run BENCH_KEEP=1 npm run bench:import first`);
  process.exit(2);
}
await knex.raw(`CREATE TEMP TABLE src AS SELECT ${COLS} FROM payments WHERE stack_id = ? ORDER BY id${LIMIT ? ` LIMIT ${LIMIT}` : ''}`, [
  stack,
]);
const rows = Number((await knex.raw('SELECT count(*)::int AS n FROM src')).rows[0].n);
const pid = (await knex.raw('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
const cpu = () => {
  const s = cpuSeconds(pid);
  if (s === null) throw new Error(`the backend ${pid} is not a process of this machine (/proc)`);
  return s * 1000;
};
const indexes = (await knex.raw(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'payments' ORDER BY indexname`)).rows as {
  indexname: string;
  indexdef: string;
}[];
const search = indexes.find((i) => /gin_trgm_ops/.test(i.indexdef));
const expr = search ? /USING gin \((.*) gin_trgm_ops\)$/.exec(search.indexdef)?.[1] : undefined;

const variants: [string, string[], string[]?][] = [['as it is', []]];
for (const i of indexes) if (!i.indexname.endsWith('_pkey')) variants.push([`drop:${i.indexname}`, [`DROP INDEX ${i.indexname}`]]);
if (search && expr) {
  variants.push([
    'search as GIN, fastupdate off',
    [
      `DROP INDEX ${search.indexname}`,
      `CREATE INDEX ${search.indexname} ON payments USING gin (${expr} gin_trgm_ops) WITH (fastupdate = off)`,
    ],
  ]);
  const payments = loadMetadata().entities.get('payments')!;
  variants.push([
    'search without purpose (GIN over number, payer, payer_inn)',
    [
      `DROP INDEX ${search.indexname}`,
      `CREATE INDEX ${search.indexname} ON payments USING gin ((${searchExpression(payments, ['number', 'payer', 'payer_inn'])}) gin_trgm_ops)`,
    ],
  ]);
  // the insert's trigram entries left in the index's pending list (merged later by autovacuum), not merged into it by the insert
  variants.push(['search, pending list not merged by the insert', ["SET LOCAL gin_pending_list_limit = '2000MB'"]]);
  // the pending list merged by the insert in larger batches: its merges sort in work_mem (4 MB by default)
  for (const mb of [64, 256]) variants.push([`search, merged with work_mem ${mb}MB`, [`SET LOCAL work_mem = '${mb}MB'`]]);
  // the pending list left to the end of the insert and merged then, in one pass (maintenance_work_mem), in the same transaction
  const clean = `SELECT count(gin_clean_pending_list(i)) FROM (SELECT inhrelid::regclass AS i FROM pg_inherits WHERE inhparent = '${search.indexname}'::regclass UNION ALL SELECT '${search.indexname}'::regclass) AS x WHERE (SELECT relkind FROM pg_class WHERE oid = i) = 'i'`;
  for (const [limit, mem] of [
    ['64MB', '64MB'],
    ['2000MB', '256MB'],
    ['2000MB', '1GB'],
  ])
    variants.push([
      `search, pending list ${limit} merged at the end (maintenance_work_mem ${mem}, work_mem ${mem})`,
      [`SET LOCAL gin_pending_list_limit = '${limit}'`, `SET LOCAL maintenance_work_mem = '${mem}'`, `SET LOCAL work_mem = '${mem}'`],
      [clean],
    ]);
  variants.push([
    'search as GiST',
    [`DROP INDEX ${search.indexname}`, `CREATE INDEX ${search.indexname} ON payments USING gist (${expr} gist_trgm_ops)`],
  ]);
}
// for scale: the table with its primary key alone
variants.push(['only the primary key', indexes.filter((i) => !i.indexname.endsWith('_pkey')).map((i) => `DROP INDEX ${i.indexname}`)]);
if (process.env.BENCH_DROP) {
  const drop = process.env.BENCH_DROP.split(',').filter(Boolean);
  variants.push([`drop together: ${drop.join(', ')}`, drop.map((i) => `DROP INDEX ${i.replace(/[^\w]/g, '')}`)]);
}

/** One rolled-back insert of the rows after `ddl` (and `after` it, timed with it): its backend CPU and wall time (ms). */
async function once(ddl: string[], after: string[] = []): Promise<{ cpu: number; ms: number }> {
  await knex.raw('BEGIN');
  try {
    for (const s of ddl) await knex.raw(s);
    const c0 = cpu();
    const t0 = performance.now();
    await knex.raw(`INSERT INTO payments (${COLS}) SELECT ${COLS} FROM src`);
    for (const s of after) await knex.raw(s);
    return { cpu: cpu() - c0, ms: performance.now() - t0 };
  } finally {
    await knex.raw('ROLLBACK');
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

console.log(`bench/import/index-costs on ${DB}: ${rows} rows inserted by INSERT … SELECT, rolled back; load average ${load()}`);
await once([]);
// each variant's runs paired with runs of the table as it is, taken in turn, so that a machine whose
// load drifts moves both alike: the figure is the median of the pairs' differences
for (const [name, ddl, after] of variants.slice(1)) {
  if (ONLY.length && !ONLY.some((o) => name.startsWith(o))) continue;
  const base: number[] = [];
  const runs: { cpu: number; ms: number }[] = [];
  for (let i = 0; i < REPEAT; i++) {
    base.push((await once([])).cpu);
    runs.push(await once(ddl, after));
  }
  const saved = median(base.map((b, i) => b - runs[i].cpu));
  const c = median(runs.map((r) => r.cpu));
  console.log(
    `${name}: backend CPU ${c.toFixed(0)} ms (runs ${runs.map((r) => r.cpu.toFixed(0)).join(', ')}; the table as it is ${base.map((b) => b.toFixed(0)).join(', ')}), wall ${median(runs.map((r) => r.ms)).toFixed(0)} ms; ${saved.toFixed(0)} ms less (${((saved / median(base)) * 100).toFixed(0)} %)`,
  );
}
console.log(`load average at the end ${load()}`);
await knex.destroy();
