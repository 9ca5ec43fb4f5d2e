import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExcelLikeAnswer } from './support/report-excel.ts';
import { startTestApi, type TestApi } from './support/api.ts';
import { todayTashkent } from '../api/meta/today.ts';
import { formatTiyin, parseTiyin } from '../api/domain/money.ts';

/**
 * The fund's 19 reports (metadata/reports/ecofund-reports, docs/reports.md) on generated data: a
 * few hundred payments (confirmed through the real workflow, so split by the real hook),
 * compensation reports in every state, acts, protocols, penya and plantings in two regions. Every
 * money total is computed twice — by the report and here, in exact tiyin, from the ledger rows —
 * and the same money must agree between the reports that show it, for the administrator, for a
 * region's staff (their region only) and in the Excel export.
 */
const NAMES = [
  'formation-report-one',
  'pkm290',
  'report-three',
  'payments-report',
  'assembled-report',
  'information-report',
  'first-app-report',
  'second-app-report',
  'third-app-report',
  'second-payment-report',
  'report-0185',
  'monitoring-report',
  'reporting-monitoring',
  'report-compensation-payments-analis',
  'compensation-report',
  'report-analysis-by-subject-category',
  'report-yearly-analysis-by-subject',
  'report-acceptance-analysis',
  'planting-status-report',
  'pkm375',
];
const ACTIONS = NAMES.map((_, i) => 5601 + i);

let api: TestApi;
let tashkent: number;
let samarkand: number;
let regionToken: string;
let subjectToken: string;
let noneToken: string;
let oneSubject: number;
const today = todayTashkent();
const year = Number(today.slice(0, 4));
const dayOfYear = Math.floor((Date.parse(today) - Date.parse(`${year}-01-01`)) / 86400000);

// a small deterministic generator, so a failure can be reproduced
let seed = 20170904;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
const dateIn = (y: number, maxDay = 364) =>
  new Date(Date.UTC(y, 0, 1) + Math.floor(rnd() * (maxDay + 1)) * 86400000).toISOString().slice(0, 10);
const money = () => `${Math.floor(rnd() * 5_000_000) + 1}.${String(Math.floor(rnd() * 100)).padStart(2, '0')}`;

interface Payment {
  id: number;
  paid_on: string;
  amount: string;
  status: string;
  region_id: number | null;
  subject_id: number | null;
  income_type_id: number | null;
  payment_type: string;
}
interface Split {
  parent_id: number;
  income_code: string;
  budget: string;
  fund: string;
  organisation: string;
}
interface Report {
  id: number;
  subject_id: number;
  region_id: number;
  year: number;
  period: string;
  month: number | null;
  amount: string;
  status: string;
  category_id: number | null;
  sent_on: string | null;
  late_fine: string | null;
}
let ledger: {
  payments: Payment[];
  splits: Split[];
  groups: Map<string, string>;
  reports: Report[];
  subjects: { id: number; region_id: number; category_id: number; status: string | null }[];
  protocols: { region_id: number; subject_id: number; protocol_date: string; fine_amount: string }[];
  penya: { region_id: number; subject_id: number; due_date: string; amount: string }[];
  akts: { region_id: number; akt_date: string; amount: string }[];
};

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  tashkent = (await k('regions').where({ soato: '1726' }).first('id')).id;
  samarkand = (await k('regions').where({ soato: '1718' }).first('id')).id;
  const regions = [tashkent, samarkand];
  const categories = (await k('subject_categories').orderBy('code').select('id')).map((r: { id: number }) => r.id);
  const incomeTypes = (await k('income_types').select('id', 'code')) as { id: number; code: string }[];
  const reportCategories = [...(await k('report_categories').select('id')).map((r: { id: number }) => r.id), null];

  const subjects: number[] = [];
  for (let i = 0; i < 24; i++) {
    const [s] = await k('subjects')
      .insert({
        inn: String(300000000 + i),
        name: `Sinov subyekti ${i}`,
        region_id: regions[i % 2],
        category_id: categories[i % 4],
        status: i === 23 ? 'stopped' : i === 22 ? 'suspended' : 'active',
        privilege: i % 7 === 0,
      })
      .returning('id');
    subjects.push(s.id);
  }
  oneSubject = subjects[2];

  const [stack] = await k('payment_stacks').insert({ number: 'GEN-1', statement_date: today }).returning('id');
  const rows = Array.from({ length: 320 }, (_, i) => {
    const subject = i % 10 === 0 ? null : pick(subjects);
    const income = pick(incomeTypes);
    const lastYear = i % 9 === 0;
    return {
      stack_id: stack.id,
      paid_on: lastYear ? dateIn(year - 1) : dateIn(year, dayOfYear),
      number: `P-${i}`,
      amount: money(),
      payment_type: i % 3 === 0 ? 'cash' : 'card',
      income_type_id: income.id,
      income_code: income.code,
      subject_id: subject,
      region_id: subject === null ? null : regions[subjects.indexOf(subject) % 2],
      status: subject === null ? 'undefined' : 'defined',
    };
  });
  const inserted = await k('payments').insert(rows).returning(['id', 'status']);
  const definedIds = inserted.filter((r: { status: string }) => r.status === 'defined').map((r: { id: number }) => r.id);
  const toConfirm = definedIds.filter((_: number, i: number) => i % 4 !== 3);
  const confirmed = await api.post('/api/ecofund/payments/actions/confirm', { ids: toConfirm });
  if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);

  const statuses = ['accepted', 'accepted', 'accepted', 'rejected', 'sent', 'in_process', 'new', 'invalid'];
  const periods: [string, number | null][] = [
    ['q1', null],
    ['q2', null],
    ['q3', null],
    ['q4', null],
    ['year', null],
    ['month', 2],
    ['month', 5],
    ['month', 11],
  ];
  for (let i = 0; i < 160; i++) {
    const subject = subjects[i % 22]; // the stopped and the suspended subjects do not report
    const [period, month] = pick(periods);
    const status = pick(statuses);
    const y = i % 6 === 0 ? year - 1 - (i % 3) : year;
    const [r] = await k('subject_reports')
      .insert({
        subject_id: subject,
        region_id: regions[subjects.indexOf(subject) % 2],
        year: y,
        period,
        month,
        report_date: `${y}-0${1 + (i % 9)}-15`,
        category_id: pick(reportCategories),
        base_value: '375000.00',
        amount: money(),
        status,
        // one sent report in five was late: its fine is dated by its sending
        ...(status !== 'new' && i % 5 === 1
          ? {
              sent_on: new Date(Date.UTC(y, 1 + (i % 9), 16)).toISOString().slice(0, 10),
              late_days: 3,
              late_fine: `${1360000 + i * 100}.00`,
            }
          : {}),
      })
      .returning('id');
    if (status !== 'new') {
      const sent = new Date(Date.UTC(y, 1 + (i % 9), 16, 9));
      const flows = [
        { entity: 'subject-report-yearly', record_id: r.id, action: 'send', from_state: 'new', to_state: 'sent', created_at: sent },
      ];
      if (status === 'accepted')
        flows.push({
          entity: 'subject-report-yearly',
          record_id: r.id,
          action: 'accept',
          from_state: 'sent',
          to_state: 'accepted',
          created_at: new Date(sent.getTime() + (1 + (i % 5)) * 86400000),
        });
      if (status === 'rejected')
        flows.push({
          entity: 'subject-report-yearly',
          record_id: r.id,
          action: 'reject',
          from_state: 'sent',
          to_state: 'rejected',
          created_at: new Date(sent.getTime() + 86400000),
        });
      await k('flows').insert(flows);
    }
  }

  const akt = await k('stack_akt_categories').first('id');
  const protocolCategory = await k('stack_protocol_categories').first('id');
  const aktType = await k('akt_types').first('id');
  for (const region of regions) {
    const [st] = await k('akt_stacks')
      .insert({ number: `S-${region}`, stack_date: today, category_id: akt.id, region_id: region })
      .returning('id');
    const [ps] = await k('protocol_stacks')
      .insert({ number: `B-${region}`, stack_date: today, category_id: protocolCategory.id, region_id: region })
      .returning('id');
    for (let i = 0; i < 12; i++) {
      const subject = subjects[(i * 2 + (region === tashkent ? 0 : 1)) % 22];
      await k('akts').insert({
        stack_id: st.id,
        subject_id: subject,
        region_id: region,
        akt_type_id: aktType.id,
        number: `A-${region}-${i}`,
        akt_date: dateIn(year, dayOfYear),
        amount: money(),
      });
      await k('protocols').insert({
        stack_id: ps.id,
        subject_id: subject,
        region_id: region,
        number: `B-${region}-${i}`,
        protocol_date: dateIn(year, dayOfYear),
        fine_amount: money(),
      });
      await k('penya').insert({
        subject_id: subject,
        region_id: region,
        debt: money(),
        due_date: dateIn(year, dayOfYear),
        as_of: today,
        daily_rate: '0.033',
        overdue_days: 10 + i,
        paid: '0.00',
        amount: money(),
      });
    }
  }

  const org = (await api.post('/api/ecofund-plantings/planting-orgs', { name: { uz: 'Sinov tashkiloti' }, kind: 'ministry' })).body.id;
  const species = (await k('tree_species').first('id')).id;
  await k('planting_plans').insert([
    { year, region_id: tashkent, org_id: org, trees: 1000 },
    { year, region_id: samarkand, org_id: org, trees: 400 },
  ]);
  for (const [region, count] of [
    [tashkent, 300],
    [samarkand, 100],
  ] as const) {
    const r = await api.post('/api/ecofund-plantings/plantings', {
      species_id: species,
      count,
      planted_on: `${year}-03-15`,
      location: { lat: 41.3, lng: 69.25 },
      place_type: 'street',
      region_id: region,
      org_id: org,
    });
    if (r.status !== 201) throw new Error(`planting: ${r.status} ${JSON.stringify(r.body)}`);
  }

  regionToken = await api.userWithActions('fund-region', ACTIONS, { region_id: samarkand });
  subjectToken = await api.userWithActions('fund-subject', ACTIONS, { subject_id: oneSubject });
  noneToken = await api.userWithActions('fund-payments-only', [577], { region_id: samarkand });

  ledger = {
    payments: await k('payments').select('id', 'paid_on', 'amount', 'status', 'region_id', 'subject_id', 'income_type_id', 'payment_type'),
    splits: await k('payment_splits').select('parent_id', 'income_code', 'budget', 'fund', 'organisation'),
    groups: new Map((await k('income_types').select('code', 'group')).map((r: { code: string; group: string }) => [r.code, r.group])),
    reports: (await k('subject_reports').select(
      'id',
      'subject_id',
      'region_id',
      'year',
      'period',
      'month',
      'amount',
      'status',
      'category_id',
      k.raw('CAST(sent_on AS text) AS sent_on'),
      'late_fine',
    )) as Report[],
    subjects: await k('subjects').select('id', 'region_id', 'category_id', 'status'),
    protocols: await k('protocols').select('region_id', 'subject_id', 'protocol_date', 'fine_amount'),
    penya: await k('penya').select('region_id', 'subject_id', 'due_date', 'amount'),
    akts: await k('akts').select('region_id', 'akt_date', 'amount'),
  };
}, 120_000);
afterAll(async () => {
  await api?.close();
});

/** Exact sums in tiyin, shown as the reports show money. */
const sum = (xs: (string | null | undefined)[]) => formatTiyin(xs.reduce<bigint>((s, x) => s + (x ? parseTiyin(String(x)) : 0n), 0n));
const inYear = (d: string, from = `${year}-01-01`, to = `${year}-12-31`) => d >= from && d <= to;
const byRegion = (region?: number) => (r: { region_id: number | null }) => region === undefined || r.region_id === region;

function confirmedSplits(o: { region?: number; from?: string; to?: string; group?: string } = {}) {
  const pays = new Map(
    ledger.payments
      .filter((p) => p.status === 'confirmed' && inYear(p.paid_on, o.from, o.to) && byRegion(o.region)(p))
      .map((p) => [p.id, p]),
  );
  const splits = ledger.splits.filter((s) => pays.has(s.parent_id) && (!o.group || ledger.groups.get(s.income_code) === o.group));
  return {
    count: new Set(splits.map((s) => s.parent_id)).size,
    amount: formatTiyin(splits.reduce((t, s) => t + parseTiyin(s.budget) + parseTiyin(s.fund) + parseTiyin(s.organisation), 0n)),
    budget: sum(splits.map((s) => s.budget)),
    fund: sum(splits.map((s) => s.fund)),
    organisation: sum(splits.map((s) => s.organisation)),
    paymentsAmount: sum([...pays.values()].filter((p) => splits.some((s) => s.parent_id === p.id)).map((p) => p.amount)),
  };
}
const accrued = (region?: number, y = year) =>
  sum(ledger.reports.filter((r) => r.status === 'accepted' && r.year === y && byRegion(region)(r)).map((r) => r.amount));

async function report(name: string, query = '', token?: string) {
  const r = await api.get(`/api/reports/${name}?year=${year}${query}`, { token, lang: 'ru' });
  if (r.status !== 200) throw new Error(`${name}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as {
    rows: Record<string, any>[];
    totals: Record<string, any>;
    params: Record<string, any>;
    columns: { name: string; type: string; caption: string }[];
    title: string;
  };
}

describe('every fund report', () => {
  it.each(NAMES)('%s answers the administrator and a region, whose rows and totals are theirs only', async (name) => {
    const all = await report(name);
    expect(all.title).not.toMatch(/^report\./);
    expect(all.columns.every((c) => !c.caption.startsWith('report.'))).toBe(true);
    expect(all.rows.length).toBeGreaterThan(0);
    const mine = await report(name, `&region_id=${tashkent}`, regionToken);
    expect(mine.params.region_id).toBe(samarkand);
    const regionName = (await api.db.knex('regions').where({ id: samarkand }).first('name')).name.ru;
    for (const row of mine.rows) {
      if ('region_id' in row && row.region_id !== null) expect(row.region_id).toBe(samarkand);
      if ('region' in row) expect(row.region).toBe(regionName);
    }
    // a region-listing report shows the same row to the region as to the administrator
    const adminRow = all.rows.find((r) => r.region_id === samarkand);
    if (adminRow && name !== 'report-analysis-by-subject-category' && name !== 'report-yearly-analysis-by-subject')
      expect(mine.rows).toEqual([adminRow]);
    // nothing without the report's action
    expect((await api.get(`/api/reports/${name}`, { token: noneToken })).status).toBe(403);
  });

  it.each(NAMES)('%s exports to Excel with the same totals', async (name) => {
    const json = await report(name);
    const r = await api.get(`/api/reports/${name}/export?year=${year}`, { lang: 'ru' });
    expect(r.status).toBe(200);
    await expectExcelLikeAnswer(r.raw, json);
  });
});

describe('totals reconcile with the ledgers and with each other', () => {
  it('the fund formation: by income code, by region, by month and by income group equal the splits of confirmed payments', async () => {
    const l = confirmedSplits();
    const [one, pkm, three, app2, info, pays] = await Promise.all([
      report('formation-report-one'),
      report('pkm290'),
      report('report-three'),
      report('second-app-report'),
      report('information-report'),
      report('payments-report'),
    ]);
    expect(one.totals).toMatchObject({ payments: l.count, amount: l.amount, budget: l.budget, fund: l.fund, organisation: l.organisation });
    expect(l.amount).toBe(l.paymentsAmount); // the splits add up to the payments, to the tiyin
    for (const r of [pkm, three])
      expect(r.totals).toMatchObject({ payments: l.count, amount: l.amount, budget: l.budget, fund: l.fund, organisation: l.organisation });
    expect(app2.totals.amount).toBe(l.amount);
    // decision 375's formation of the fund by its sources: every income code paid under, its sums those of its splits
    const bySource = await report('pkm375');
    expect(bySource.totals).toMatchObject({
      payments: l.count,
      amount: l.amount,
      budget: l.budget,
      fund: l.fund,
      organisation: l.organisation,
    });
    expect(bySource.rows.map((r) => r.income_code)).toEqual(
      expect.arrayContaining([...ledger.groups.keys()].filter((c) => ledger.splits.some((x) => x.income_code === c))),
    );
    for (const group of ['compensation', 'tree_felling', 'fine']) {
      const rows = bySource.rows.filter((r) => ledger.groups.get(r.income_code) === group);
      expect(sum(rows.map((r) => r.amount)), group).toBe(confirmedSplits({ group }).amount);
    }
    expect(app2.totals.compensation).toBe(confirmedSplits({ group: 'compensation' }).amount);
    expect(app2.totals.fine).toBe(confirmedSplits({ group: 'fine' }).amount);
    expect(info.totals.paid).toBe(l.amount);
    expect(pays.totals.confirmed_amount).toBe(l.amount);
    expect(three.rows[11].amount_cumulative).toBe(l.amount);
    for (const region of [tashkent, samarkand]) {
      const lr = confirmedSplits({ region });
      expect(pkm.rows.find((r) => r.region_id === region)).toMatchObject({
        amount: lr.amount,
        budget: lr.budget,
        fund: lr.fund,
        organisation: lr.organisation,
      });
      const mine = await report('formation-report-one', `&region_id=${region}`);
      expect(mine.totals).toMatchObject({ amount: lr.amount, fund: lr.fund });
    }
    // the region's own staff see the region's figure
    expect((await report('formation-report-one', '', regionToken)).totals.amount).toBe(confirmedSplits({ region: samarkand }).amount);
  });

  it('payments by state and by day equal the payments, whatever their state', async () => {
    const pays = ledger.payments.filter((p) => inYear(p.paid_on));
    const r = await report('payments-report');
    expect(r.totals.amount).toBe(sum(pays.map((p) => p.amount)));
    expect(r.totals.payments).toBe(pays.length);
    expect(r.totals.undefined_amount).toBe(sum(pays.filter((p) => p.status === 'undefined').map((p) => p.amount)));
    expect(r.totals.defined_amount).toBe(sum(pays.filter((p) => p.status === 'defined').map((p) => p.amount)));
    const days = await report('second-payment-report');
    expect(days.totals).toMatchObject({
      amount: r.totals.amount,
      confirmed_amount: r.totals.confirmed_amount,
      payments: pays.length,
      cash: sum(pays.filter((p) => p.payment_type === 'cash').map((p) => p.amount)),
    });
    expect(new Set(days.rows.map((x) => x.paid_on)).size).toBe(days.rows.length);
  });

  it('a quarter, a month and a date range narrow the payments to those dates', async () => {
    const q2 = await report('formation-report-one', '&quarter=q2');
    expect(q2.totals.amount ?? '0.00').toBe(confirmedSplits({ from: `${year}-04-01`, to: `${year}-06-30` }).amount);
    const march = await report('pkm290', '&month=3');
    expect(march.totals.amount).toBe(confirmedSplits({ from: `${year}-03-01`, to: `${year}-03-31` }).amount);
    const range = await report('second-app-report', `&date_from=${year}-02-10&date_to=${year}-05-20`);
    expect(range.totals.amount).toBe(confirmedSplits({ from: `${year}-02-10`, to: `${year}-05-20` }).amount);
    expect((await report('formation-report-one', '&quarter=q5').catch((e) => e)).message).toContain('400');
  });

  it('compensation accrued and paid agree between the reports and with the reports and payments', async () => {
    const acc = accrued();
    const paid = confirmedSplits({ group: 'compensation' }).amount;
    const [assembled, app1, analis, comp, cat, yearly] = await Promise.all(
      [
        'assembled-report',
        'first-app-report',
        'report-compensation-payments-analis',
        'compensation-report',
        'report-analysis-by-subject-category',
        'report-yearly-analysis-by-subject',
      ].map((n) => report(n)),
    );
    for (const r of [assembled, app1, analis, comp, cat]) expect(r.totals.accrued).toBe(acc);
    for (const r of [analis, comp, cat]) expect(r.totals.paid).toBe(paid);
    expect(analis.totals.debt).toBe(formatTiyin(parseTiyin(acc) - parseTiyin(paid)));
    const thisYear = yearly.rows.find((r) => r.year === year)!;
    expect(thisYear).toMatchObject({ accrued: acc, paid });
    expect(yearly.rows.find((r) => r.year === year - 1)!.accrued).toBe(accrued(undefined, year - 1));
    expect(assembled.totals.fund).toBe(confirmedSplits().fund);
    expect((await report('planting-status-report')).totals.financed).toBe(confirmedSplits().fund);
    // a quarter: the quarterly and monthly reports of that quarter only
    const q1 = sum(
      ledger.reports
        .filter((r) => r.status === 'accepted' && r.year === year && (r.period === 'q1' || (r.period === 'month' && r.month! <= 3)))
        .map((r) => r.amount),
    );
    expect((await report('first-app-report', '&quarter=q1')).totals.accrued).toBe(q1);
    expect((await report('report-compensation-payments-analis', '&quarter=q1')).totals.accrued).toBe(q1);
    // the region's staff: their region's accrued and paid
    const mine = await report('report-compensation-payments-analis', '', regionToken);
    expect(mine.totals).toMatchObject({
      accrued: accrued(samarkand),
      paid: confirmedSplits({ region: samarkand, group: 'compensation' }).amount,
    });
  });

  it("the compensation report's balance is each subject's money to the period's end, as its page has it", async () => {
    const comp = await report('compensation-report');
    const end = `${year}-12-31`;
    for (const row of comp.rows) {
      const mine = <T extends { subject_id: number | null }>(xs: T[]) => xs.filter((x) => x.subject_id === row.subject_id);
      const paid = parseTiyin(
        sum(
          mine(ledger.payments)
            .filter((p) => p.status === 'confirmed' && p.paid_on <= end)
            .map((p) => p.amount),
        ),
      );
      const charged = [
        ...mine(ledger.reports)
          .filter((r) => r.status === 'accepted' && r.year <= year)
          .map((r) => r.amount),
        ...mine(ledger.protocols)
          .filter((p) => p.protocol_date <= end)
          .map((p) => p.fine_amount),
        ...mine(ledger.penya)
          .filter((p) => p.due_date <= end)
          .map((p) => p.amount),
        ...mine(ledger.reports)
          .filter((r) => r.late_fine !== null && r.sent_on !== null && r.sent_on <= end)
          .map((r) => r.late_fine),
      ];
      expect(row.balance, `subject ${row.subject_id}`).toBe(formatTiyin(paid - parseTiyin(sum(charged))));
    }
    for (const row of comp.rows.slice(0, 3))
      expect((await api.get(`/api/ecofund/subject/${row.subject_id}/balance?year=${year}`)).body.balance_end).toBe(row.balance);
  });

  it('fines, penya and acts agree with protocols, penya and acts', async () => {
    const fines = sum(ledger.protocols.filter((p) => inYear(p.protocol_date)).map((p) => p.fine_amount));
    const penya = sum(ledger.penya.filter((p) => inYear(p.due_date)).map((p) => p.amount));
    const [assembled, app3, p0185] = await Promise.all([report('assembled-report'), report('third-app-report'), report('report-0185')]);
    expect(assembled.totals).toMatchObject({ fines, penya });
    expect(app3.totals).toMatchObject({
      fines,
      akts_amount: sum(ledger.akts.map((a) => a.amount)),
      akts: ledger.akts.length,
      fines_paid: confirmedSplits({ group: 'fine' }).amount,
    });
    expect(p0185.totals.penya).toBe(penya);
    expect(p0185.totals.penya_count).toBe(ledger.penya.length);
    expect((await report('report-0185', '', regionToken)).totals.penya).toBe(
      sum(ledger.penya.filter((p) => p.region_id === samarkand).map((p) => p.amount)),
    );
  });

  it('submission monitoring counts who reported, who did not, and how long acceptance took', async () => {
    const active = ledger.subjects.filter((s) => s.status !== 'stopped');
    const reported = new Set(ledger.reports.filter((r) => r.year === year && r.status !== 'new').map((r) => r.subject_id));
    const mon = await report('monitoring-report');
    expect(mon.totals.subjects).toBe(active.length);
    expect(mon.totals.reported).toBe([...reported].filter((id) => active.some((s) => s.id === id)).length);
    expect(mon.totals.not_reported).toBe(mon.totals.subjects - mon.totals.reported);
    const missing = await report('reporting-monitoring');
    expect(missing.rows.length).toBe(mon.totals.not_reported);
    const acc = await report('report-acceptance-analysis');
    const thisYear = ledger.reports.filter((r) => r.year === year && r.status !== 'new');
    expect(acc.totals).toMatchObject({
      submitted: thisYear.length,
      accepted: thisYear.filter((r) => r.status === 'accepted').length,
      rejected: thisYear.filter((r) => r.status === 'rejected').length,
    });
    for (const row of acc.rows.filter((r) => r.accepted > 0)) {
      expect(Number(row.days_avg)).toBeGreaterThanOrEqual(1);
      expect(Number(row.days_max)).toBeLessThanOrEqual(5);
    }
    const cat = await report('report-analysis-by-subject-category');
    expect(cat.rows.map((r) => r.category)).toHaveLength(4);
    expect(cat.totals.subjects).toBe(active.length);
  });

  it('late-report fines: the consolidated report and the yearly analysis show them, as the ledger dates them (by sending)', async () => {
    const late = (region?: number, y = year) =>
      sum(
        ledger.reports
          .filter((r) => r.late_fine !== null && r.sent_on !== null && r.sent_on.startsWith(`${y}-`) && byRegion(region)(r))
          .map((r) => r.late_fine),
      );
    expect(parseTiyin(late())).toBeGreaterThan(0n);
    const assembled = await report('assembled-report');
    expect(assembled.totals.late_fines).toBe(late());
    for (const region of [tashkent, samarkand]) expect(assembled.rows.find((r) => r.region_id === region)!.late_fines).toBe(late(region));
    expect((await report('assembled-report', '', regionToken)).totals.late_fines).toBe(late(samarkand));
    const yearly = await report('report-yearly-analysis-by-subject');
    for (const y of [year, year - 1, year - 2])
      expect(yearly.rows.find((r) => r.year === y)!.late_fines, String(y)).toBe(late(undefined, y));
    expect(yearly.totals.late_fines).toBe(formatTiyin([0, 1, 2, 3, 4].reduce((t, d) => t + parseTiyin(late(undefined, year - d)), 0n)));
    // the ledger's own late fines of the year (what the balance subtracts) are the same money
    const ledgerLate = (
      await api.db.knex.raw(
        `SELECT CAST(coalesce(sum(amount), 0) AS numeric(20, 2)) AS s FROM fund_subject_ledger(NULL) WHERE kind = 'late_fine' AND on_date >= ? AND on_date < ?`,
        [`${year}-01-01`, `${year + 1}-01-01`],
      )
    ).rows[0].s;
    expect(assembled.totals.late_fines).toBe(ledgerLate);
  });

  it('a page of a per-subject report: its rows in order, the row count and the totals of every row', async () => {
    for (const name of ['compensation-report', 'reporting-monitoring']) {
      const all = await report(name);
      expect(all.rows.length).toBeGreaterThan(0);
      const per = name === 'compensation-report' ? 3 : 1;
      if (per === 3) expect(all.rows.length).toBeGreaterThan(4);
      const pages: Record<string, any>[] = [];
      for (let page = 1; page <= Math.ceil(all.rows.length / per); page++) {
        const p = (await report(name, `&page=${page}&perPage=${per}`)) as Awaited<ReturnType<typeof report>> & {
          total: number;
          page: { page: number; perPage: number };
        };
        expect(p.total, name).toBe(all.rows.length);
        expect(p.page).toEqual({ page, perPage: per });
        expect(p.totals, name).toEqual(all.totals);
        expect(p.rows.length).toBeLessThanOrEqual(per);
        pages.push(...p.rows);
      }
      expect(pages, name).toEqual(all.rows);
      // past the end: no rows, the same count and totals
      const past = (await report(name, '&page=999&perPage=50')) as Awaited<ReturnType<typeof report>> & { total: number };
      expect([past.rows.length, past.total, past.totals]).toEqual([0, all.rows.length, all.totals]);
      // a region's staff: their own rows, counted and totalled
      const mine = (await report(name, '&page=1&perPage=2', regionToken)) as Awaited<ReturnType<typeof report>> & { total: number };
      const mineAll = await report(name, '', regionToken);
      expect([mine.total, mine.totals]).toEqual([mineAll.rows.length, mineAll.totals]);
    }
    // `page` alone: the first rows of a default page; a ratio total is the ratio of every row's sums
    const cat = (await report('report-analysis-by-subject-category', '&page=1&perPage=1')) as Awaited<ReturnType<typeof report>> & {
      total: number;
    };
    expect(cat.totals).toEqual((await report('report-analysis-by-subject-category')).totals);
    expect(cat.rows).toHaveLength(1);
    // a wrong page or page size is refused naming it
    for (const [q, field] of [
      ['&page=0', 'page'],
      ['&perPage=5001', 'perPage'],
      ['&page=x&perPage=10', 'page'],
      ['&perPage=-1', 'perPage'],
    ]) {
      const r = await api.get(`/api/reports/compensation-report?year=${year}${q}`);
      expect(r.status, q).toBe(400);
      expect(JSON.stringify(r.body), q).toContain(field);
    }
  });

  it('a subject sees itself only', async () => {
    const mine = await report('compensation-report', '', subjectToken);
    expect(mine.params.subject_id).toBe(oneSubject);
    expect(mine.rows.every((r) => r.subject_id === oneSubject)).toBe(true);
    expect(mine.totals.accrued ?? '0.00').toBe(
      sum(ledger.reports.filter((r) => r.subject_id === oneSubject && r.year === year && r.status === 'accepted').map((r) => r.amount)),
    );
    const f = await report('formation-report-one', '', subjectToken);
    const own = ledger.payments.filter((p) => p.subject_id === oneSubject && p.status === 'confirmed' && inYear(p.paid_on));
    expect(f.totals.amount ?? '0.00').toBe(sum(own.map((p) => p.amount)));
  });
});
