import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { todayTashkent } from '../api/meta/today.ts';

/**
 * The aggregates the fund's reports read (migrations/20261127000100_fund_report_facts.ts):
 * `fund_split_months`, `fund_ledger_months`, `fund_payer_periods` (…_fund_payer_periods.ts),
 * `fund_subject_split_months` and `fund_ledger_years` (…_fund_subject_aggregates.ts), kept by
 * statement triggers, must always equal what they summarise — the confirmed payments' splits and the subjects' ledger — after payments are
 * created, attached, confirmed, un-confirmed, changed and deleted (through the workflow and by plain
 * SQL), splits removed, subjects moved to another category and reports, protocols and penya
 * changed; and the reports read from them must answer what the rows say: a whole year, a period
 * with part months at both ends, one subject, a category, and the balance on any day.
 */
let api: TestApi;
const today = todayTashkent();
const year = Number(today.slice(0, 4));
const PAYMENTS = '/api/ecofund/payments';
let regions: number[];
let subjects: number[];
let categories: number[];
let incomeTypes: { id: number; code: string }[];
let stack: number;
let n = 0;

const k = () => api.db.knex;
const rows = async (sql: string, b: unknown[] = []) => (await k().raw(sql, b as never)).rows as Record<string, any>[];

/** Both aggregates, each compared with what it sums, row for row. */
async function expectAggregatesExact(): Promise<void> {
  const splitRaw = `SELECT CAST(date_trunc('month', CAST(p.paid_on AS timestamp)) AS date) AS month, coalesce(p.region_id, 0) AS region_id, coalesce(c.category_id, 0) AS category_id,
      coalesce(p.income_type_id, 0) AS income_type_id, coalesce(s.income_code, '') AS income_code, count(*) AS splits, sum(s.budget + s.fund + s.organisation) AS amount,
      sum(s.budget) AS budget, sum(s.fund) AS fund, sum(s.organisation) AS organisation
    FROM payments p JOIN payment_splits s ON s.parent_id = p.id LEFT JOIN subjects c ON c.id = p.subject_id WHERE p.status = 'confirmed' GROUP BY 1, 2, 3, 4, 5`;
  const splitFacts =
    'SELECT month, region_id, category_id, income_type_id, income_code, splits, amount, budget, fund, organisation FROM fund_split_months';
  const ledgerRaw = `SELECT subject_id, CAST(date_trunc('month', CAST(on_date AS timestamp)) AS date) AS month, kind, count(*) AS n, sum(amount) AS amount FROM fund_subject_ledger(NULL) GROUP BY 1, 2, 3`;
  const ledgerFacts = 'SELECT subject_id, month, kind, n, amount FROM fund_ledger_months';
  const payerRaw = `SELECT CAST(extract(year FROM p.paid_on) AS int) AS year, k.period, coalesce(p.region_id, 0) AS region_id, coalesce(p.subject_id, 0) AS subject_id, count(*) AS n, sum(p.amount) AS amount
    FROM payments p CROSS JOIN LATERAL (VALUES ('year'), ('q' || CAST(extract(quarter FROM p.paid_on) AS int))) AS k(period) WHERE p.status = 'confirmed' GROUP BY 1, 2, 3, 4`;
  const payerFacts = 'SELECT year, CAST(period AS text), region_id, subject_id, n, amount FROM fund_payer_periods';
  const subjectSplitRaw = `SELECT CAST(date_trunc('month', CAST(p.paid_on AS timestamp)) AS date) AS month, coalesce(s.income_code, '') AS income_code, coalesce(p.region_id, 0) AS region_id,
      coalesce(p.subject_id, 0) AS subject_id, count(*) AS splits, coalesce(sum(s.budget + s.fund + s.organisation), 0) AS amount
    FROM payments p JOIN payment_splits s ON s.parent_id = p.id WHERE p.status = 'confirmed' GROUP BY 1, 2, 3, 4`;
  const subjectSplitFacts = 'SELECT month, income_code, region_id, subject_id, splits, amount FROM fund_subject_split_months';
  // each year a subject has ledger rows in: how many, and every kind summed over its rows up to that year's end
  const yearsRaw = `SELECT y.subject_id, y.year, y.n, t.paid, t.accrued, t.fines, t.late_fines, t.penya
    FROM (SELECT subject_id, CAST(extract(year FROM on_date) AS int) AS year, count(*) AS n FROM fund_subject_ledger(NULL) GROUP BY 1, 2) y
    CROSS JOIN LATERAL (SELECT coalesce(sum(l.amount) FILTER (WHERE l.kind = 'paid'), 0) AS paid, coalesce(sum(l.amount) FILTER (WHERE l.kind = 'accrued'), 0) AS accrued,
        coalesce(sum(l.amount) FILTER (WHERE l.kind = 'fine'), 0) AS fines, coalesce(sum(l.amount) FILTER (WHERE l.kind = 'late_fine'), 0) AS late_fines,
        coalesce(sum(l.amount) FILTER (WHERE l.kind = 'penya'), 0) AS penya
      FROM fund_subject_ledger(y.subject_id) l WHERE l.on_date < make_date(y.year + 1, 1, 1)) t`;
  const yearsFacts = 'SELECT subject_id, year, n, paid, accrued, fines, late_fines, penya FROM fund_ledger_years';
  for (const [a, b, what] of [
    [splitRaw, splitFacts, 'fund_split_months'],
    [ledgerRaw, ledgerFacts, 'fund_ledger_months'],
    [payerRaw, payerFacts, 'fund_payer_periods'],
    [subjectSplitRaw, subjectSplitFacts, 'fund_subject_split_months'],
    [yearsRaw, yearsFacts, 'fund_ledger_years'],
  ]) {
    const diff = await rows(`(${a} EXCEPT ${b}) UNION ALL (${b} EXCEPT ${a})`);
    expect(diff, what).toEqual([]);
  }
  expect((await rows('SELECT count(*) AS n FROM fund_split_months')).at(0)!.n).not.toBe('0');
  expect((await rows('SELECT count(*) AS n FROM fund_payer_periods')).at(0)!.n).not.toBe('0');
  expect((await rows('SELECT count(*) AS n FROM fund_subject_split_months')).at(0)!.n).not.toBe('0');
  expect((await rows('SELECT count(*) AS n FROM fund_ledger_years')).at(0)!.n).not.toBe('0');
}

/** The compensation report's paid column per subject (its income types of the compensation group) against the payments' splits. */
async function expectCompensationPaid(query: string, d0: string, d1: string, extra = '', b: unknown[] = []): Promise<number> {
  const want = await rows(
    `SELECT p.subject_id, CAST(sum(s.budget + s.fund + s.organisation) AS numeric(20, 2)) AS paid
      FROM payments p JOIN payment_splits s ON s.parent_id = p.id JOIN income_types it ON it.code = s.income_code AND it."group" = 'compensation' LEFT JOIN subjects c ON c.id = p.subject_id
     WHERE p.status = 'confirmed' AND p.subject_id IS NOT NULL AND p.paid_on >= ? AND p.paid_on < ? ${extra} GROUP BY 1 ORDER BY 1`,
    [d0, d1, ...b],
  );
  const got = (await report('compensation-report', query)).rows
    .filter((r) => r.paid !== '0.00')
    .map((r) => ({ subject_id: String(r.subject_id), paid: r.paid }))
    .sort((x, y) => Number(x.subject_id) - Number(y.subject_id));
  expect(got, query).toEqual(want.map((r) => ({ subject_id: String(r.subject_id), paid: r.paid })));
  return want.length;
}

/** A report's total against the same total summed from the rows. */
async function report(name: string, query: string) {
  const r = await api.get(`/api/reports/${name}?${query}`);
  if (r.status !== 200) throw new Error(`${name}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { rows: Record<string, any>[]; totals: Record<string, any> };
}
const splitTotal = async (where: string, b: unknown[] = []) =>
  (
    await rows(
      `SELECT count(*) AS payments, CAST(coalesce(sum(s.budget + s.fund + s.organisation), 0) AS numeric(20, 2)) AS amount, CAST(coalesce(sum(s.fund), 0) AS numeric(20, 2)) AS fund
    FROM payments p JOIN payment_splits s ON s.parent_id = p.id LEFT JOIN subjects c ON c.id = p.subject_id LEFT JOIN income_types it ON it.code = s.income_code
   WHERE p.status = 'confirmed' AND ${where}`,
      b,
    )
  )[0];

async function expectReportsEqualRows(): Promise<void> {
  const y0 = `${year}-01-01`;
  const y1 = `${year + 1}-01-01`;
  // a whole year, by region and by month
  const whole = await splitTotal('p.paid_on >= ? AND p.paid_on < ?', [y0, y1]);
  const pkm = await report('pkm290', `year=${year}`);
  expect(pkm.totals.payments).toBe(Number(whole.payments));
  expect(pkm.totals.amount).toBe(whole.amount);
  expect((await report('report-three', `year=${year}`)).totals.amount).toBe(pkm.totals.amount);
  expect((await report('formation-report-one', `year=${year}`)).totals.fund).toBe(whole.fund);
  // part months at both ends (a date range), in one region
  const from = `${year - 1}-02-17`;
  const to = `${year}-01-09`;
  const part = await splitTotal('p.paid_on >= ? AND p.paid_on <= ? AND p.region_id = ?', [from, to, regions[0]]);
  const ranged = await report('pkm290', `year=${year}&date_from=${from}&date_to=${to}&region_id=${regions[0]}`);
  expect([ranged.totals.payments, ranged.totals.amount]).toEqual([Number(part.payments), part.amount]);
  // one subject; one category; compensation by category
  const one = await splitTotal('p.paid_on >= ? AND p.paid_on < ? AND p.subject_id = ?', [y0, y1, subjects[1]]);
  expect((await report('formation-report-one', `year=${year}&subject_id=${subjects[1]}`)).totals.amount).toBe(one.amount);
  for (const category of [categories[1], categories[3]]) {
    const cat = await splitTotal('p.paid_on >= ? AND p.paid_on < ? AND c.category_id = ?', [y0, y1, category]);
    expect((await report('pkm290', `year=${year}&category_id=${category}`)).totals.amount).toBe(cat.amount);
  }
  // paying subjects and what they paid (fund_payer_periods for a year or a quarter, the payments for a month), against the payments
  const payers = async (from: string, to: string, extra = '', b: unknown[] = []) =>
    (
      await rows(
        `SELECT count(DISTINCT (coalesce(p.region_id, 0), p.subject_id)) AS paying, CAST(coalesce(sum(p.amount), 0) AS numeric(20, 2)) AS paid
      FROM payments p LEFT JOIN subjects c ON c.id = p.subject_id WHERE p.status = 'confirmed' AND p.region_id IS NOT NULL AND p.paid_on >= ? AND p.paid_on < ? ${extra}`,
        [from, to, ...b],
      )
    )[0];
  for (const [query, from, to] of [
    [`year=${year}`, y0, y1],
    [`year=${year}&quarter=q1`, `${year}-01-01`, `${year}-04-01`],
    [`year=${year - 1}&quarter=q4`, `${year - 1}-10-01`, y0],
    [`year=${year}&month=1`, `${year}-01-01`, `${year}-02-01`],
  ]) {
    const want = await payers(from, to);
    const info = await report('information-report', query);
    expect([info.totals.paying, info.totals.paid], query).toEqual([Number(want.paying), want.paid]);
    const inRegion = await payers(from, to, 'AND p.region_id = ?', [regions[1]]);
    expect((await report('information-report', `${query}&region_id=${regions[1]}`)).totals.paying, query).toBe(Number(inRegion.paying));
    const inCategory = await payers(from, to, 'AND c.category_id = ?', [categories[1]]);
    expect((await report('information-report', `${query}&category_id=${categories[1]}`)).totals.paid, query).toBe(inCategory.paid);
  }
  const comp = await splitTotal(`p.paid_on >= ? AND p.paid_on < ? AND it."group" = 'compensation'`, [y0, y1]);
  expect((await report('report-analysis-by-subject-category', `year=${year}`)).totals.paid).toBe(comp.amount);
  // the balance on a month's first day and inside a month, for every subject, as the ledger sums it
  for (const before of [`${year}-01-01`, `${year - 1}-07-17`, today]) {
    const raw = await rows(
      `SELECT subject_id, sum(CASE WHEN kind = 'paid' THEN amount ELSE -amount END) AS balance FROM fund_subject_ledger(NULL) WHERE on_date < ? GROUP BY 1 ORDER BY 1`,
      [before],
    );
    const viaFacts = await rows('SELECT subject_id, balance FROM fund_subject_balance(CAST(? AS date), NULL) ORDER BY 1', [before]);
    expect(viaFacts).toEqual(raw);
    const single = await rows('SELECT balance FROM fund_subject_balance(CAST(? AS date), CAST(? AS bigint))', [before, subjects[0]]);
    expect(single.at(0)?.balance ?? null).toBe(raw.find((r) => r.subject_id === subjects[0])?.balance ?? null);
  }
  // the compensation report's balance column is that balance at the period's end
  const compensation = await report('compensation-report', `year=${year - 1}`);
  const atEnd = new Map(
    (await rows('SELECT subject_id, balance FROM fund_subject_balance(CAST(? AS date), NULL)', [`${year}-01-01`])).map((r) => [
      Number(r.subject_id),
      r.balance,
    ]),
  );
  for (const r of compensation.rows) expect(r.balance).toBe(atEnd.get(r.subject_id) ?? '0.00');
  // a quarter's end inside a year (whole months of the year from fund_ledger_months), in a region: the balance and the compensation paid
  const q3 = await report('compensation-report', `year=${year - 1}&quarter=q3&region_id=${regions[1]}`);
  const atQ3 = new Map(
    (await rows('SELECT subject_id, balance FROM fund_subject_balance(CAST(? AS date), NULL)', [`${year - 1}-10-01`])).map((r) => [
      Number(r.subject_id),
      r.balance,
    ]),
  );
  for (const r of q3.rows) expect(r.balance).toBe(atQ3.get(r.subject_id) ?? '0.00');
  expect(await expectCompensationPaid(`year=${year - 1}`, `${year - 1}-01-01`, `${year}-01-01`)).toBeGreaterThan(0);
  await expectCompensationPaid(`year=${year}`, `${year}-01-01`, `${year + 1}-01-01`);
  await expectCompensationPaid(
    `year=${year - 1}&quarter=q3&region_id=${regions[1]}`,
    `${year - 1}-07-01`,
    `${year - 1}-10-01`,
    'AND p.region_id = ?',
    [regions[1]],
  );
  await expectCompensationPaid(
    `year=${year - 1}&month=3&category_id=${categories[3]}`,
    `${year - 1}-03-01`,
    `${year - 1}-04-01`,
    'AND c.category_id = ?',
    [categories[3]],
  );
  await expectCompensationPaid(`year=${year - 1}&subject_id=${subjects[2]}`, `${year - 1}-01-01`, `${year}-01-01`, 'AND p.subject_id = ?', [
    subjects[2],
  ]);
  // what the report reads, with part months at both ends, for everyone and for one subject; the balances of a set of subjects on any day
  for (const [d0, d1, subject] of [
    [`${year - 1}-02-17`, `${year}-01-09`, null],
    [`${year - 1}-03-05`, `${year - 1}-03-20`, null],
    [`${year - 1}-01-01`, `${year}-02-01`, subjects[4]],
  ] as const) {
    const raw = await rows(
      `SELECT p.subject_id, s.income_code, sum(s.budget + s.fund + s.organisation) AS amount FROM payments p JOIN payment_splits s ON s.parent_id = p.id
       WHERE p.status = 'confirmed' AND p.paid_on >= ? AND p.paid_on < ? AND (CAST(? AS bigint) IS NULL OR p.subject_id = ?) GROUP BY 1, 2 ORDER BY 1, 2`,
      [d0, d1, subject, subject],
    );
    const read = await rows(
      'SELECT subject_id, income_code, sum(amount) AS amount FROM fund_subject_splits(CAST(? AS date), CAST(? AS date), CAST(? AS bigint)) GROUP BY 1, 2 ORDER BY 1, 2',
      [d0, d1, subject],
    );
    expect(read, `${d0}..${d1}`).toEqual(raw);
  }
  for (const before of [`${year - 1}-01-01`, `${year - 1}-05-01`, `${year - 1}-11-23`, `${year + 1}-01-01`]) {
    const raw = await rows(
      `SELECT subject_id, coalesce(sum(amount) FILTER (WHERE kind = 'paid'), 0.00) AS paid, coalesce(sum(amount) FILTER (WHERE kind = 'accrued'), 0.00) AS accrued,
        coalesce(sum(amount) FILTER (WHERE kind = 'fine'), 0.00) AS fines, coalesce(sum(amount) FILTER (WHERE kind = 'late_fine'), 0.00) AS late_fines,
        coalesce(sum(amount) FILTER (WHERE kind = 'penya'), 0.00) AS penya, sum(CASE WHEN kind = 'paid' THEN amount ELSE -amount END) AS balance
      FROM fund_subject_ledger(NULL) WHERE on_date < ? AND subject_id = ANY (?) GROUP BY 1 ORDER BY 1`,
      [before, subjects.slice(2, 7)],
    );
    expect(
      await rows('SELECT * FROM fund_subject_balances(CAST(? AS date), CAST(? AS bigint[])) ORDER BY 1', [before, subjects.slice(2, 7)]),
      before,
    ).toEqual(raw);
    expect(
      await rows('SELECT * FROM fund_subject_balances(CAST(? AS date), NULL) WHERE subject_id = ANY (?) ORDER BY 1', [
        before,
        subjects.slice(2, 7),
      ]),
      before,
    ).toEqual(raw);
  }
}

async function newPayments(count: number, o: { subject?: boolean; from?: string } = {}): Promise<number[]> {
  const out = [];
  for (let i = 0; i < count; i++) {
    n++;
    const subject = o.subject === false ? null : subjects[n % subjects.length];
    const it = incomeTypes[n % incomeTypes.length];
    const day = new Date(Date.parse(o.from ?? `${year - 1}-01-01`) + ((n * 37) % 500) * 86400000).toISOString().slice(0, 10);
    out.push({
      stack_id: stack,
      paid_on: day < today ? day : today,
      number: `F-${n}`,
      amount: `${1000 + ((n * 7919) % 900000)}.${String(n % 100).padStart(2, '0')}`,
      payment_type: n % 3 ? 'card' : 'cash',
      income_type_id: it.id,
      income_code: it.code,
      subject_id: subject,
      region_id: subject === null ? null : regions[subjects.indexOf(subject) % regions.length],
      status: subject === null ? 'undefined' : 'defined',
    });
  }
  return (await k()('payments').insert(out).returning('id')).map((r: { id: number }) => r.id);
}

beforeAll(async () => {
  api = await startTestApi();
  regions = (await k()('regions').where({ is_active: true }).orderBy('id').limit(3).pluck('id')).map(Number);
  categories = (await k()('subject_categories').orderBy('code').pluck('id')).map(Number);
  incomeTypes = await k()('income_types').orderBy('id').select('id', 'code');
  subjects = [];
  for (let i = 0; i < 9; i++) {
    const [s] = await k()('subjects')
      .insert({
        inn: String(410000000 + i),
        name: `Agregat ${i}`,
        region_id: regions[i % 3],
        category_id: categories[i % 4],
        status: 'active',
      })
      .returning('id');
    subjects.push(Number(s.id));
  }
  [{ id: stack }] = await k()('payment_stacks').insert({ number: 'FACTS-1', statement_date: today }).returning('id');
}, 120_000);
afterAll(async () => {
  await api?.close();
});

describe("the fund reports' aggregates follow every change of the ledgers", () => {
  it('payments confirmed through the workflow (split by its hook), in one statement', async () => {
    const ids = await newPayments(120);
    await newPayments(10, { subject: false });
    const r = await api.post(`${PAYMENTS}/actions/confirm`, { ids: ids.filter((_, i) => i % 5 !== 0) });
    expect(r.status).toBe(200);
    await expectAggregatesExact();
    await expectReportsEqualRows();
  });

  it('reports, protocols, penya and late fines enter the ledger aggregate', async () => {
    const rc = (await k()('report_categories').first('id')).id;
    for (let i = 0; i < 30; i++) {
      const [period, month] = (
        [
          ['q1', null],
          ['q4', null],
          ['year', null],
          ['month', 1 + (i % 12)],
        ] as const
      )[i % 4];
      await k()('subject_reports').insert({
        subject_id: subjects[i % 9],
        region_id: regions[i % 3],
        year: year - 1 - (i % 2),
        period,
        month,
        report_date: `${year - 1}-0${1 + (i % 9)}-15`,
        category_id: rc,
        amount: `${50000 + i * 1234}.50`,
        status: i % 3 ? 'accepted' : 'sent',
        sent_on: i % 4 ? `${year - 1}-0${1 + (i % 9)}-20` : null,
        late_fine: i % 5 === 0 ? '1360000.00' : null,
      });
    }
    const ps = (
      await k()('protocol_stacks')
        .insert({
          number: 'FACTS-P',
          stack_date: today,
          category_id: (await k()('stack_protocol_categories').first('id')).id,
          region_id: regions[0],
        })
        .returning('id')
    )[0].id;
    await k()('protocols').insert(
      Array.from({ length: 12 }, (_, i) => ({
        stack_id: ps,
        subject_id: subjects[i % 9],
        region_id: regions[0],
        number: `FP-${i}`,
        protocol_date: `${year - 1}-${String(1 + i).padStart(2, '0')}-1${i % 9}`,
        fine_amount: `${100000 + i}.00`,
      })),
    );
    await k()('penya').insert(
      Array.from({ length: 8 }, (_, i) => ({
        subject_id: subjects[i],
        region_id: regions[i % 3],
        debt: '100.00',
        due_date: `${year}-0${1 + i}-0${1 + i}`,
        as_of: today,
        overdue_days: i,
        amount: `${10 + i}.25`,
      })),
    );
    await expectAggregatesExact();
    // accepted, rejected, changed amounts and deleted rows
    await k()('subject_reports').whereIn('subject_id', subjects).where({ status: 'sent' }).update({ status: 'accepted' });
    await k()('subject_reports').whereIn('subject_id', subjects.slice(0, 3)).where({ period: 'q1' }).update({ status: 'rejected' });
    await k()('subject_reports')
      .whereIn('subject_id', subjects.slice(3, 6))
      .update({ amount: k().raw('amount + 1.01'), year: k().raw('year + 1') });
    await k()('protocols')
      .where('number', 'like', 'FP-%')
      .andWhere('protocol_date', '<', `${year - 1}-06-01`)
      .delete();
    await k()('penya')
      .where({ subject_id: subjects[2] })
      .update({ due_date: `${year - 1}-12-31` });
    await expectAggregatesExact();
    await expectReportsEqualRows();
  });

  it('payments changed, un-confirmed, re-attached and deleted, splits removed, subjects moved to another category', async () => {
    const confirmed = (await k()('payments').where({ status: 'confirmed', stack_id: stack }).orderBy('id').pluck('id')).map(Number);
    // a day, an amount and a region changed by plain SQL, several rows in one statement
    await k()('payments')
      .whereIn('id', confirmed.slice(0, 10))
      .update({ paid_on: `${year - 1}-03-03`, region_id: regions[2] });
    await k()('payments')
      .whereIn('id', confirmed.slice(10, 14))
      .update({ amount: k().raw('amount + 5') });
    // un-confirmed through the workflow (its hook removes the split), then confirmed again
    expect((await api.post(`${PAYMENTS}/actions/cancel-confirmed`, { ids: confirmed.slice(14, 24) })).status).toBe(200);
    await expectAggregatesExact();
    expect((await api.post(`${PAYMENTS}/actions/confirm`, { ids: confirmed.slice(14, 19) })).status).toBe(200);
    // attached to another subject while confirmed (plain SQL), deleted with their splits, a split removed alone
    await k()('payments').whereIn('id', confirmed.slice(24, 28)).update({ subject_id: subjects[8], region_id: regions[2] });
    await k()('payments').whereIn('id', confirmed.slice(28, 40)).delete();
    await k()('payment_splits').whereIn('parent_id', confirmed.slice(40, 43)).delete();
    await k()('payment_splits')
      .whereIn('parent_id', confirmed.slice(43, 46))
      .update({ fund: k().raw('fund + 1'), budget: k().raw('budget - 1') });
    // a subject moved to another category carries its money along
    await k()('subjects').whereIn('id', subjects.slice(0, 4)).update({ category_id: categories[3] });
    await k()('subjects').where({ id: subjects[5] }).update({ name: 'Agregat renamed' });
    await k()('subjects').where({ id: subjects[6] }).update({ region_id: regions[0] });
    await expectAggregatesExact();
    await expectReportsEqualRows();
    // new payments in the current year, confirmed in two statements, then all of this year's deleted at once
    const more = await newPayments(40, { from: `${year}-01-01` });
    expect((await api.post(`${PAYMENTS}/actions/confirm`, { ids: more.slice(0, 20) })).status).toBe(200);
    expect((await api.post(`${PAYMENTS}/actions/confirm`, { ids: more.slice(20) })).status).toBe(200);
    await expectAggregatesExact();
    await k()('payments').where('paid_on', '>=', `${year}-01-01`).andWhere({ stack_id: stack }).delete();
    await expectAggregatesExact();
    await expectReportsEqualRows();
  });

  it("each report's workflow summary (fund_report_flows) follows its flow history", async () => {
    const reports = (await k()('subject_reports').whereIn('subject_id', subjects).orderBy('id').limit(12).pluck('id')).map(Number);
    const at = (d: number) => new Date(Date.UTC(year - 1, 3, d, 9));
    const flow = (id: number, to: string, d: number) => ({
      entity: 'subject-report-yearly',
      record_id: id,
      action: to,
      from_state: 'sent',
      to_state: to,
      created_at: at(d),
    });
    await k()('flows').insert(
      reports.flatMap((id, i) => [
        flow(id, 'sent', 1 + i),
        ...(i % 2 ? [flow(id, 'rejected', 3 + i), flow(id, 'sent', 4 + i)] : []),
        ...(i % 3 ? [flow(id, 'accepted', 9 + i)] : []),
      ]),
    );
    await k()('flows').insert({ entity: 'payments', record_id: reports[0], action: 'confirm', to_state: 'confirmed' });
    const expectExact = async () => {
      const raw = `SELECT record_id, max(created_at) FILTER (WHERE to_state = 'sent') AS sent_at, max(created_at) FILTER (WHERE to_state = 'accepted') AS accepted_at,
          count(*) FILTER (WHERE to_state = 'rejected') AS rejections FROM flows WHERE entity = 'subject-report-yearly' GROUP BY record_id`;
      const kept = 'SELECT record_id, sent_at, accepted_at, rejections FROM fund_report_flows';
      expect(await rows(`(${raw} EXCEPT ${kept}) UNION ALL (${kept} EXCEPT ${raw})`)).toEqual([]);
    };
    await expectExact();
    await k()('flows')
      .where({ entity: 'subject-report-yearly', to_state: 'accepted' })
      .whereIn('record_id', reports.slice(0, 4))
      .update({ created_at: at(28) });
    await k()('flows').where({ entity: 'subject-report-yearly', to_state: 'rejected' }).whereIn('record_id', reports.slice(0, 6)).delete();
    await k()('flows').where({ entity: 'subject-report-yearly' }).where('record_id', reports[11]).delete();
    await expectExact();
    expect(Number((await rows('SELECT count(*) AS n FROM fund_report_flows WHERE record_id = ?', [reports[11]]))[0].n)).toBe(0);
  });
});
