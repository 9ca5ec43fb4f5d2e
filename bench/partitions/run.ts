import knexFactory from 'knex';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { migrate } from '../../api/db/migrator.ts';
import { seed } from '../../seeds/index.ts';
import { partitionByYear, unpartition } from '../../api/db/partitions.ts';
import { benchUrl } from '../support/http.ts';

/**
 * bench/partitions: what partitioning `plantings` by year costs and gives (docs/scaling.md).
 * BENCH_TREES (300 000) plantings over the last ten years with their aggregates, then the same
 * statements on the partitioned table and, after `unpartition`, on one table: a batch of 10 000
 * plantings in one statement (the triggers keeping the aggregates), the map's single-plantings
 * viewport (GiST, every partition), a passport by id, a year's list page, and an UPDATE moving
 * 1 000 plantings to another year. In-process SQL, no HTTP. BENCH_DATABASE_URL (default the local
 * server); the database is dropped at the end unless BENCH_KEEP=1.
 */
const TREES = Number(process.env.BENCH_TREES || 300_000);
const RUNS = Number(process.env.BENCH_RUNS || 300);
const DB = 'ecofond_bench_partitions';
const log = (s: string) => console.log(s);
const year = new Date().getUTCFullYear();

const GENERATE = `
  with r as (select array_agg(id order by id) as ids, array_agg(centre[0] order by id) as lng, array_agg(centre[1] order by id) as lat from regions),
       s as (select array_agg(id order by id) as ids from tree_species)
  insert into plantings (species_id, count, planted_on, region_id, location, place_type, source, irrigation, circumference_cm)
  select s.ids[1 + (g % array_length(s.ids, 1))::int], 1 + (g % 20), make_date(CAST(? AS int) - (g % 10)::int, 1 + (g % 12)::int, 1 + (g % 28)::int), r.ids[1 + (g % 14)::int],
         point(r.lng[1 + (g % 14)::int] + (random() - 0.5) * 2, r.lat[1 + (g % 14)::int] + (random() - 0.5) * 1.2), 'street', 'registry',
         g % 3 = 0, case when g % 4 = 0 then null else 5 + (g % 200) end
    from generate_series(CAST(? AS bigint), CAST(? AS bigint)) g, r, s`;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (n: number) => n.toFixed(2);

async function main(): Promise<void> {
  const admin = knexFactory({ client: 'pg', connection: benchUrl('postgres'), pool: { min: 0, max: 1 } });
  await admin.raw(`drop database if exists ${DB} with (force)`);
  await admin.raw(`create database ${DB}`);
  const db = openDatabase({ url: benchUrl(DB), poolMax: 2 });
  const k = db.knex;
  try {
    const model = loadMetadata();
    let t = Date.now();
    await migrate(k, model);
    await seed(k, model, { adminPassword: 'bench-admin-pw' });
    log(`migrated and seeded in ${Date.now() - t} ms`);
    t = Date.now();
    for (let from = 1; from <= TREES; from += 100_000) await k.raw(GENERATE, [year, from, Math.min(TREES, from + 99_999)]);
    await k.raw('analyze plantings');
    log(`${TREES.toLocaleString('en')} plantings over ${year - 9}–${year} with their aggregates: ${Date.now() - t} ms (partitioned)`);
    const centres = (await k('regions').select(k.raw('centre[0] as lng'), k.raw('centre[1] as lat'))) as { lng: number; lat: number }[];
    const ids = (await k.raw('select id from plantings order by random() limit ?', [RUNS])).rows.map((r: { id: number }) => r.id);

    const measure = async (label: string) => {
      const out: Record<string, string> = { layout: label };
      // a zoom-17 viewport (1280 × 800 px ≈ 0.011° × 0.0055°) near a region's centre: the GiST of every partition
      const view: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const c = centres[i % centres.length];
        const lng = c.lng + (((i * 37) % 100) - 50) / 100,
          lat = c.lat + (((i * 53) % 60) - 30) / 100;
        const t0 = performance.now();
        await k.raw(
          'select id, location[0] as lng, location[1] as lat, count, species_id from plantings where location <@ box(point(?, ?), point(?, ?)) limit 3001',
          [lng, lat, lng + 0.011, lat + 0.0055],
        );
        view.push(performance.now() - t0);
      }
      out.viewport = `${ms(pct(view, 50))} / ${ms(pct(view, 99))}`;
      const byId: number[] = [];
      for (const id of ids) {
        const t0 = performance.now();
        await k('plantings').where({ id }).first();
        byId.push(performance.now() - t0);
      }
      out.byId = `${ms(pct(byId, 50))} / ${ms(pct(byId, 99))}`;
      const page: number[] = [];
      for (let i = 0; i < 50; i++) {
        const y = year - (i % 10);
        const t0 = performance.now();
        await k.raw(
          `select * from plantings where planted_on >= make_date(CAST(? AS int), 1, 1) and planted_on < make_date(CAST(? AS int) + 1, 1, 1) and region_id = (select min(id) from regions) order by planted_on desc, id desc limit 25 offset 500`,
          [y, y],
        );
        page.push(performance.now() - t0);
      }
      out.yearPage = `${ms(pct(page, 50))} / ${ms(pct(page, 99))}`;
      let t0 = performance.now();
      await k.transaction(async (trx) => {
        await trx.raw(GENERATE, [year, 10_000_001, 10_010_000]);
      });
      out.batch10k = ms(performance.now() - t0);
      await k.raw('delete from plantings where id > (select max(id) - 10000 from plantings)');
      t0 = performance.now();
      await k.raw(
        `update plantings set planted_on = planted_on - 366 where id in (select id from plantings where planted_on >= make_date(CAST(? AS int), 1, 1) limit 1000)`,
        [year],
      );
      out.move1000 = ms(performance.now() - t0);
      const size = (
        await k.raw(`select pg_size_pretty(coalesce(sum(pg_total_relation_size(c.oid)), 0)) as s from pg_class c
        where c.relname = 'plantings' or c.oid in (select inhrelid from pg_inherits where inhparent = 'plantings'::regclass)`)
      ).rows[0].s;
      out.size = size;
      log(JSON.stringify(out));
      return out;
    };
    // each layout measured after its table was rewritten and vacuumed, the partitioned one twice
    // (as the migration left it over the generated rows, and again after a round trip)
    const settle = async () => {
      await k.raw('vacuum analyze plantings');
    };
    await settle();
    const rows = [await measure('partitioned by year (as generated)')];
    t = Date.now();
    await k.transaction((trx) => unpartition(trx, 'plantings'));
    log(`unpartition: ${Date.now() - t} ms`);
    await settle();
    rows.push(await measure('one table'));
    t = Date.now();
    await k.transaction((trx) => partitionByYear(trx, 'plantings', 'planted_on'));
    log(`partitionByYear (the migration's work) over ${TREES.toLocaleString('en')} rows: ${Date.now() - t} ms`);
    await settle();
    rows.push(await measure('partitioned by year (after the round trip)'));
    log('');
    log(
      "| layout | zoom-17 viewport p50 / p99 ms | by id p50 / p99 ms | a year's page (region, offset 500) p50 / p99 ms | batch of 10 000 ms | move 1 000 to another year ms | size |",
    );
    log('|---|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) log(`| ${r.layout} | ${r.viewport} | ${r.byId} | ${r.yearPage} | ${r.batch10k} | ${r.move1000} | ${r.size} |`);
  } finally {
    await db.close();
    if (process.env.BENCH_KEEP !== '1') await admin.raw(`drop database if exists ${DB} with (force)`);
    await admin.destroy();
  }
}

await main();
