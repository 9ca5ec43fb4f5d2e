import os from 'node:os';
import knexFactory from 'knex';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { migrate } from '../../api/db/migrator.ts';
import { seed } from '../../seeds/index.ts';
import { Client, benchUrl, measure, startServer, viewport } from '../support/http.ts';

/**
 * bench/map: BENCH_TREES (5 000 000) generated plantings across Uzbekistan's regions, then map
 * viewports at zooms 5, 8, 11, 14 and 17 over HTTP — p50/p99 latency and response size of each —
 * and the time to ingest a batch of 10 000 plantings with the aggregates kept up to date by the
 * triggers. Needs a PostgreSQL server: BENCH_DATABASE_URL (default the local one).
 *
 * BENCH_DB names another database and BENCH_REUSE=1 takes it as it is, generating nothing: the
 * national data (`BENCH_DB=ecofond_national BENCH_REUSE=1`, made by bench/national/generate.ts).
 */
const TREES = Number(process.env.BENCH_TREES || 5_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS || 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8);
const DB = process.env.BENCH_DB || 'ecofond_bench_map';
const REUSE = process.env.BENCH_REUSE === '1';
const log = (s: string) => console.log(s);

const url = benchUrl;

/** Plantings scattered around each region's centre (±1° of longitude, ±0.6° of latitude), 1–20 trees each, a third irrigated. */
const GENERATE = `
  with r as (select array_agg(id order by id) as ids, array_agg(centre[0] order by id) as lng, array_agg(centre[1] order by id) as lat from regions),
       s as (select array_agg(id order by id) as ids from tree_species)
  insert into plantings (species_id, count, planted_on, region_id, location, place_type, source, irrigation, circumference_cm)
  select s.ids[1 + (g % array_length(s.ids, 1))::int], 1 + (g % 20), date '2025-01-01' + (g % 300)::int, r.ids[1 + (g % 14)::int],
         point(r.lng[1 + (g % 14)::int] + (random() - 0.5) * 2, r.lat[1 + (g % 14)::int] + (random() - 0.5) * 1.2), 'street', 'registry',
         g % 3 = 0, case when g % 4 = 0 then null else 5 + (g % 200) end
    from generate_series(?::bigint, ?::bigint) g, r, s`;

async function prepare(): Promise<{ regions: { lng: number; lat: number }[]; plantings: number }> {
  const admin = knexFactory({ client: 'pg', connection: url('postgres'), pool: { min: 0, max: 1 } });
  const exists = (await admin.raw('select 1 from pg_database where datname = ?', [DB])).rows.length > 0;
  if (REUSE && !exists) throw new Error(`BENCH_REUSE=1: there is no database ${DB}`);
  let reuse = REUSE;
  if (exists && !REUSE) {
    const db = openDatabase({ url: url(DB), poolMax: 1 });
    reuse = await db
      .knex('plantings')
      .count({ n: '*' })
      .then((r) => Number(r[0].n) >= TREES)
      .catch(() => false);
    await db.close();
    if (!reuse) await admin.raw(`drop database ${DB} with (force)`);
  }
  if (!reuse) await admin.raw(`create database ${DB}`);
  await admin.destroy();
  const db = openDatabase({ url: url(DB), poolMax: 2 });
  if (!reuse) {
    const model = loadMetadata();
    await migrate(db.knex, model);
    await seed(db.knex, model, { adminPassword: 'bench-admin-pw' });
    const t0 = Date.now();
    const chunk = 500_000;
    for (let from = 1; from <= TREES; from += chunk) {
      await db.knex.raw(GENERATE, [from, Math.min(TREES, from + chunk - 1)]);
      log(`  ${Math.min(TREES, from + chunk - 1).toLocaleString('en')} plantings…`);
    }
    await db.knex.raw('analyze plantings; analyze planting_cells; analyze planting_stats; analyze planting_facts');
    log(`generated ${TREES.toLocaleString('en')} plantings with their aggregates in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  } else {
    const c = (await db.knex.raw('select count(*) as n, sum(count) as trees from plantings')).rows[0];
    log(`reusing ${DB} (${Number(c.n).toLocaleString('en')} plantings, ${Number(c.trees).toLocaleString('en')} trees)`);
  }
  const regions = await db.knex('regions').select(db.knex.raw('centre[0] as lng'), db.knex.raw('centre[1] as lat'));
  const plantings = reuse ? Number((await db.knex.raw('select count(*) as n from plantings')).rows[0].n) : TREES;
  await db.close();
  return { regions, plantings };
}

async function ingest(): Promise<{ ms: number; cellsBefore: number; cellsAfter: number }> {
  const db = openDatabase({ url: url(DB), poolMax: 1 });
  const before = Number((await db.knex('planting_cells').sum('trees as n').first())!.n);
  const t0 = process.hrtime.bigint();
  await db.knex.raw(GENERATE, [TREES + 1, TREES + 10_000]);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const after = Number((await db.knex('planting_cells').sum('trees as n').first())!.n);
  // leave the table as it was for the next run (the delete trigger takes them out of the aggregates)
  await db.knex.raw(`delete from plantings where id in (select id from plantings order by id desc limit 10000)`);
  await db.close();
  return { ms, cellsBefore: before, cellsAfter: after };
}

function viewports(zoom: number, regions: { lng: number; lat: number }[], extra = '') {
  let i = 0;
  return () => {
    const r = regions[i++ % regions.length];
    const jitter = zoom <= 5 ? 0 : 0.4;
    const lng = zoom <= 5 ? 64.5 : r.lng + (Math.random() - 0.5) * jitter;
    const lat = zoom <= 5 ? 41.3 : r.lat + (Math.random() - 0.5) * jitter;
    return `/api/public/map/plantings?bbox=${viewport(zoom, lng, lat)}&zoom=${zoom}${extra}`;
  };
}

const measureAt = async (client: Client, zoom: number, next: () => string) => ({
  zoom,
  ...(await measure(client, SECONDS, next, `zoom ${zoom}`)),
});

const { regions, plantings } = await prepare();
const loadBefore = os
  .loadavg()
  .map((x) => x.toFixed(2))
  .join(' / ');
const server = await startServer(url(DB));
const client = new Client(server.port, CONCURRENCY);
try {
  const results = [];
  for (const zoom of [5, 8, 11, 14, 17]) results.push(await measureAt(client, zoom, viewports(zoom, regions)));
  const irrigation = [];
  for (const zoom of [5, 8, 17]) irrigation.push(await measureAt(client, zoom, viewports(zoom, regions, '&irrigation=1')));
  const reports = [];
  for (const name of ['region-plantings', 'species-trees', 'eco-info-by-regions', 'irrigation']) {
    reports.push({ name, ...(await measureAt(client, 0, () => `/api/public/reports/${name}?year=2025`)) });
  }
  const ing = await ingest();
  log(
    `\nbench/map: ${plantings.toLocaleString('en')} plantings in ${DB}, load average ${loadBefore} before, ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')} after, ${CONCURRENCY} concurrent, ${SECONDS} s per zoom, 1280×800 px viewports around the regions' centres`,
  );
  log('| zoom | layer | requests | p50 ms | p99 ms | size p50 KB | size max KB |');
  log('|---:|---|---:|---:|---:|---:|---:|');
  const layers: Record<number, string> = { 5: 'regions', 8: 'cells 0.1°', 11: 'cells 0.02°', 14: 'cells 0.004°', 17: 'plantings' };
  for (const r of results)
    log(
      `| ${r.zoom} | ${layers[r.zoom]} | ${r.n} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.sizeP50 / 1024).toFixed(1)} | ${(r.sizeMax / 1024).toFixed(1)} |`,
    );
  log('\nirrigation layer (irrigation=1):');
  log('| zoom | requests | p50 ms | p99 ms | size max KB |');
  log('|---:|---:|---:|---:|---:|');
  for (const r of irrigation) log(`| ${r.zoom} | ${r.n} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.sizeMax / 1024).toFixed(1)} |`);
  log('\npublic reports over planting_facts (year 2025):');
  log('| report | requests | p50 ms | p99 ms | size max KB |');
  log('|---|---:|---:|---:|---:|');
  for (const r of reports) log(`| ${r.name} | ${r.n} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.sizeMax / 1024).toFixed(1)} |`);
  log(
    `\ningest: 10 000 plantings in one statement with the aggregates kept by the triggers: ${ing.ms.toFixed(0)} ms (cells' total ${ing.cellsBefore.toLocaleString('en')} → ${ing.cellsAfter.toLocaleString('en')})`,
  );
  log(
    `target (issue 16): every p99 under 50 ms and every response under 300 KB — ${results.every((r) => r.p99 < 50 && r.sizeMax < 300 * 1024) ? 'met' : 'NOT met'}`,
  );
} finally {
  server.child.kill();
  client.destroy();
}
