import os from 'node:os';
import knexFactory from 'knex';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { migrate } from '../../api/db/migrator.ts';
import { seed } from '../../seeds/index.ts';
import { createUser } from '../../cli/create-user.ts';
import { Client, benchUrl, measure, startServer, viewport, type Measured } from '../support/http.ts';

/**
 * bench/offences-map: BENCH_OFFENCES (1 000 000) generated offences across Uzbekistan's regions
 * (the triggers keep `offence_cells` as they are inserted), then over HTTP with BENCH_CONCURRENCY
 * connections, BENCH_SECONDS a run:
 *   - the offences map's 1280 × 800 px viewports at every zoom from 5 to 17 — as headquarters
 *     without filters, with filters (state, type, a quarter), with a period in days (its part
 *     months counted from the offences), as a region's reviewer, the police and an inspector (their
 *     own offences, counted from the rows);
 *   - the offences list as the back-office asks it (`GET /api/ecofund-offences/offences`, filtered by
 *     region and state, sorted by date): the first page and a deep one, as headquarters and as the
 *     region's reviewer.
 * Needs a PostgreSQL server: BENCH_DATABASE_URL (default the local one). The database
 * (`ecofond_bench_offences_map`, about 2.5 GB) is dropped at the end unless BENCH_KEEP=1, in which
 * case the next run reuses it.
 */
const OFFENCES = Number(process.env.BENCH_OFFENCES || 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS || 6);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8);
const KEEP = process.env.BENCH_KEEP === '1';
const DB = 'ecofond_bench_offences_map';
const INSPECTORS_PER_REGION = 20;
const PASSWORD = 'bench-user-pw';
/** every zoom the issue names: the regions (5–7), each level of cells at both its zooms (8–15), single offences (16, 17) */
const ZOOMS = Array.from({ length: 13 }, (_, i) => 5 + i);
const log = (s: string) => console.log(s);

/**
 * Offences scattered around each region's centre (±1° of longitude, ±0.6° of latitude) over 2024
 * and 2025, one of six types (one in twenty none), a place for 49 in 50; states as a working
 * registry has them (most closed or with the ministry), sent to the ministry where the state says
 * so; each region's offences shared among its twenty inspectors.
 */
const GENERATE = `
  with r as (select array_agg(id order by id) as ids, array_agg(centre[0] order by id) as lng, array_agg(centre[1] order by id) as lat from regions),
       t as (select array_agg(id order by id) as ids from offence_type where code like 'BENCH-%'),
       i as (select array_agg(id order by region_id, id) as ids from users where username like 'bench_insp_%'),
       f as (select min(id) as id from fine)
  insert into offences (number, offence_date, region_id, fine_id, fine_multiple, fine_amount, status, mvd_sent, offence_type_id, location, inspector_id, payment_status)
  select 'B-' || g, date '2024-01-01' + (g % 731)::int, r.ids[1 + (g % 14)::int], f.id, 5, 2060000,
         (array['draft', 'review', 'returned', 'mvd', 'mvd', 'closed', 'closed', 'closed', 'closed', 'closed'])[1 + ((g / 14) % 10)::int],
         ((g / 14) % 10) in (3, 4, 5, 6) or ((g / 14) % 10 = 2 and g % 3 = 0),
         case when g % 20 = 7 then null else t.ids[1 + ((g / 7) % 6)::int] end,
         case when g % 50 = 11 then null else point(r.lng[1 + (g % 14)::int] + (random() - 0.5) * 2, r.lat[1 + (g % 14)::int] + (random() - 0.5) * 1.2) end,
         i.ids[1 + (g % 14)::int * ${INSPECTORS_PER_REGION} + ((g / 14) % ${INSPECTORS_PER_REGION})::int],
         'unpaid'
    from generate_series(?::bigint, ?::bigint) g, r, t, i, f`;

interface Prepared {
  regions: { id: number; lng: number; lat: number }[];
  types: number[];
  region: number;
  inspector: string;
}

async function prepare(): Promise<Prepared> {
  const admin = knexFactory({ client: 'pg', connection: benchUrl('postgres'), pool: { min: 0, max: 1 } });
  const exists = (await admin.raw('select 1 from pg_database where datname = ?', [DB])).rows.length > 0;
  let reuse = false;
  if (exists) {
    const db = openDatabase({ url: benchUrl(DB), poolMax: 1 });
    reuse = await db
      .knex('offences')
      .count({ n: '*' })
      .then((r) => Number(r[0].n) >= OFFENCES)
      .catch(() => false);
    await db.close();
    if (!reuse) await admin.raw(`drop database ${DB} with (force)`);
  }
  if (!reuse) await admin.raw(`create database ${DB}`);
  await admin.destroy();
  const db = openDatabase({ url: benchUrl(DB), poolMax: 2 });
  const k = db.knex;
  const regionsOf = async () =>
    (await k('regions').orderBy('id').select('id', k.raw('centre[0] as lng'), k.raw('centre[1] as lat'))).map(
      (r: { id: number; lng: number; lat: number }) => ({ id: Number(r.id), lng: Number(r.lng), lat: Number(r.lat) }),
    );
  if (!reuse) {
    const model = loadMetadata();
    await migrate(k, model);
    await seed(k, model, { adminPassword: 'bench-admin-pw' });
    const rs = await regionsOf();
    await k('fine').insert({
      code: 'BENCH-1',
      article: '65',
      name: JSON.stringify({ uz: 'Bench' }),
      min_multiple: '1',
      max_multiple: '10',
    });
    await k('offence_type').insert([1, 2, 3, 4, 5, 6].map((n) => ({ code: `BENCH-${n}`, name: JSON.stringify({ uz: `Tur ${n}` }) })));
    // the inspectors (one signs in: the first of the first region)
    const users = rs.flatMap((r) =>
      Array.from({ length: INSPECTORS_PER_REGION }, (_, n) => ({
        username: `bench_insp_${r.id}_${n}`,
        region_id: r.id,
        fio: `Inspektor ${r.id}-${n}`,
        kind: 'staff',
      })),
    );
    await createUser(k, { username: users[0].username, password: PASSWORD, roles: ['inspector'], region_id: rs[0].id });
    await k('users').insert(users.slice(1).map((u) => ({ ...u, password: '!' })));
    await createUser(k, { username: 'bench_reviewer', password: PASSWORD, roles: ['confirming_staff'], region_id: rs[0].id });
    await createUser(k, { username: 'bench_police', password: PASSWORD, roles: ['police'], region_id: rs[0].id });
    await createUser(k, { username: 'bench_hq', password: PASSWORD, roles: ['headquarters'] });
    const t0 = Date.now();
    const chunk = 100_000;
    for (let from = 1; from <= OFFENCES; from += chunk) {
      const s = Date.now();
      await k.raw(GENERATE, [from, Math.min(OFFENCES, from + chunk - 1)]);
      log(`  ${Math.min(OFFENCES, from + chunk - 1).toLocaleString('en')} offences… (${((Date.now() - s) / 1000).toFixed(1)} s)`);
    }
    // the visibility map, for the index-only scans of the covering indexes
    await k.raw('vacuum analyze offences');
    await k.raw('vacuum analyze offence_cells');
    log(`generated ${OFFENCES.toLocaleString('en')} offences with their aggregates in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  } else log(`reusing ${DB} (${OFFENCES.toLocaleString('en')} offences)`);
  const sizes =
    await k.raw(`select pg_size_pretty(pg_total_relation_size('offences')) as offences, pg_size_pretty(pg_total_relation_size('offence_cells')) as cells,
    (select count(*) from offence_cells) as cell_rows, pg_size_pretty(pg_database_size(current_database())) as db`);
  log(
    `sizes: offences ${sizes.rows[0].offences}, offence_cells ${sizes.rows[0].cells} (${Number(sizes.rows[0].cell_rows).toLocaleString('en')} rows), database ${sizes.rows[0].db}`,
  );
  const types = (await k('offence_type').where('code', 'like', 'BENCH-%').orderBy('id').pluck('id')).map(Number);
  const regions = await regionsOf();
  await db.close();
  return { regions, types, region: regions[0].id, inspector: `bench_insp_${regions[0].id}_0` };
}

/** A batch of 10 000 offences in one statement with the aggregates kept by the trigger, then taken out again (the delete trigger too). */
async function ingest(): Promise<{ insertMs: number; deleteMs: number }> {
  const db = openDatabase({ url: benchUrl(DB), poolMax: 1 });
  const t0 = process.hrtime.bigint();
  await db.knex.raw(GENERATE, [OFFENCES + 1, OFFENCES + 10_000]);
  const insertMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const t1 = process.hrtime.bigint();
  await db.knex.raw(`delete from offences where number like 'B-%' and id in (select id from offences order by id desc limit 10000)`);
  const deleteMs = Number(process.hrtime.bigint() - t1) / 1e6;
  await db.close();
  return { insertMs, deleteMs };
}

async function login(client: Client, username: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${client.port}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: username === 'admin' ? 'bench-admin-pw' : PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** Viewports around the regions' centres (the whole country at zoom 5), or around one region's for a user of it. */
function viewports(zoom: number, regions: { lng: number; lat: number }[], extra: () => string) {
  let i = 0;
  return () => {
    const r = regions[i++ % regions.length];
    const jitter = zoom <= 5 ? 0 : 0.6;
    const lng = zoom <= 5 ? 64.5 : r.lng + (Math.random() - 0.5) * jitter;
    const lat = zoom <= 5 ? 41.3 : r.lat + (Math.random() - 0.5) * jitter;
    return `/api/ecofund-offences/offences/map?bbox=${viewport(zoom, lng, lat)}&zoom=${zoom}${extra()}`;
  };
}

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');
const p = await prepare();
const loadBefore = load();
const server = await startServer(benchUrl(DB));
const client = new Client(server.port, CONCURRENCY);
try {
  const tokens = {
    hq: await login(client, 'bench_hq'),
    reviewer: await login(client, 'bench_reviewer'),
    police: await login(client, 'bench_police'),
    inspector: await login(client, p.inspector),
  };
  const own = p.regions.filter((r) => r.id === p.region);
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
  const STATES = ['draft', 'review', 'returned', 'mvd', 'closed'];
  const quarter = () => {
    const q = Math.floor(Math.random() * 8);
    const y = 2024 + Math.floor(q / 4);
    const m = (q % 4) * 3 + 1;
    return [`${y}-${String(m).padStart(2, '0')}-01`, `${y}-${String(m + 2).padStart(2, '0')}-${m + 2 === 6 || m + 2 === 9 ? 30 : 31}`];
  };
  const runs: { name: string; token: string; regions: typeof p.regions; extra: () => string }[] = [
    { name: 'headquarters, no filter', token: tokens.hq, regions: p.regions, extra: () => '' },
    {
      name: 'headquarters, state + type + a quarter',
      token: tokens.hq,
      regions: p.regions,
      extra: () => {
        const [a, b] = quarter();
        return `&status=${pick(STATES)}&offence_type_id=${pick(p.types)}&from_offence_date=${a}&to_offence_date=${b}`;
      },
    },
    {
      name: 'headquarters, region + a period in days',
      token: tokens.hq,
      regions: p.regions,
      extra: () =>
        `&region_id=${pick(p.regions).id}&from_offence_date=2024-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}&to_offence_date=2025-0${1 + Math.floor(Math.random() * 9)}-0${1 + Math.floor(Math.random() * 9)}`,
    },
    { name: 'region reviewer, no filter', token: tokens.reviewer, regions: own, extra: () => '' },
    { name: 'police (sent to the ministry)', token: tokens.police, regions: own, extra: () => '' },
    { name: 'inspector (own, from the rows)', token: tokens.inspector, regions: own, extra: () => '' },
  ];
  // the caches warmed once over every run and zoom, so the first run measured is not the cold one
  for (const run of runs)
    for (const zoom of ZOOMS)
      await measure(client, 0.3, viewports(zoom, run.regions, run.extra), 'warm-up', { Authorization: `Bearer ${run.token}` });
  const results: { name: string; zoom: number; m: Measured }[] = [];
  for (const run of runs) {
    for (const zoom of ZOOMS) {
      const m = await measure(client, SECONDS, viewports(zoom, run.regions, run.extra), `${run.name} zoom ${zoom}`, {
        Authorization: `Bearer ${run.token}`,
      });
      results.push({ name: run.name, zoom, m });
      log(
        `  ${run.name} z${zoom}: p50 ${m.p50.toFixed(1)} p99 ${m.p99.toFixed(1)} ms, ${m.n} requests, ≤ ${(m.sizeMax / 1024).toFixed(1)} KB`,
      );
    }
  }
  // the list as the back-office asks it: region and state, newest first, 25 a page
  const list = (offset: number, state: string) => () =>
    `/api/ecofund-offences/offences?filter=${encodeURIComponent(JSON.stringify({ region_id: p.region, status: [state] }))}` +
    `&sort=${encodeURIComponent('["offence_date","DESC"]')}&range=${encodeURIComponent(`[${offset},${offset + 24}]`)}`;
  const lists: { name: string; m: Measured }[] = [];
  for (const [who, token] of [
    ['headquarters', tokens.hq],
    ['region reviewer', tokens.reviewer],
  ] as const) {
    for (const [page, offset] of [
      ['first page', 0],
      ['page 1 000 (offset 24 975)', 24_975],
    ] as const) {
      const m = await measure(client, SECONDS, list(offset, 'closed'), `list ${who} ${page}`, { Authorization: `Bearer ${token}` });
      lists.push({ name: `${who}, closed, ${page}`, m });
      log(`  list ${who} ${page}: p50 ${m.p50.toFixed(1)} p99 ${m.p99.toFixed(1)} ms`);
    }
  }

  log(
    `\nbench/offences-map: ${OFFENCES.toLocaleString('en')} offences, ${CONCURRENCY} concurrent, ${SECONDS} s a run, 1280×800 px viewports`,
  );
  log(
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average 1/5/15 min before the runs ${loadBefore}, after ${load()}`,
  );
  log(`| run | ${ZOOMS.map((z) => `z${z} p50 / p99 ms`).join(' | ')} | max KB |`);
  log(`|---|${ZOOMS.map(() => '---:').join('|')}|---:|`);
  for (const run of runs) {
    const rs = results.filter((r) => r.name === run.name);
    log(
      `| ${run.name} | ${rs.map((r) => `${r.m.p50.toFixed(1)} / ${r.m.p99.toFixed(1)}`).join(' | ')} | ${(Math.max(...rs.map((r) => r.m.sizeMax)) / 1024).toFixed(1)} |`,
    );
  }
  log('\noffences list (region + state "closed", newest first, 25 a page):');
  log('| list | requests | p50 ms | p99 ms |');
  log('|---|---:|---:|---:|');
  for (const l of lists) log(`| ${l.name} | ${l.m.n} | ${l.m.p50.toFixed(1)} | ${l.m.p99.toFixed(1)} |`);
  log(`target: every map p99 under 100 ms at zooms 5–17 — ${results.every((r) => r.m.p99 < 100) ? 'met' : 'NOT met'}`);
  const ing = await ingest();
  log(
    `ingest: 10 000 offences in one statement with offence_cells kept by the trigger ${ing.insertMs.toFixed(0)} ms; deleting them ${ing.deleteMs.toFixed(0)} ms`,
  );
} finally {
  server.child.kill();
  client.destroy();
  if (!KEEP) {
    const admin = knexFactory({ client: 'pg', connection: benchUrl('postgres'), pool: { min: 0, max: 1 } });
    await new Promise((r) => setTimeout(r, 500));
    await admin.raw(`drop database if exists ${DB} with (force)`);
    await admin.destroy();
    log(`dropped ${DB} (BENCH_KEEP=1 keeps it for the next run)`);
  }
}
