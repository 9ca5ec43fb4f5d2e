import os from 'node:os';
import knexFactory, { type Knex } from 'knex';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { migrate } from '../../api/db/migrator.ts';
import { seed } from '../../seeds/index.ts';
import { createUser } from '../../cli/create-user.ts';
import { ACTIONS_SQL } from '../../api/auth/sessions.ts';
import type { Principal } from '../../api/auth/ability.ts';
import type { ReportMeta } from '../../api/meta/types.ts';
import { canOpenReport, resolveReportParams } from '../../api/reports/params.ts';
import { runReport } from '../../api/reports/run.ts';
import { ApiError } from '../../api/http/errors.ts';
import { benchUrl } from '../support/http.ts';

/**
 * bench/fund-reports: the fund's 19 reports (metadata/reports/ecofund-reports) over
 * BENCH_SUBJECTS (100 000) subjects, BENCH_PAYMENTS (1 000 000) payments with their splits and
 * BENCH_REPORTS (300 000) compensation reports with their workflow history, plus protocols, acts,
 * penya, plantings and planting plans in proportion — spread over the fourteen regions and five years
 * (2022-01-01 to yesterday). Each report is run through the function the HTTP route calls
 * (resolveReportParams with the caller's principal, then runReport: the caller's region forced,
 * one SQL query, typed columns, exact totals), as the administrator and as a region's staff, for a
 * year (BENCH_YEAR, default last year) and for the whole history (a date range from 2022-01-01 to
 * today where the report takes one; the five years of the yearly analysis), BENCH_RUNS times each
 * (default 10) after one warm-up run; it prints p50 / p99 per report, period and caller, and marks
 * what misses the targets (p99 < 1 s for a year, < 3 s for the whole history).
 *
 * The database (`fundbench_data`, BENCH_DATABASE_URL's server) is generated once with INSERT …
 * SELECT generate_series and kept: the next run reuses it (migrating it to the newest schema first,
 * so a new migration's aggregates are backfilled there); BENCH_REGENERATE=1 drops and generates it
 * again; BENCH_DROP=1 drops it at the end. BENCH_ONLY=name,name runs only those reports, BENCH_SKIP=name,name
 * all but those; BENCH_META=dir reads the reports from another metadata directory (to compare two versions).
 */
const SUBJECTS = Number(process.env.BENCH_SUBJECTS || 100_000);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS || 1_000_000);
const REPORTS = Number(process.env.BENCH_REPORTS || 300_000);
const RUNS = Number(process.env.BENCH_RUNS || 10);
const REGENERATE = process.env.BENCH_REGENERATE === '1';
const DROP = process.env.BENCH_DROP === '1';
const ONLY = (process.env.BENCH_ONLY || '').split(',').filter(Boolean);
const SKIP = (process.env.BENCH_SKIP || '').split(',').filter(Boolean);
const DB = process.env.BENCH_DB || 'fundbench_data';
const FIRST_DAY = '2022-01-01';
const PASSWORD = 'bench-user-pw';
const log = (s: string) => console.log(s);
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');

const dayMs = 86_400_000;
const tashkentToday = () => new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10);
const DAYS = Math.round((Date.parse(tashkentToday()) - Date.parse(FIRST_DAY)) / dayMs); // up to yesterday
const YEAR = Number(process.env.BENCH_YEAR || Number(tashkentToday().slice(0, 4)) - 1);

/** Income types weighted as a fund's receipts are: compensation most, then fines, felling, permits… */
const WEIGHT: Record<string, number> = {
  compensation: 24,
  fine: 5,
  tree_felling: 4,
  permit: 3,
  lawsuit: 2,
  red_book: 1,
  quota: 1,
  other: 1,
};

async function generate(k: Knex): Promise<void> {
  const t0 = Date.now();
  const step = async (what: string, sql: string, bindings: unknown[] = []) => {
    const s = Date.now();
    const r = await k.raw(sql, bindings as Knex.RawBinding[]);
    log(`  ${what}: ${(r.rowCount ?? 0).toLocaleString('en')} rows (${((Date.now() - s) / 1000).toFixed(1)} s)`);
  };
  await k.raw(`select setseed(0.2017)`);
  const its = (await k('income_types').orderBy('id').select('id', 'code', 'group')) as { id: number; code: string; group: string }[];
  const weighted = its.flatMap((t) => Array.from({ length: WEIGHT[t.group] ?? 1 }, () => t));
  const itIds = weighted.map((t) => t.id);
  const itCodes = weighted.map((t) => t.code);

  // subjects: fourteen regions, categories I–IV (most in III–IV), 90 % active
  await step(
    'subjects',
    `
    with r as (select array_agg(id order by ordering, id) as ids from regions where is_active),
         c as (select array_agg(id order by code) as ids from subject_categories)
    insert into subjects (inn, name, region_id, category_id, status, privilege, start_date)
    select (200000000 + g)::text, 'Bench subyekt ' || g, r.ids[1 + g % 14], c.ids[(array[1, 2, 2, 3, 3, 3, 4, 4, 4, 4])[1 + (g / 14) % 10]],
           case when g % 20 = 3 then 'suspended' when g % 20 = 7 then 'stopped' else 'active' end, g % 13 = 0, date '2015-01-01' + (g % 2500)
      from generate_series(1, ?::int) g, r, c`,
    [SUBJECTS],
  );
  // one bank statement a day
  await step(
    'payment stacks',
    `insert into payment_stacks (number, statement_date) select 'BS-' || d, date '${FIRST_DAY}' + d from generate_series(0, ?::int - 1) d`,
    [DAYS],
  );
  // payments: one in twenty unidentified (no subject), one in ten of the rest still "defined", the others confirmed
  const chunk = 250_000;
  for (let from = 1; from <= PAYMENTS; from += chunk) {
    const to = Math.min(PAYMENTS, from + chunk - 1);
    await step(
      `payments ${from.toLocaleString('en')}–${to.toLocaleString('en')}`,
      `
      with st as (select array_agg(id order by statement_date) as ids from payment_stacks where number like 'BS-%'),
           sb as (select min(id) as first from subjects where inn >= '200000000')
      insert into payments (stack_id, paid_on, number, amount, payment_type, income_type_id, income_code, subject_id, region_id, status, payer_inn)
      select st.ids[1 + (g * 7) % ?::int], date '${FIRST_DAY}' + ((g * 7) % ?::int)::int, 'BP-' || g, round((10000 + random() * 9990000)::numeric, 2),
             case when g % 3 = 0 then 'cash' else 'card' end, (?::bigint[])[1 + (g * 13) % ?::int], (?::text[])[1 + (g * 13) % ?::int],
             s.id, s.region_id, case when s.id is null then 'undefined' when (g / 20) % 10 = 0 then 'defined' else 'confirmed' end, s.inn
        from generate_series(?::bigint, ?::bigint) g cross join st cross join sb
        left join subjects s on g % 20 <> 0 and s.id = sb.first + (g * 7919) % ?::int`,
      [DAYS, DAYS, itIds, itIds.length, itCodes, itCodes.length, from, to, SUBJECTS],
    );
  }
  // each confirmed payment split as its income type says (parts summing to the payment exactly)
  await step(
    'payment splits',
    `
    insert into payment_splits (parent_id, ordering, income_code, budget, fund, organisation)
    select p.id, 0, p.income_code, round(p.amount * it.budget_percent / 100, 2),
           p.amount - round(p.amount * it.budget_percent / 100, 2) - round(p.amount * it.organisation_percent / 100, 2),
           round(p.amount * it.organisation_percent / 100, 2)
      from payments p join income_types it on it.id = p.income_type_id where p.status = 'confirmed'`,
  );
  // compensation reports: three per subject over the years' quarters (none for a quarter not over yet), in every state
  const lastQuarter = (Number(tashkentToday().slice(0, 4)) - 2022) * 4 + Math.floor((Number(tashkentToday().slice(5, 7)) - 1) / 3); // quarters 0..lastQuarter-1 are over
  await step(
    'compensation reports',
    `
    with sb as (select min(id) as first from subjects where inn >= '200000000'),
         rc as (select array_agg(id order by id) as ids from report_categories),
         x as (select g, sb.first + g % ?::int as subject_id, (((g % ?::int) * 31 + (g / ?::int) * 7) % ?::int) as q,
                      (array['accepted','accepted','accepted','accepted','accepted','accepted','accepted','sent','in_process','rejected','invalid','new','accepted','accepted'])[1 + (g / 7) % 14] as status
                 from generate_series(0, ?::int - 1) g, sb)
    insert into subject_reports (subject_id, region_id, year, period, report_date, category_id, base_value, amount, status, sent_on, late_days, late_fine)
    select x.subject_id, s.region_id, 2022 + x.q / 4, 'q' || (1 + x.q % 4),
           make_date(2022 + x.q / 4, 3 * (x.q % 4) + 1, 1) + interval '3 months' + (x.g % 40) * interval '1 day',
           case when x.g % 5 = 4 then null else rc.ids[1 + x.g % 3] end, 340000, round((50000 + random() * 20000000)::numeric, 2), x.status,
           case when x.status = 'new' then null else (make_date(2022 + x.q / 4, 3 * (x.q % 4) + 1, 1) + interval '3 months' + (x.g % 40) * interval '1 day')::date end,
           case when x.status <> 'new' and x.g % 40 > 30 then x.g % 40 - 30 end,
           case when x.status <> 'new' and x.g % 40 > 30 then 1360000 end
      from x join subjects s on s.id = x.subject_id cross join rc
     where make_date(2022 + x.q / 4, 3 * (x.q % 4) + 1, 1) + interval '3 months' + (x.g % 40) * interval '1 day' < ?::date`,
    [SUBJECTS, SUBJECTS, SUBJECTS, lastQuarter, REPORTS, tashkentToday()],
  );
  // their workflow history: sent, then accepted / rejected / invalid a few days later (rejected ones were sent again)
  await step(
    'report flows',
    `
    insert into flows (entity, record_id, action, from_state, to_state, created_at)
    select 'subject-report-yearly', r.id, a.action, a.from_state, a.to_state, r.sent_on + interval '9 hours' + a.after * interval '1 day'
      from subject_reports r cross join lateral (values ('send', 'new', 'sent', 0), ('accept', 'sent', 'accepted', 1 + r.id % 20), ('reject', 'sent', 'rejected', 1 + r.id % 9),
                                                        ('invalidate', 'sent', 'invalid', 2 + r.id % 9), ('take', 'sent', 'in_process', 1)) a(action, from_state, to_state, after)
     where r.status <> 'new' and (a.to_state = 'sent' or a.to_state = r.status or (a.to_state = 'rejected' and r.status = 'accepted' and r.id % 6 = 0))`,
  );
  // protocols and acts: 60 000 each, in stacks per region and month
  await step(
    'protocol stacks',
    `insert into protocol_stacks (number, stack_date, category_id, region_id)
    select 'PS-' || g.id || '-' || m, date '${FIRST_DAY}' + m * interval '1 month', (select min(id) from stack_protocol_categories), g.id
      from regions g, generate_series(0, 59) m where g.is_active`,
  );
  await step(
    'act stacks',
    `insert into akt_stacks (number, stack_date, category_id, region_id)
    select 'AS-' || g.id || '-' || m, date '${FIRST_DAY}' + m * interval '1 month', (select min(id) from stack_akt_categories), g.id
      from regions g, generate_series(0, 59) m where g.is_active`,
  );
  const dayOf = (g: string) => `date '${FIRST_DAY}' + (${g} * 11) % ${DAYS}`;
  await step(
    'protocols',
    `
    with sb as (select min(id) as first from subjects where inn >= '200000000')
    insert into protocols (subject_id, region_id, series, number, protocol_date, fine_multiple, fine_amount, stack_id)
    select s.id, s.region_id, 'BX', 'PR-' || g, ${dayOf('g')}, 5, 1700000 + (g % 10) * 340000, ps.id
      from generate_series(1, ?::int) g cross join sb join subjects s on s.id = sb.first + (g * 4099) % ?::int
      join protocol_stacks ps on ps.region_id = s.region_id and ps.number = 'PS-' || s.region_id || '-' || least(59, ((g * 11) % ${DAYS}) / 31)`,
    [PAYMENTS / 16, SUBJECTS],
  );
  await step(
    'acts',
    `
    with sb as (select min(id) as first from subjects where inn >= '200000000')
    insert into akts (stack_id, subject_id, region_id, akt_type_id, number, akt_date, amount)
    select a.id, s.id, s.region_id, (select min(id) from akt_types), 'AK-' || g, ${dayOf('g')}, round((100000 + random() * 30000000)::numeric, 2)
      from generate_series(1, ?::int) g cross join sb join subjects s on s.id = sb.first + (g * 6007) % ?::int
      join akt_stacks a on a.region_id = s.region_id and a.number = 'AS-' || s.region_id || '-' || least(59, ((g * 11) % ${DAYS}) / 31)`,
    [PAYMENTS / 16, SUBJECTS],
  );
  // penya on one accepted report in ten
  await step(
    'penya',
    `
    insert into penya (subject_id, region_id, report_id, debt, due_date, as_of, overdue_days, paid, amount)
    select r.subject_id, r.region_id, r.id, r.amount, r.report_date, r.report_date + (30 + r.id % 60)::int, 30 + r.id % 60,
           case when r.id % 3 = 0 then round(r.amount * 0.00033 * (30 + r.id % 60), 2) else 0 end, round(r.amount * 0.00033 * (30 + r.id % 60), 2)
      from subject_reports r where r.status = 'accepted' and r.id % 10 = 0`,
  );
  // plantings (the planting_facts triggers keep their aggregates) and plans
  await step(
    'plantings',
    `
    with sp as (select array_agg(id order by id) as ids from tree_species), o as (select array_agg(id order by id) as ids from planting_orgs),
         rg as (select array_agg(id order by id) as ids, array_agg(coalesce(centre, point(64.5, 41.3)) order by id) as centres from regions where is_active)
    insert into plantings (species_id, count, planted_on, region_id, location, source, org_id)
    select sp.ids[1 + g % array_length(sp.ids, 1)], 1 + g % 50, ${dayOf('g')}, rg.ids[1 + g % 14], rg.centres[1 + g % 14], 'registry', o.ids[1 + g % array_length(o.ids, 1)]
      from generate_series(1, ?::int) g cross join sp cross join o cross join rg`,
    [PAYMENTS / 20],
  );
  await step(
    'planting plans',
    `
    insert into planting_plans (year, region_id, org_id, trees)
    select y, g.id, o.id, 50000 + (g.id * 7919 + o.id * 31 + y) % 100000 from generate_series(2022, ${Number(tashkentToday().slice(0, 4))}) y, regions g, planting_orgs o where g.is_active`,
  );
  log(`generated in ${((Date.now() - t0) / 1000).toFixed(0)} s; vacuum analyze…`);
  const s = Date.now();
  await k.raw('vacuum analyze');
  log(`  vacuum analyze: ${((Date.now() - s) / 1000).toFixed(0)} s`);
}

async function prepare(): Promise<void> {
  const admin = knexFactory({ client: 'pg', connection: benchUrl('postgres'), pool: { min: 0, max: 1 } });
  const exists = (await admin.raw('select 1 from pg_database where datname = ?', [DB])).rows.length > 0;
  let reuse = false;
  if (exists && !REGENERATE) {
    const db = openDatabase({ url: benchUrl(DB), poolMax: 1 });
    reuse = await db.knex
      .raw(
        `select (select count(*) from payments) >= ? and (select count(*) from subjects) >= ? and exists (select 1 from planting_plans) as ok`,
        [PAYMENTS, SUBJECTS],
      )
      .then((r: { rows: { ok: boolean }[] }) => r.rows[0].ok)
      .catch(() => false);
    await db.close();
  }
  if (exists && !reuse) await admin.raw(`drop database ${DB} with (force)`);
  if (!reuse) await admin.raw(`create database ${DB}`);
  await admin.destroy();
  const db = openDatabase({ url: benchUrl(DB), poolMax: 2 });
  const k = db.knex;
  const model = loadMetadata(process.env.BENCH_META || undefined);
  if (!reuse) {
    log(
      `generating ${DB}: ${SUBJECTS.toLocaleString('en')} subjects, ${PAYMENTS.toLocaleString('en')} payments, ${REPORTS.toLocaleString('en')} compensation reports…`,
    );
    await migrate(k, model);
    await seed(k, model, { adminPassword: 'bench-admin-pw' });
    const region = (await k('regions').where({ is_active: true }).orderBy('ordering').first('id')).id as number;
    await createUser(k, { username: 'bench_region', password: PASSWORD, roles: ['headquarters'], region_id: region });
    await generate(k);
  } else {
    log(`reusing ${DB}; migrating it to the newest schema…`);
    const s = Date.now();
    await migrate(k, model);
    log(`  migrated in ${((Date.now() - s) / 1000).toFixed(1)} s`);
  }
  const counts = (
    await k.raw(`select (select count(*) from subjects) as subjects, (select count(*) from payments) as payments, (select count(*) from payment_splits) as splits,
      (select count(*) from subject_reports) as reports, (select count(*) from flows) as flows, (select count(*) from protocols) as protocols, (select count(*) from akts) as akts,
      (select count(*) from penya) as penya, (select count(*) from plantings) as plantings, pg_size_pretty(pg_database_size(current_database())) as size`)
  ).rows[0];
  log(
    `data: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${typeof v === 'string' && /^\d+$/.test(v) ? Number(v).toLocaleString('en') : v}`)
      .join(', ')}`,
  );
  await db.close();
}

async function principal(k: Knex, username: string): Promise<Principal> {
  const row = (
    await k.raw(`select u.id, u.username, u.region_id, u.branch_id, u.subject_id, ${ACTIONS_SQL} from users u where u.username = ?`, [
      username,
    ])
  ).rows[0];
  return {
    id: row.id,
    username: row.username,
    actions: new Set((row.actions as number[]).map(Number)),
    region_id: row.region_id ?? null,
    branch_id: row.branch_id ?? null,
    subject_id: row.subject_id ?? null,
  };
}

interface Result {
  report: string;
  period: 'year' | 'history' | 'quarter';
  who: 'administrator' | 'region';
  p50: number;
  p99: number;
  rows: number;
  refused?: string;
  note?: string;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

/** The query string of a period: a year, or the whole history (a date range where the report takes one, else the five years its yearly analysis spans). */
function periodQuery(r: ReportMeta, period: Result['period']): Record<string, string> | null {
  if (period === 'year') return { year: String(YEAR) };
  if (period === 'quarter')
    return r.params.quarter
      ? { year: String(YEAR), quarter: 'q4', ...(r.params.category_id ? { category_id: String(NARROW_CATEGORY) } : {}) }
      : null;
  if (r.params.date_from && r.params.date_to) return { year: tashkentToday().slice(0, 4), date_from: FIRST_DAY, date_to: tashkentToday() };
  if (r.name === 'report-yearly-analysis-by-subject') return { year: tashkentToday().slice(0, 4) };
  return null;
}

await prepare();
const db = openDatabase({ url: benchUrl(DB), poolMax: 2 });
const k = db.knex;
const model = loadMetadata(process.env.BENCH_META || undefined);
const NARROW_CATEGORY = Number((await k('subject_categories').where({ code: 'II' }).first('id')).id);
const who = { administrator: await principal(k, 'admin'), region: await principal(k, 'bench_region') };
const reports = [...model.reports.values()]
  .filter((r) => r.module === 'ecofund-reports' && (!ONLY.length || ONLY.includes(r.name)) && !SKIP.includes(r.name))
  .sort((a, b) => (a.access ?? 0) - (b.access ?? 0));
const loadBefore = load();
const results: Result[] = [];
for (const r of reports) {
  // the reports listing subjects are asked for a page (100 rows, with the count and totals of all): over a year also for one region's quarter and category II
  const perSubject = r.maxRows !== undefined;
  for (const period of ['year', 'history', ...(perSubject ? ['quarter' as const] : [])] as const) {
    const query = periodQuery(r, period);
    for (const [name, p] of Object.entries(who) as [Result['who'], Principal][]) {
      if (period === 'quarter' && name === 'administrator') continue;
      if (!query) {
        results.push({ report: r.name, period, who: name, p50: NaN, p99: NaN, rows: 0, note: 'takes a year only' });
        continue;
      }
      if (!canOpenReport(r, p)) throw new Error(`${name} may not open ${r.name}`);
      const { params, errors } = resolveReportParams(r, query, p);
      if (errors) throw new Error(`${r.name}: ${JSON.stringify(errors)}`);
      const times: number[] = [];
      let rows = 0;
      let refused: string | undefined;
      for (let i = 0; i <= RUNS; i++) {
        const t = process.hrtime.bigint();
        try {
          // a per-subject report is asked for its first page, as the back-office asks (the row count and totals of every row come with it)
          const res = await runReport(k, model, r, params, 'uz', new Date(), perSubject ? { page: 1, perPage: 100 } : null);
          rows = res.total;
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          refused = `refused: ${e.message}`;
        }
        if (i > 0) times.push(Number(process.hrtime.bigint() - t) / 1e6); // run 0 warms the caches
      }
      const res: Result = { report: r.name, period, who: name, p50: quantile(times, 0.5), p99: quantile(times, 0.99), rows, refused };
      results.push(res);
      const target = period === 'history' ? 3000 : 1000;
      log(
        `  ${r.name} ${period} ${name}: p50 ${res.p50.toFixed(0)} ms, p99 ${res.p99.toFixed(0)} ms, ${rows} rows${refused ? ` (${refused})` : ''}${res.p99 >= target ? '  ← OVER TARGET' : ''}`,
      );
    }
  }
}

log(
  `\nbench/fund-reports: ${SUBJECTS.toLocaleString('en')} subjects, ${PAYMENTS.toLocaleString('en')} payments, ${REPORTS.toLocaleString('en')} compensation reports, ${RUNS} runs each (after a warm-up), year ${YEAR}, history ${FIRST_DAY} – ${tashkentToday()}`,
);
log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average 1/5/15 min before ${loadBefore}, after ${load()}`);
log(
  '| report | year, admin p50 / p99 ms | year, region p50 / p99 ms | history, admin p50 / p99 ms | history, region p50 / p99 ms | rows (admin, year) | region, Q4, category II: p50 / p99 ms, rows |',
);
log('|---|---:|---:|---:|---:|---:|---:|');
const cell = (r: Result | undefined) => {
  if (!r) return '';
  if (r.note) return r.note;
  const over = r.p99 >= (r.period === 'history' ? 3000 : 1000);
  return `${r.p50.toFixed(0)} / ${over ? '**' : ''}${r.p99.toFixed(0)}${over ? '** ✗' : ''}${r.refused ? ' (refused: > max rows)' : ''}`;
};
for (const r of reports) {
  const of = (period: string, w: string) => results.find((x) => x.report === r.name && x.period === period && x.who === w);
  const q = of('quarter', 'region');
  log(
    `| ${r.name} | ${cell(of('year', 'administrator'))} | ${cell(of('year', 'region'))} | ${cell(of('history', 'administrator'))} | ${cell(of('history', 'region'))} | ${of('year', 'administrator')?.rows ?? ''} | ${q ? `${cell(q)}, ${q.rows}` : ''} |`,
  );
}
const missed = results.filter((r) => !r.note && r.p99 >= (r.period === 'history' ? 3000 : 1000));
log(
  `targets (p99 < 1 s a year, < 3 s the whole history): ${missed.length ? `NOT met by ${missed.length}: ${missed.map((m) => `${m.report} (${m.period}, ${m.who})`).join(', ')}` : 'met by every report'}`,
);
await db.close();
if (DROP) {
  const admin = knexFactory({ client: 'pg', connection: benchUrl('postgres'), pool: { min: 0, max: 1 } });
  await admin.raw(`drop database if exists ${DB} with (force)`);
  await admin.destroy();
  log(`dropped ${DB}`);
}
