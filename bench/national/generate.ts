import os from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import knexFactory from 'knex';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { migrate } from '../../api/db/migrator.ts';
import { seed } from '../../seeds/index.ts';
import { random } from '../../seeds/random.ts';
import { splitIncome } from '../../api/domain/income-split.ts';
import { formatTiyin } from '../../api/domain/money.ts';
import { benchUrl } from '../support/http.ts';
import { checkAggregates, rebuildPlantingAggregates } from './aggregates.ts';

/**
 * bench/national: a database the size of the national programme — NATIONAL_SCALE (default 1) ×
 * 100 000 subjects, 1 000 000 payments (with their bank statements and the fund's splits of the
 * confirmed ones), 300 000 compensation reports, 1 000 000 offences and 20 000 000 plantings of 1–20
 * trees each (≈ 210 million trees) — over the fourteen regions and the last five years, on
 * BENCH_DATABASE_URL's server (default the local one) in `ecofond_national` (NATIONAL_DB).
 *
 * The database is migrated and seeded with the real seeds and the demo (the demo users, password
 * `ecofond-demo`, sign in there), then every table is loaded by `COPY … FROM STDIN` of generated
 * rows, in chunks. The load runs with `session_replication_role = replica` — no row triggers (the
 * foreign keys' checks: the generator only writes ids it knows exist) — but with the tables'
 * statement-level aggregate triggers set to fire ALWAYS: each COPY chunk is one statement, so the
 * migrations' own trigger functions add the chunk's transition table to offence_cells,
 * fund_ledger_months / fund_ledger_years, fund_split_months / fund_subject_split_months and
 * fund_payer_periods set-wise, once per chunk. The plantings' triggers stay off for their load
 * (an upsert per chunk into two million map cells took ~110 s of each 1 M-row chunk); their
 * aggregates are built once afterwards by the same statements run over the whole table
 * (bench/national/aggregates.ts, which the migrations export) — the aggregate rules exist once, in
 * the migrations. The plantings' secondary indexes are dropped for the load and built again after
 * it. Then VACUUM ANALYZE, and checks that the aggregates equal counts from the base tables (the run
 * fails if not).
 *
 * Reusable: `bench_national(params, finished_at)` in the database records what was generated; a
 * second run with the same sizes does nothing, other sizes or an unfinished run start again.
 */
const SCALE = Number(process.env.NATIONAL_SCALE || 1);
const DB = process.env.NATIONAL_DB || 'ecofond_national';
const n = (x: number) => Math.max(1, Math.round(x * SCALE));
const SIZES = { subjects: n(100_000), payments: n(1_000_000), reports: n(300_000), offences: n(1_000_000), plantings: n(20_000_000) };
const PARAMS = { version: 1, ...SIZES };
const FIRST_DAY = '2022-01-01';
const INSPECTORS_PER_REGION = 20;
const log = (s: string) => console.log(s);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

const dayMs = 86_400_000;
const tashkentToday = () => new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10);
const TODAY = tashkentToday();
const FIRST_MS = Date.parse(FIRST_DAY);
const DAYS = Math.round((Date.parse(TODAY) - FIRST_MS) / dayMs); // 2022-01-01 … yesterday
const iso = (day: number) => new Date(FIRST_MS + day * dayMs).toISOString().slice(0, 10);

/**
 * The regions in their seeded order (seeds: Karakalpakstan, Andijan, Bukhara, Jizzakh, Kashkadarya,
 * Navoi, Namangan, Samarkand, Surkhandarya, Syrdarya, Tashkent city, Tashkent region, Fergana,
 * Khorezm) weighted by population in millions, as the programme's plantings and the fund's payers are.
 */
const REGION_WEIGHT = [2.0, 3.3, 2.0, 1.5, 3.5, 1.1, 3.0, 4.2, 2.8, 0.9, 3.0, 3.0, 3.9, 1.9];
/** Plantings by month: the spring and autumn seasons. */
const MONTH_WEIGHT = [1, 2, 9, 8, 3, 1, 1, 1, 2, 8, 7, 2];
/** Income types weighted as a fund's receipts are (as bench/fund-reports). */
const INCOME_WEIGHT: Record<string, number> = {
  compensation: 24,
  fine: 5,
  tree_felling: 4,
  permit: 3,
  lawsuit: 2,
  red_book: 1,
  quota: 1,
  other: 1,
};

/** A picker of indexes 0…w.length-1 in proportion to the weights. */
function weighted(w: number[], next: () => number): () => number {
  const total = w.reduce((a, b) => a + b, 0);
  const cum = w.map(
    (
      (s) => (x: number) =>
        (s += x / total)
    )(0),
  );
  return () => {
    const u = next();
    for (let i = 0; i < cum.length; i++) if (u < cum[i]) return i;
    return cum.length - 1;
  };
}

/** The days of the last five years (2022-01-01 … yesterday) weighted by their month's season. */
function seasonalDay(next: () => number): () => number {
  const w = Array.from({ length: DAYS }, (_, d) => MONTH_WEIGHT[new Date(FIRST_MS + d * dayMs).getUTCMonth()]);
  const total = w.reduce((a, b) => a + b, 0);
  const cum = new Float64Array(DAYS);
  let s = 0;
  for (let d = 0; d < DAYS; d++) cum[d] = s += w[d] / total;
  return () => {
    const u = next();
    let lo = 0;
    let hi = DAYS - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const text = (v: unknown) =>
  v === null || v === undefined
    ? '\\N'
    : String(v).replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);

/** `COPY table (columns) FROM STDIN` of `count` rows made by `row(i)`, 0 ≤ i < count. */
async function copy(client: pg.Client, table: string, columns: string[], count: number, row: (i: number) => unknown[]): Promise<void> {
  function* lines() {
    const batch: string[] = [];
    for (let i = 0; i < count; i++) {
      batch.push(row(i).map(text).join('\t'));
      if (batch.length === 5000) {
        yield batch.join('\n') + '\n';
        batch.length = 0;
      }
    }
    if (batch.length) yield batch.join('\n') + '\n';
  }
  await pipeline(Readable.from(lines()), client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)));
}

async function prepareDatabase(): Promise<boolean> {
  const admin = knexFactory({ client: 'pg', connection: benchUrl('postgres'), pool: { min: 0, max: 1 } });
  try {
    const exists = (await admin.raw('select 1 from pg_database where datname = ?', [DB])).rows.length > 0;
    if (exists) {
      const db = openDatabase({ url: benchUrl(DB), poolMax: 1 });
      const done = await db.knex
        .raw(`select params, finished_at from bench_national`)
        .then((r) => r.rows[0])
        .catch(() => undefined);
      await db.close();
      // (jsonb keeps its keys in its own order: compared key by key)
      const same =
        done &&
        Object.keys(done.params).length === Object.keys(PARAMS).length &&
        Object.entries(PARAMS).every(([k, v]) => done.params[k] === v);
      if (done?.finished_at && same) return true;
      log(
        done
          ? `${DB}: ${done.finished_at ? `other sizes (${JSON.stringify(done.params)})` : 'an unfinished run'} — generating again`
          : `${DB}: no record of a generated run — generating again`,
      );
      await admin.raw(`drop database ${DB} with (force)`);
    }
    await admin.raw(`create database ${DB}`);
    return false;
  } finally {
    await admin.destroy();
  }
}

const t0 = Date.now();
const steps: { step: string; s: number }[] = [];
async function step<T>(what: string, f: () => Promise<T>): Promise<T> {
  const s = Date.now();
  const r = await f();
  const secs = (Date.now() - s) / 1000;
  steps.push({ step: what, s: secs });
  log(`  ${what}: ${secs.toFixed(1)} s (load ${load()})`);
  return r;
}

log(`bench/national: ${JSON.stringify(SIZES)} (scale ${SCALE}) into ${DB}; ${os.cpus().length} cores, load ${load()}`);
if (await prepareDatabase()) {
  log(`${DB} holds this run already (${JSON.stringify(PARAMS)}): nothing to do`);
} else {
  const model = loadMetadata();
  {
    const db = openDatabase({ url: benchUrl(DB), poolMax: 2 });
    await step('migrate', () => migrate(db.knex, model));
    await step('seed with the demo', () => seed(db.knex, model, { demo: true }));
    await db.knex.raw(
      `create table bench_national (params jsonb not null, started_at timestamptz not null default now(), finished_at timestamptz, steps jsonb)`,
    );
    await db.knex('bench_national').insert({ params: JSON.stringify(PARAMS) });
    await db.close();
  }
  const client = new pg.Client({ connectionString: benchUrl(DB) });
  await client.connect();
  const q = async (sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows;
  await q(`set maintenance_work_mem = '512MB'`);
  await q(`set work_mem = '64MB'`);
  const rnd = random(20_261_124);
  const next = rnd.next;

  const TABLES = ['subjects', 'payment_stacks', 'payments', 'payment_splits', 'subject_reports', 'offences', 'plantings'];
  // the statement-level (aggregate) triggers fire during the replica-mode load; row triggers (foreign keys) do not
  // (but the plantings': their aggregates are built once after the load, rebuildPlantingAggregates)
  const aggregates = await q(
    `select c.relname as "table", t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where not t.tgisinternal and (t.tgtype & 1) = 0 and c.relname = any($1) and c.relname <> 'plantings' order by 1, 2`,
    [TABLES],
  );
  for (const t of aggregates) await q(`alter table ${t.table} enable always trigger ${t.name}`);
  await q(`set session_replication_role = replica`);

  const regions = (await q(`select id, centre[0] as lng, centre[1] as lat from regions order by id`)).map((r) => ({
    id: Number(r.id),
    lng: Number(r.lng),
    lat: Number(r.lat),
  }));
  if (regions.length !== REGION_WEIGHT.length) throw new Error(`expected ${REGION_WEIGHT.length} regions, found ${regions.length}`);
  const region = weighted(REGION_WEIGHT, next);
  const day = seasonalDay(next);
  const uniformDay = () => Math.floor(next() * DAYS);
  /** a place around the region's centre (±1° of longitude, ±0.6° of latitude, denser near it), as bench/map scatters them */
  const place = (r: number) =>
    `(${(regions[r].lng + (next() + next() - 1)).toFixed(6)},${(regions[r].lat + (next() + next() - 1) * 0.6).toFixed(6)})`;
  const ids = async (sql: string) => (await q(sql)).map((r) => Number(r.id));
  const nextId = async (table: string) => Number((await q(`select coalesce(max(id), 0) + 1 as id from ${table}`))[0].id);

  // subjects: categories I–IV (most in III–IV), 90 % active
  const categories = await ids(`select id from subject_categories order by code`);
  const subjectBase = await nextId('subjects');
  const subjectRegion = new Int32Array(SIZES.subjects);
  await step(`subjects (${SIZES.subjects.toLocaleString('en')})`, () =>
    copy(
      client,
      'subjects',
      ['id', 'inn', 'name', 'region_id', 'category_id', 'status', 'privilege', 'start_date'],
      SIZES.subjects,
      (i) => {
        const r = region();
        subjectRegion[i] = r;
        return [
          subjectBase + i,
          600_000_000 + i,
          `Subyekt ${i + 1}`,
          regions[r].id,
          categories[Math.min(categories.length - 1, [0, 1, 1, 2, 2, 2, 3, 3, 3, 3][i % 10])],
          i % 20 === 3 ? 'suspended' : i % 20 === 7 ? 'stopped' : 'active',
          i % 13 === 0,
          iso(-2500 + (i % 2500)),
        ];
      },
    ),
  );

  // one bank statement a day; payments: one in twenty unidentified (no subject), one in ten of the rest still "defined", the others confirmed and split
  const stackBase = await nextId('payment_stacks');
  await step(`payment stacks (${DAYS})`, () =>
    copy(client, 'payment_stacks', ['id', 'number', 'statement_date'], DAYS, (d) => [stackBase + d, `NS-${d}`, iso(d)]),
  );
  const incomes = (await q(
    `select id, code, "group", budget_percent, fund_percent, organisation_percent from income_types order by id`,
  )) as { id: number; code: string; group: string; budget_percent: string; fund_percent: string; organisation_percent: string }[];
  const income = weighted(
    incomes.map((t) => INCOME_WEIGHT[t.group] ?? 1),
    next,
  );
  const paymentBase = await nextId('payments');
  const confirmed: { id: number; cents: bigint; it: number }[] = [];
  await step(`payments (${SIZES.payments.toLocaleString('en')})`, () =>
    copy(
      client,
      'payments',
      [
        'id',
        'stack_id',
        'paid_on',
        'number',
        'amount',
        'payment_type',
        'income_type_id',
        'income_code',
        'subject_id',
        'region_id',
        'status',
        'payer_inn',
      ],
      SIZES.payments,
      (i) => {
        const d = uniformDay();
        const s = i % 20 === 0 ? -1 : Math.floor(next() * SIZES.subjects);
        const it = income();
        const cents = BigInt(1_000_000 + Math.floor(next() * 999_000_000));
        const status = s < 0 ? 'undefined' : Math.floor(i / 20) % 10 === 0 ? 'defined' : 'confirmed';
        if (status === 'confirmed') confirmed.push({ id: paymentBase + i, cents, it });
        return [
          paymentBase + i,
          stackBase + d,
          iso(d),
          `NP-${i + 1}`,
          formatTiyin(cents),
          i % 3 === 0 ? 'cash' : 'card',
          incomes[it].id,
          incomes[it].code,
          s < 0 ? null : subjectBase + s,
          s < 0 ? null : regions[subjectRegion[s]].id,
          status,
          s < 0 ? null : 600_000_000 + s,
        ];
      },
    ),
  );
  // each confirmed payment split by its income type's percentages, as confirming it does (api/modules/fund/payments.ts)
  await step(`payment splits (${confirmed.length.toLocaleString('en')})`, () =>
    copy(client, 'payment_splits', ['parent_id', 'ordering', 'income_code', 'budget', 'fund', 'organisation'], confirmed.length, (i) => {
      const p = confirmed[i];
      const parts = splitIncome(p.cents, incomes[p.it]);
      return [p.id, 0, incomes[p.it].code, formatTiyin(parts.budget), formatTiyin(parts.fund), formatTiyin(parts.organisation)];
    }),
  );
  confirmed.length = 0;

  // compensation reports: quarterly, for quarters over, in every state (as bench/fund-reports)
  const reportCategories = await ids(`select id from report_categories order by id`);
  const quarters = (Number(TODAY.slice(0, 4)) - 2022) * 4 + Math.floor((Number(TODAY.slice(5, 7)) - 1) / 3);
  const STATES = [
    'accepted',
    'accepted',
    'accepted',
    'accepted',
    'accepted',
    'accepted',
    'accepted',
    'sent',
    'in_process',
    'rejected',
    'invalid',
    'new',
    'accepted',
    'accepted',
  ];
  await step(`compensation reports (${SIZES.reports.toLocaleString('en')})`, () =>
    copy(
      client,
      'subject_reports',
      [
        'subject_id',
        'region_id',
        'year',
        'period',
        'report_date',
        'category_id',
        'base_value',
        'amount',
        'status',
        'sent_on',
        'late_days',
        'late_fine',
      ],
      SIZES.reports,
      (i) => {
        const s = Math.floor(next() * SIZES.subjects);
        const qi = Math.floor(next() * quarters);
        const year = 2022 + Math.floor(qi / 4);
        const late = i % 40;
        let date = new Date(Date.UTC(year, 3 * (qi % 4) + 3, 1 + late)).toISOString().slice(0, 10);
        if (date >= TODAY) date = iso(DAYS - 1);
        const status = STATES[Math.floor(i / 7) % STATES.length];
        return [
          subjectBase + s,
          regions[subjectRegion[s]].id,
          year,
          `q${1 + (qi % 4)}`,
          date,
          i % 5 === 4 ? null : reportCategories[i % reportCategories.length],
          340000,
          (50_000 + Math.floor(next() * 20_000_000)).toFixed(2),
          status,
          status === 'new' ? null : date,
          status !== 'new' && late > 30 ? late - 30 : null,
          status !== 'new' && late > 30 ? 1360000 : null,
        ];
      },
    ),
  );

  // offences: twenty inspectors a region (no password: they do not sign in), the seeded types and fine; states as a working registry has them
  await step('inspectors', async () => {
    for (const r of regions) {
      await q(
        `insert into users (username, password, region_id, fio, kind) select 'nat_insp_' || $1::text || '_' || g, '!', $1::bigint, 'Inspektor ' || $1::text || '-' || g, 'staff' from generate_series(0, $2::int - 1) g`,
        [r.id, INSPECTORS_PER_REGION],
      );
    }
  });
  const inspectors = (await q(`select id, region_id from users where username like 'nat_insp_%' order by region_id, id`)).map((r) =>
    Number(r.id),
  );
  const types = await ids(`select id from offence_type order by id`);
  const fine = (await q(`select id, coalesce(min_multiple, 1) as m from fine order by id limit 1`))[0];
  const OFFENCE_STATES = ['draft', 'review', 'returned', 'mvd', 'mvd', 'closed', 'closed', 'closed', 'closed', 'closed'];
  const offenceChunk = 250_000;
  for (let from = 0; from < SIZES.offences; from += offenceChunk) {
    const count = Math.min(offenceChunk, SIZES.offences - from);
    await step(`offences ${(from + count).toLocaleString('en')} / ${SIZES.offences.toLocaleString('en')}`, () =>
      copy(
        client,
        'offences',
        [
          'number',
          'offence_date',
          'region_id',
          'fine_id',
          'fine_multiple',
          'fine_amount',
          'status',
          'mvd_sent',
          'offence_type_id',
          'location',
          'inspector_id',
          'payment_status',
        ],
        count,
        (j) => {
          const i = from + j;
          const r = region();
          const st = Math.floor(next() * 10);
          return [
            `N-${i + 1}`,
            iso(uniformDay()),
            regions[r].id,
            fine.id,
            5,
            2060000,
            OFFENCE_STATES[st],
            st >= 3 && st <= 6,
            i % 20 === 7 ? null : types[i % types.length],
            i % 50 === 11 ? null : place(r),
            inspectors[r * INSPECTORS_PER_REGION + Math.floor(next() * INSPECTORS_PER_REGION)],
            'unpaid',
          ];
        },
      ),
    );
  }

  // plantings: the secondary indexes built after the load, not row by row during it
  const indexes =
    await q(`select c.relname as name, pg_get_indexdef(i.indexrelid) as def from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = 'plantings'::regclass and not i.indisprimary order by 1`);
  await step(`drop plantings' ${indexes.length} secondary indexes`, async () => {
    for (const i of indexes) await q(`drop index ${i.name}`);
  });
  const species = await ids(`select id from tree_species order by id`);
  const orgs = await ids(`select id from planting_orgs order by id`);
  const PLACES = ['street', 'street', 'street', 'park', 'garden', 'school', 'roadside', 'roadside', 'forest', 'yard', 'riverbank', 'other'];
  const plantingChunk = 1_000_000;
  let trees = 0;
  for (let from = 0; from < SIZES.plantings; from += plantingChunk) {
    const count = Math.min(plantingChunk, SIZES.plantings - from);
    await step(`plantings ${(from + count).toLocaleString('en')} / ${SIZES.plantings.toLocaleString('en')}`, () =>
      copy(
        client,
        'plantings',
        ['species_id', 'count', 'planted_on', 'region_id', 'location', 'place_type', 'source', 'irrigation', 'circumference_cm', 'org_id'],
        count,
        (j) => {
          const i = from + j;
          const r = region();
          const c = 1 + Math.floor(next() * 20);
          trees += c;
          return [
            species[Math.floor(next() * species.length)],
            c,
            iso(day()),
            regions[r].id,
            place(r),
            PLACES[i % PLACES.length],
            i % 50 === 0 ? 'public' : 'registry',
            i % 3 === 0,
            i % 4 === 0 ? null : 5 + (i % 200),
            i % 5 === 0 ? orgs[i % orgs.length] : null,
          ];
        },
      ),
    );
  }
  // (pg_get_indexdef of a partitioned table's index says ON ONLY: that would make the parent's index alone, invalid, and build none)
  for (const i of indexes) await step(`index ${i.name}`, () => q(i.def.replace(' ON ONLY ', ' ON ')));
  await step('planting aggregates, set-wise over the whole table', async () => {
    await q(`set work_mem = '256MB'`);
    await rebuildPlantingAggregates(q);
  });

  await q(`set session_replication_role = origin`);
  for (const t of aggregates) await q(`alter table ${t.table} enable trigger ${t.name}`);
  for (const t of ['subjects', 'payment_stacks', 'payments'])
    await q(`select setval(pg_get_serial_sequence('${t}', 'id'), (select max(id) from ${t}))`);
  await step('vacuum analyze', () => q('vacuum analyze'));

  let failed = 0;
  await step('checks', async () => {
    failed = await checkAggregates(q, log);
  });
  if (failed) throw new Error(`${failed} aggregate check(s) failed`);
  await q(`update bench_national set finished_at = now(), steps = $1`, [JSON.stringify(steps)]);
  log(
    `generated in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${SIZES.plantings.toLocaleString('en')} plantings of ${trees.toLocaleString('en')} trees`,
  );
  await client.end();
}

const db = openDatabase({ url: benchUrl(DB), poolMax: 1 });
const sizes = (
  await db.knex.raw(`select relname as name, pg_size_pretty(pg_total_relation_size(c.oid)) as size, (select count(*) from pg_inherits where inhparent = c.oid) as parts
  from pg_class c where relname in ('plantings', 'planting_cells', 'planting_facts', 'payments', 'payment_splits', 'subjects', 'subject_reports', 'offences', 'offence_cells', 'fund_ledger_months', 'fund_split_months') order by pg_total_relation_size(c.oid) desc`)
).rows;
const partSizes = (
  await db.knex.raw(`select sum(pg_total_relation_size(inhrelid)) as b from pg_inherits where inhparent = 'plantings'::regclass`)
).rows[0].b;
const total = (
  await db.knex.raw(
    `select pg_size_pretty(pg_database_size(current_database())) as s, (select sum(count) from plantings) as trees, (select count(*) from plantings) as plantings`,
  )
).rows[0];
log(
  `${DB}: ${Number(total.plantings).toLocaleString('en')} plantings of ${Number(total.trees).toLocaleString('en')} trees; database ${total.s}; plantings with its partitions ${(Number(partSizes) / 2 ** 30).toFixed(2)} GB`,
);
for (const s of sizes) if (s.name !== 'plantings') log(`  ${s.name}: ${s.size}`);
await db.close();
