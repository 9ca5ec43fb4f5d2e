import knexFactory from 'knex';
import { cpus, loadavg } from 'node:os';
import { createReadStream, createWriteStream, existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type pg from 'pg';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { buildRegistry } from '../../api/registry.ts';
import { migrate } from '../../api/db/migrator.ts';
import { seed } from '../../seeds/index.ts';
import { Repository } from '../../api/engine/repository.ts';
import { statementFile, statementRow } from '../../test/support/statement.ts';
import { importStatement } from '../../api/modules/fund/statement-import.ts';
import { ApiError } from '../../api/http/errors.ts';
import { importMaxRows } from '../../api/engine/import.ts';
import { copyConnection } from '../../api/engine/copy-create.ts';
import { withDatabase } from '../../test/support/pg-url.ts';
import type { Principal } from '../../api/auth/ability.ts';
import { cpuSeconds } from '../support/proc.ts';

/**
 * bench/import: a bank statement of BENCH_IMPORT_ROWS (100 000) payments imported into a stack of
 * a fresh database on the server named by BENCH_DATABASE_URL (default the local one), in-process
 * through the function the route calls (statement-import.ts), as a region-scoped fund user:
 *   the good file — read from its path as it streams, every row checked, written in one transaction, payers that
 *   are subjects (BENCH_KNOWN_PAYERS of the rows, 0.1 %: 100) attached — its time and the peak RSS;
 *   the same file with one bad row at BENCH_BAD_ROW (row 50 001): refused, nothing written, the
 *   error naming that row.
 * Beside them, the database's own floors on this machine at that moment: the same rows inserted
 * inside the server (INSERT … SELECT), and COPYed from this process straight into the table
 * (COPY … FROM STDIN of their text, no checks, no audit rows) — both rolled back.
 * The statements are written by a child process (its memory is not the import's peak RSS) and
 * kept in the temp folder for the next run. More than 200 000 rows: ECOFOND_IMPORT_MAX_ROWS too
 * (`ECOFOND_IMPORT_MAX_ROWS=1000000 BENCH_IMPORT_ROWS=1000000 npm run bench:import`).
 * ECOFOND_IMPORT_COPY=0: the batched path (PGlite's).
 * Prints the figures; docs/performance.md keeps them with the machine.
 */
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_IMPORT_DB || 'ecofond_bench_import';
const N = Number(process.env.BENCH_IMPORT_ROWS || 100_000);
const BAD_ROW = Number(process.env.BENCH_BAD_ROW || 50_001);
const KNOWN = Number(process.env.BENCH_KNOWN_PAYERS ?? 0.001);
const SUBJECTS = 200;

// the child that writes a statement: BENCH_IMPORT_WRITE=<path> [BENCH_IMPORT_SPOIL=<row>]
if (process.env.BENCH_IMPORT_WRITE) {
  const inns = Array.from({ length: SUBJECTS }, (_, i) => String(600000000 + i));
  const codes = (process.env.BENCH_IMPORT_CODES ?? '').split(',');
  const bad = Number(process.env.BENCH_IMPORT_SPOIL || 0);
  const file = await statementFile({
    rows: N,
    codes,
    known: KNOWN > 0 ? { inns, every: Math.round(1 / KNOWN) } : undefined,
    spoil: (row) => (row === bad ? statementRow(row - 2, { rows: N, codes }).map((v, i) => (i === 2 ? '12,345' : v)) : undefined),
  });
  writeFileSync(process.env.BENCH_IMPORT_WRITE, file);
  process.exit(0);
}
if (N > importMaxRows()) {
  console.error(`${N} rows is more than ECOFOND_IMPORT_MAX_ROWS (${importMaxRows()}): run with ECOFOND_IMPORT_MAX_ROWS=${N}`);
  process.exit(2);
}

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
const codes = (await knex('income_types').orderBy('id').limit(5).pluck('code')) as string[];
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
await repo('subject').createMany(
  Array.from({ length: SUBJECTS }, (_, i) => ({
    inn: String(600000000 + i),
    name: `Bench ${i}`,
    region_id: region,
    category_id: category,
  })),
);

/**
 * The statement's path: a header and N rows, one of them spoilt when `bad` is given, written by a
 * child process (kept in the temp folder for the next run); the import reads it from there.
 */
const statement = (bad?: number): string => {
  const path = join(tmpdir(), `ecofond-bench-import-${N}-${KNOWN}-${bad ?? 0}-${codes.join('_')}.xlsx`);
  if (!existsSync(path)) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname], {
      env: { ...process.env, BENCH_IMPORT_WRITE: path, BENCH_IMPORT_SPOIL: String(bad ?? 0), BENCH_IMPORT_CODES: codes.join(',') },
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('the statement could not be written');
  }
  return path;
};

console.log(
  `load average at the start: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} on ${cpus().length} cores`,
);
const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
const peak = () => process.resourceUsage().maxRSS * 1024;

let t = performance.now();
const good = statement();
console.log(
  `statement of ${N} rows: ${mb(statSync(good).size)} (written in ${(performance.now() - t).toFixed(0)} ms, or kept from a run before), read by the import from ${good}`,
);
console.log(
  `path: ${await knex.transaction(async (trx) => ((await copyConnection(trx)) ? 'COPY into a staging table (PostgreSQL)' : 'batched INSERTs (createStream)'))}`,
);
// what the insert's floor is made of: the table's indexes (decision 0087)
const idx = (await knex.raw(`SELECT indexname FROM pg_indexes WHERE tablename = 'payments' ORDER BY indexname`)).rows.map(
  (r: { indexname: string }) => r.indexname,
);
console.log(`indexes of payments (each also on every year's partition): ${idx.length}, ${idx.join(', ')}`);
const rssBefore = peak();
// what the process holds before the import (the whole app loaded): the JS heap, buffers, the rest
const heldBefore = (() => {
  const m = process.memoryUsage();
  return `RSS ${mb(m.rss)}: JS heap ${mb(m.heapUsed)} used of ${mb(m.heapTotal)}, external ${mb(m.external)} (array buffers ${mb(m.arrayBuffers)}; the statement is on disk), code and the rest ${mb(m.rss - m.heapTotal - m.external)}`;
})();
console.log(`before the import: ${heldBefore}`);

const stack = await repo('stack-payments').create({ number: 'BENCH-1', statement_date: '2025-12-01' });
// BENCH_ONLY_BAD=1: only the file with a bad row (what reading and checking cost, nothing written)
if (!process.env.BENCH_ONLY_BAD) {
  const stages: string[] = [];
  // BENCH_TRACE=1: the import's statements, counted and timed by their first words
  const trace = new Map<string, { n: number; ms: number }>();
  if (process.env.BENCH_TRACE) {
    const started = new Map<string, number>();
    knex.on('query', (q: { __knexQueryUid: string }) => started.set(q.__knexQueryUid, performance.now()));
    knex.on('query-response', (_r: unknown, q: { __knexQueryUid: string; sql: string }) => {
      const k = q.sql.slice(0, 60);
      const e = trace.get(k) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += performance.now() - (started.get(q.__knexQueryUid) ?? performance.now());
      trace.set(k, e);
    });
  }
  // the database's CPU time: its backends' on this machine (/proc, a local server only), read before and after
  const backendCpu = async (): Promise<Map<number, number>> => {
    const out = new Map<number, number>();
    for (const { pid } of (await knex.raw('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')).rows as {
      pid: number;
    }[]) {
      const s = cpuSeconds(pid); // null: not on this machine
      if (s !== null) out.set(pid, s * 1000);
    }
    return out;
  };
  const db0 = await backendCpu();
  t = performance.now();
  const cpu0 = process.cpuUsage();
  const began: Record<string, number> = { read: 0 };
  // what the process held when its RSS was highest during the import (sampled every 50 ms)
  let top = process.memoryUsage();
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > top.rss) top = m;
  }, 50);
  const result = await importStatement({
    knex,
    repo,
    stackId: stack.id as number,
    file: good,
    onProgress: (d, _t, s) => {
      stages.push(`${s} ${d}`);
      began[s] ??= performance.now() - t;
    },
  });
  const ms = performance.now() - t;
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpu0);
  const db1 = await backendCpu();
  const dbCpu = [...db1].reduce((sum, [pid, ms]) => sum + ms - (db0.get(pid) ?? 0), 0);
  const at = [...Object.entries(began), ['end', ms] as const];
  console.log(
    `stages: ${at
      .slice(0, -1)
      .map(([s, v], i) => `${s} ${((at[i + 1][1] as number) - (v as number)).toFixed(0)} ms`)
      .join(', ')}`,
  );
  console.log(`import of ${N} rows: ${ms.toFixed(0)} ms (${Math.round(N / (ms / 1000))} rows/s), ${JSON.stringify(result)}`);
  console.log(
    `the Node process's CPU time during the import: ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms (user ${(cpu.user / 1000).toFixed(0)}, system ${(cpu.system / 1000).toFixed(0)}); the database's backends' CPU time: ${db1.size ? `${dbCpu.toFixed(0)} ms` : 'not on this machine'}; load average now ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  console.log(`peak RSS ${mb(peak())} (before the import ${mb(rssBefore)}); progress reports: ${stages.length}, last "${stages.at(-1)}"`);
  console.log(
    `the highest RSS sampled during the import: ${mb(top.rss)}: JS heap ${mb(top.heapUsed)} used of ${mb(top.heapTotal)}, external ${mb(top.external)} (array buffers ${mb(top.arrayBuffers)}), code and the rest ${mb(top.rss - top.heapTotal - top.external)}`,
  );
  for (const [k, v] of [...trace].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)) console.log(`  ${v.n} × ${v.ms.toFixed(0)} ms  ${k}`);
  // the database's own floor on this machine now: the same rows copied inside the server (no client,
  // no checks, no audit rows) — their indexes, foreign keys and triggers — then rolled back
  const cols =
    'stack_id, paid_on, number, amount, purpose, payer, payer_inn, payer_account, payment_type, income_type_id, income_code, status, created_by, updated_by';
  let floor = Number.NaN;
  let floorCpu = Number.NaN;
  await knex
    .transaction(async (trx) => {
      const pid = (await trx.raw('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const stat = () => (cpuSeconds(pid) ?? Number.NaN) * 1000;
      const c0 = stat();
      const t0 = performance.now();
      await trx.raw(`INSERT INTO payments (${cols}) SELECT ${cols} FROM payments WHERE stack_id = ?`, [stack.id as number]);
      floor = performance.now() - t0;
      floorCpu = stat() - c0;
      throw new Error('rolled back');
    })
    .catch(() => undefined);
  console.log(
    `the database alone inserting the same ${N} rows (INSERT … SELECT, rolled back): ${floor.toFixed(0)} ms, its backend's CPU time ${floorCpu.toFixed(0)} ms`,
  );
  // the COPY floor: the same rows' text (COPY … TO a file first), COPYed from this process into the table, rolled back
  const text = join(tmpdir(), `ecofond-bench-import-${process.pid}.copy`);
  let copyFloor = Number.NaN;
  await knex
    .transaction(async (trx) => {
      const conn = (await (trx.client as { acquireConnection(): Promise<unknown> }).acquireConnection()) as pg.Client;
      await pipeline(
        conn.query(copyTo(`COPY (SELECT ${cols} FROM payments WHERE stack_id = ${Number(stack.id)} ORDER BY id) TO STDOUT`)),
        createWriteStream(text),
      );
      const t0 = performance.now();
      await pipeline(createReadStream(text), conn.query(copyFrom(`COPY payments (${cols}) FROM STDIN`)));
      copyFloor = performance.now() - t0;
      throw new Error('rolled back');
    })
    .catch(() => undefined);
  rmSync(text, { force: true });
  console.log(
    `COPY floor: the same ${N} rows COPYed from this process into payments (no checks, no audit rows, rolled back): ${copyFloor.toFixed(0)} ms; the import took ${(ms / copyFloor).toFixed(1)}× it`,
  );
  const [{ n: audit }] = await knex('audit_log').where({ entity: 'payments' }).count<{ n: number }[]>({ n: '*' });
  console.log(
    `payments written: ${(await knex('payments').where({ stack_id: stack.id }).count({ n: '*' }))[0].n}, payment audit rows: ${audit}`,
  );
}
const spoilt = statement(BAD_ROW);
const stack2 = await repo('stack-payments').create({ number: 'BENCH-2', statement_date: '2025-12-01' });
t = performance.now();
try {
  await importStatement({ knex, repo, stackId: stack2.id as number, file: spoilt });
  console.log('the file with a bad row was taken: WRONG');
} catch (err) {
  const e = err as ApiError;
  console.log(
    `one bad row at ${BAD_ROW}: refused in ${(performance.now() - t).toFixed(0)} ms, ${e.status} ${e.messageKey} ${JSON.stringify(e.fieldErrors)} ${JSON.stringify(e.details)}`,
  );
}
console.log(`payments written for it: ${(await knex('payments').where({ stack_id: stack2.id }).count({ n: '*' }))[0].n}`);

console.log(
  `load average at the end: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
await db.close();
if (process.env.BENCH_KEEP) process.exit(0);
const drop = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
await drop.raw(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await drop.destroy();
