import os from 'node:os';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { DEMO_ADMIN_PASSWORD } from '../../seeds/index.ts';
import { DEMO_USERS } from '../../seeds/demo-users.ts';
import { Client, benchUrl, measure, startServer, type Measured } from '../support/http.ts';

/**
 * bench/national/lists: the staff lists on the national data (bench/national/generate.ts, database
 * `ecofond_national` or NATIONAL_DB) over HTTP, through the generic API as the back-office asks
 * them (react-admin's `sort` / `range`, filters as parameters), 25 a page — as the administrator
 * and as a region-scoped demo user holding the list's read right:
 *   - plantings (20 M rows): filtered by region and a year, newest first; the first page and page
 *     41 (offset 1 000); and a read by id of a random planting;
 *   - payments (1 M): region and a year, newest first;
 *   - offences (1 M): region and state "closed", newest first.
 * BENCH_SECONDS (6) a run, BENCH_CONCURRENCY (8) connections. Target (issue 16): staff list p99 < 300 ms.
 */
const DB = process.env.NATIONAL_DB || 'ecofond_national';
const SECONDS = Number(process.env.BENCH_SECONDS || 6);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8);
const log = (s: string) => console.log(s);
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');

const model = loadMetadata();
const entity = (name: string) => {
  const e = model.entities.get(name);
  if (!e) throw new Error(`no entity ${name}`);
  return e;
};
const db = openDatabase({ url: benchUrl(DB), poolMax: 1 });
/** the demo user bound to a region who may read the entity (its read action id, from the metadata) */
async function scopedReader(name: string): Promise<{ username: string; region: number }> {
  const row = (
    await db.knex.raw(
      `select u.username, u.region_id from users u join user_roles ur on ur.user_id = u.id join role_actions ra on ra.role_id = ur.role_id
     where ra.action_id = ? and u.region_id is not null and lower(u.username) = any(?) order by u.id limit 1`,
      [entity(name).access.read, DEMO_USERS.map((u) => u.username.toLowerCase())],
    )
  ).rows[0];
  if (!row) throw new Error(`no region-scoped demo user reads ${name}`);
  return { username: row.username, region: Number(row.region_id) };
}
const readers = {
  plantings: await scopedReader('plantings'),
  payments: await scopedReader('payments'),
  offences: await scopedReader('offences'),
};
const ids = (await db.knex.raw('select count(*) as n from plantings')).rows[0];
/** some plantings' ids, of one region or of all: what a read by id asks for */
async function sampleIds(region?: number): Promise<number[]> {
  for (const sample of ['tablesample system (1)', '']) {
    const rows = (
      await db.knex.raw(`select id from plantings ${sample} ${region ? 'where region_id = ?' : ''} limit 5000`, region ? [region] : [])
    ).rows;
    if (rows.length >= 100 || !sample) return rows.map((r: { id: string }) => Number(r.id));
  }
  return [];
}
const someIds = await sampleIds();
const regionIdsSample = await sampleIds(readers.plantings.region);
const counts = (await db.knex.raw('select (select count(*) from payments) as payments, (select count(*) from offences) as offences'))
  .rows[0];
const year = Number(new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 4)) - 1;
await db.close();

const loadBefore = load();
const server = await startServer(benchUrl(DB));
const client = new Client(server.port, CONCURRENCY);

async function login(username: string): Promise<Record<string, string>> {
  const res = await fetch(`http://127.0.0.1:${client.port}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_ADMIN_PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
  return { Authorization: `Bearer ${((await res.json()) as { token: string }).token}`, Language: 'uz' };
}

const enc = encodeURIComponent;
const page = (offset: number) => `range=${enc(`[${offset},${offset + 24}]`)}`;
const sort = (field: string) => `sort=${enc(JSON.stringify([field, 'DESC']))}`;
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
const regionIds = Array.from({ length: 14 }, (_, i) => i + 1);

try {
  const admin = await login('admin');
  const scoped = {
    plantings: await login(readers.plantings.username),
    payments: await login(readers.payments.username),
    offences: await login(readers.offences.username),
  };
  type Run = { name: string; headers: Record<string, string>; next: () => string };
  const runs: Run[] = [];
  for (const [who, headers, region, sample] of [
    ['administrator', admin, () => pick(regionIds), someIds],
    [
      `${readers.plantings.username} (region ${readers.plantings.region})`,
      scoped.plantings,
      () => readers.plantings.region,
      regionIdsSample,
    ],
  ] as const) {
    for (const offset of [0, 1000]) {
      runs.push({
        name: `plantings, region + year ${year}, newest first, offset ${offset} — ${who}`,
        headers,
        next: () =>
          `/api/ecofund-plantings/plantings?region_id=${region()}&from_planted_on=${year}-01-01&to_planted_on=${year}-12-31&${sort('planted_on')}&${page(offset)}`,
      });
    }
    runs.push({ name: `planting by id — ${who}`, headers, next: () => `/api/ecofund-plantings/plantings/${pick(sample)}` });
  }
  for (const [who, headers, region] of [
    ['administrator', admin, () => pick(regionIds)],
    [`${readers.payments.username} (region ${readers.payments.region})`, scoped.payments, () => readers.payments.region],
  ] as const) {
    runs.push({
      name: `payments, region + year ${year}, newest first — ${who}`,
      headers,
      next: () =>
        `/api/ecofund/payments?region_id=${region()}&from_paid_on=${year}-01-01&to_paid_on=${year}-12-31&${sort('paid_on')}&${page(0)}`,
    });
  }
  for (const [who, headers, region] of [
    ['administrator', admin, () => pick(regionIds)],
    [`${readers.offences.username} (region ${readers.offences.region})`, scoped.offences, () => readers.offences.region],
  ] as const) {
    runs.push({
      name: `offences, region + state closed, newest first — ${who}`,
      headers,
      next: () => `/api/ecofund-offences/offences?region_id=${region()}&status=closed&${sort('offence_date')}&${page(0)}`,
    });
  }
  const results: { name: string; m: Measured }[] = [];
  for (const run of runs) {
    const m = await measure(client, SECONDS, run.next, run.name, run.headers);
    results.push({ name: run.name, m });
    log(`  ${run.name}: p50 ${m.p50.toFixed(1)} p99 ${m.p99.toFixed(1)} ms, ${(m.n / SECONDS).toFixed(0)} req/s (load ${load()})`);
  }
  log(
    `\nbench/national/lists: ${DB}, ${Number(ids.n).toLocaleString('en')} plantings, ${Number(counts.payments).toLocaleString('en')} payments, ${Number(counts.offences).toLocaleString('en')} offences; ${CONCURRENCY} concurrent, ${SECONDS} s a run`,
  );
  log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average 1/5/15 min before ${loadBefore}, after ${load()}`);
  log('| list | requests/s | p50 ms | p99 ms | size p50 KB |');
  log('|---|---:|---:|---:|---:|');
  for (const r of results)
    log(
      `| ${r.name} | ${(r.m.n / SECONDS).toFixed(0)} | ${r.m.p50.toFixed(1)} | ${r.m.p99.toFixed(1)} | ${(r.m.sizeP50 / 1024).toFixed(1)} |`,
    );
  log(`target (issue 16): staff list p99 under 300 ms — ${results.every((r) => r.m.p99 < 300) ? 'met' : 'NOT met'}`);
} finally {
  server.child.kill();
  client.destroy();
}
