import knexFactory, { type Knex } from 'knex';
import { loadavg as osLoad } from 'node:os';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { rowHistory } from '../../api/engine/audit.ts';
import { AUDIT_INDEXES, ensureAuditMonths, partitionAuditByMonth } from '../../api/db/audit-partitions.ts';
import { benchUrl } from '../support/http.ts';

/**
 * bench/audit: the audit trail at size (issue 31, docs/performance.md "bench/audit").
 * BENCH_AUDIT_ROWS (default 50 000 and 5 000 000, comma-separated) audit rows in `audit_log`
 * partitioned by month (api/db/audit-partitions.ts), generated in SQL over the last 24 months in
 * id order (the trail only grows): the entities in the proportions of a national install
 * (plantings 60 %, payments 12 %, offences 8 %, eight others), creates and updates with a few
 * fields before and after, 500 users of whom 20 make half the changes. Loaded without indexes,
 * then the migration's indexes built. Then, BENCH_RUNS times each, the statements the back-office
 * runs: the audit list's first page (50 rows, newest first), filtered by entity, filtered by user,
 * a date range of one month, and one record's history (`rowHistory`, the record tab), each with
 * p50 / p99 wall time, and EXPLAIN ANALYZE's execution time of one run (the server's own time,
 * less sensitive to a shared machine's load). BENCH_DATABASE_URL (default the local server); the
 * database is dropped at the end unless BENCH_KEEP=1.
 */
const SIZES = (process.env.BENCH_AUDIT_ROWS || '50000,5000000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS || 200);
const DB = 'ecofond_bench_audit';
const log = (s: string) => console.log(s);
const MONTHS = 24;

const ENTITIES = `ARRAY['plantings','plantings','plantings','plantings','plantings','plantings','plantings','plantings','plantings','plantings',
  'plantings','plantings','payments','payments','offences','offences','users','subject','given-permits','tree-cutting-permits',
  'greening-reports','stack-payments']`;

/** Rows `from`..`to` (ids), their time spread evenly over the 24 months before now, in id order. */
const GENERATE = `
  INSERT INTO audit_log (id, entity, record_id, op, action, user_id, before, after, created_at)
  SELECT g,
         (${ENTITIES})[1 + (hashint(g) % 22)],
         greatest(1, g / 8 - hashint(g * 7) % (CAST(? AS bigint) / 8 / ${MONTHS} + 1)),
         CASE WHEN g % 5 = 0 THEN 'create' WHEN g % 23 = 0 THEN 'action' WHEN g % 97 = 0 THEN 'delete' ELSE 'update' END,
         CASE WHEN g % 23 = 0 THEN 'confirm' END,
         CASE WHEN g % 2 = 0 THEN 1 + (g / 2) % 20 ELSE 21 + hashint(g * 3) % 480 END,
         CASE WHEN g % 5 <> 0 THEN jsonb_build_object('status', 'draft', 'count', g % 40, 'note', 'was ' || (g % 1000)) END,
         jsonb_build_object('status', 'approved', 'count', g % 40 + 1, 'note', 'now ' || (g % 1000), 'region_id', g % 14),
         now() - make_interval(secs => (CAST(? AS float8) - g) / CAST(? AS float8) * ${MONTHS} * 30.44 * 86400)
    FROM generate_series(CAST(? AS bigint), CAST(? AS bigint)) g`;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const f = (n: number) => n.toFixed(2);

async function fill(k: Knex, rows: number): Promise<void> {
  await k.raw('DROP TABLE IF EXISTS audit_log, users CASCADE');
  await k.raw(`CREATE TABLE users (id bigint PRIMARY KEY, fio text, username text)`);
  await k.raw(`INSERT INTO users SELECT g, 'Foydalanuvchi ' || g, 'user' || g FROM generate_series(1, 500) g`);
  // the table as the migrations leave it before 20261207000100, then converted as it does
  await k.raw(`CREATE TABLE audit_log (id bigserial PRIMARY KEY, entity varchar(60) NOT NULL, record_id bigint NOT NULL,
    op varchar(20) NOT NULL, before jsonb, after jsonb, user_id bigint, created_at timestamptz NOT NULL DEFAULT now(), action varchar(60))`);
  await k.transaction((trx) => partitionAuditByMonth(trx));
  for (let m = MONTHS + 1; m >= 1; m--) await ensureAuditMonths(k, new Date(Date.now() - m * 30.44 * 86400_000));
  // loaded without indexes, then built as the migration builds them
  await k.raw('ALTER TABLE audit_log DROP CONSTRAINT audit_log_pkey');
  for (const sql of AUDIT_INDEXES) await k.raw(`DROP INDEX ${/INDEX (\w+)/.exec(sql)![1]}`);
  await k.raw(`CREATE OR REPLACE FUNCTION hashint(bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT abs(hashint8($1))::bigint $$`);
  const t0 = Date.now();
  const batch = 500_000;
  for (let from = 1; from <= rows; from += batch) await k.raw(GENERATE, [rows, rows, rows, from, Math.min(rows, from + batch - 1)]);
  const t1 = Date.now();
  await k.raw('ALTER TABLE audit_log ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id, created_at)');
  for (const sql of AUDIT_INDEXES) await k.raw(sql);
  await k.raw(`SELECT setval('audit_log_id_seq', ?)`, [rows]);
  await k.raw('VACUUM ANALYZE audit_log');
  const size = (await k.raw(`SELECT pg_size_pretty(sum(pg_total_relation_size(relid))) AS s FROM pg_partition_tree('audit_log')`)).rows[0]
    .s;
  log(
    `${rows.toLocaleString('en')} rows: generated in ${((t1 - t0) / 1000).toFixed(1)} s, indexed and analysed in ${((Date.now() - t1) / 1000).toFixed(1)} s, ${size}`,
  );
}

async function measure(k: Knex, rows: number): Promise<Record<string, string>[]> {
  const model = loadMetadata();
  const plantings = model.entities.get('plantings')!;
  // records with a history: ids of plantings rows, picked from the table
  const ids = (await k.raw(`SELECT record_id FROM audit_log WHERE entity = 'plantings' AND id % 997 = 0 LIMIT ?`, [RUNS * 2])).rows.map(
    (r: { record_id: string }) => Number(r.record_id),
  );
  const month = new Date(Date.now() - 3 * 30.44 * 86400_000).toISOString().slice(0, 7);
  const lists: [string, string, (i: number) => unknown[]][] = [
    ['list, first page', 'SELECT * FROM audit_log ORDER BY id DESC LIMIT 50', () => []],
    [
      'list by entity',
      'SELECT * FROM audit_log WHERE entity = ? ORDER BY id DESC LIMIT 50',
      (i) => [['offences', 'users', 'plantings', 'given-permits'][i % 4]],
    ],
    ['list by user', 'SELECT * FROM audit_log WHERE user_id = ? ORDER BY id DESC LIMIT 50', (i) => [1 + ((i * 37) % 500)]],
    [
      'list, one month',
      `SELECT * FROM audit_log WHERE created_at >= ?::timestamptz AND created_at < ?::timestamptz + interval '1 month' ORDER BY id DESC LIMIT 50`,
      () => [`${month}-01 00:00+05`, `${month}-01 00:00+05`],
    ],
  ];
  const out: Record<string, string>[] = [];
  const time = async (label: string, run: (i: number) => Promise<unknown>, explain: () => Promise<number>) => {
    for (let i = 0; i < 5; i++) await run(i);
    const wall: number[] = [];
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await run(i);
      wall.push(performance.now() - t);
    }
    const cpu = process.cpuUsage(cpu0);
    const ex = await explain();
    out.push({
      rows: rows.toLocaleString('en'),
      query: label,
      p50: f(pct(wall, 50)),
      p99: f(pct(wall, 99)),
      explain: f(ex),
      'client cpu/run': f((cpu.user + cpu.system) / 1000 / RUNS),
    });
  };
  const exec = async (sql: string, b: unknown[]) => {
    const plan = (await k.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, b as Knex.RawBinding[])).rows[0]['QUERY PLAN'][0];
    return Number(plan['Execution Time']);
  };
  for (const [label, sql, b] of lists)
    await time(
      label,
      (i) => k.raw(sql, b(i) as Knex.RawBinding[]),
      () => exec(sql, b(1)),
    );
  // when each record was made, as the record's created_at would say (the tab passes it): record r's
  // entries are rows 8r onwards (GENERATE), so it was made by the time of row 8r — computed, so that
  // finding it reads nothing of the trail before the timed runs
  const half = Math.max(1, Math.floor(ids.length / 2));
  const fresh: number[] = ids.length > 1 ? ids.slice(half) : ids;
  const span = MONTHS * 30.44 * 86400_000;
  const made = new Map(fresh.map((r) => [r, new Date(Date.now() - ((rows - 8 * r) / rows) * span)]));
  // the history's statement as rowHistory makes it, for its plan: from the row's month (since) or every month
  const historyPlan = (id: number, since?: Date) => {
    const q = k('audit_log as a').leftJoin('users as u', 'u.id', 'a.user_id').where('a.entity', 'plantings').where('a.record_id', id);
    if (since) q.where('a.created_at', '>=', k.raw(`?::timestamptz - interval '1 day'`, [since.toISOString()]));
    const n = q.orderBy('a.id', 'desc').limit(500).select('a.*', 'u.fio').toSQL().toNative();
    return exec(n.sql.replace(/\$\d+/g, '?'), [...n.bindings]);
  };
  await time(
    'a record’s history, from its creation',
    (i) => rowHistory(k, model, plantings, fresh[i % fresh.length], 500, made.get(fresh[i % fresh.length])),
    () => historyPlan(fresh[0], made.get(fresh[0])!),
  );
  await time(
    'a record’s history, every month',
    (i) => rowHistory(k, model, plantings, ids[i % half]),
    () => historyPlan(ids[0]),
  );
  return out;
}

async function main(): Promise<void> {
  const admin = knexFactory({ client: 'pg', connection: benchUrl('postgres'), pool: { min: 0, max: 1 } });
  await admin.raw(`DROP DATABASE IF EXISTS ${DB} WITH (force)`);
  await admin.raw(`CREATE DATABASE ${DB}`);
  const db = openDatabase({ url: benchUrl(DB), poolMax: 2 });
  const k = db.knex;
  const all: Record<string, string>[] = [];
  try {
    for (const rows of SIZES) {
      log(
        `load average before ${rows.toLocaleString('en')}: ${osLoad()
          .map((x) => x.toFixed(2))
          .join(' ')}`,
      );
      await fill(k, rows);
      const r = await measure(k, rows);
      all.push(...r);
      log(
        `load average after: ${osLoad()
          .map((x) => x.toFixed(2))
          .join(' ')}`,
      );
      console.table(r);
    }
    console.table(all);
  } finally {
    await k.destroy();
    if (process.env.BENCH_KEEP !== '1') await admin.raw(`DROP DATABASE IF EXISTS ${DB} WITH (force)`);
    await admin.destroy();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
