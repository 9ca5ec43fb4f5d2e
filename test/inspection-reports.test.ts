import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { expectExcelLikeAnswer } from './support/report-excel.ts';
import { formatTiyin, parseTiyin } from '../api/domain/money.ts';
import { todayTashkent } from '../api/meta/today.ts';

/**
 * The inspection reports (metadata/reports/ecofund-offence-reports, docs/reports.md) on generated
 * offences in two regions: imposed fines (every offence past its draft), paid, sent to the interior
 * ministry and closed, by region and by inspector, computed again here in exact tiyin from the
 * offences; a region's user sees only their region; the Excel export holds the same totals.
 */
let api: TestApi;
let r1 = 0;
let r2 = 0;
let regionToken = '';
const year = Number(todayTashkent().slice(0, 4));
const STATES = ['draft', 'review', 'returned', 'mvd', 'closed'];
const rows: {
  region_id: number;
  inspector_id: number;
  status: string;
  fine_amount: string;
  paid_amount: string;
  mvd_sent: boolean;
  offence_date: string;
}[] = [];

let seed = 375;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

interface Answer {
  rows: Record<string, unknown>[];
  totals: Record<string, string | number>;
  columns: { name: string; caption: string }[];
  title: string;
}
const report = async (name: string, query = '', token?: string, lang?: 'ru'): Promise<Answer> => {
  const r = await api.get(`/api/reports/${name}?year=${year}${query}`, { ...(token ? { token } : {}), ...(lang ? { lang } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Answer;
};
const sum = (xs: string[]) => formatTiyin(xs.reduce((a, x) => a + parseTiyin(x), 0n));

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  [r1, r2] = (await k('regions').orderBy('id').limit(2).pluck('id')).map(Number);
  const [fine] = await k('fine')
    .insert({ code: 'T-INS', article: '91', part: '1', name: JSON.stringify({ uz: 'Sinov' }), min_multiple: '1', max_multiple: '50' })
    .returning('id');
  const inspectors: number[] = [];
  for (const [i, region] of [
    [1, r1],
    [2, r1],
    [3, r2],
  ] as const) {
    const [u] = await k('users')
      .insert({ username: `ins_rep_${i}`, fio: `Inspektor ${i}`, region_id: region, kind: 'staff', status: 'active', password: 'x' })
      .returning('id');
    inspectors.push(u.id);
  }
  for (let i = 0; i < 90; i++) {
    const inspector = inspectors[i % 3];
    const region = i % 3 === 2 ? r2 : r1;
    const status = STATES[Math.floor(rnd() * STATES.length)];
    const fine_amount = `${Math.floor(rnd() * 9_000_000) + 1}.${String(Math.floor(rnd() * 100)).padStart(2, '0')}`;
    const paid_amount = status === 'draft' ? '0.00' : rnd() < 0.5 ? fine_amount : `${Math.floor(Number(fine_amount) / 3)}.01`;
    const month = 1 + Math.floor(rnd() * 11);
    const row = {
      number: `INS-${i}`,
      offence_date: `${year}-${String(month).padStart(2, '0')}-1${Math.floor(rnd() * 9)}`,
      region_id: region,
      fine_id: fine.id,
      fine_multiple: '2',
      fine_amount,
      paid_amount,
      status,
      mvd_sent: status === 'mvd' || (status === 'closed' && rnd() < 0.5),
      inspector_id: inspector,
    };
    await k('offences').insert(row);
    rows.push(row);
  }
  // last year's offence counts in no report of this year
  await k('offences').insert({
    number: 'INS-old',
    offence_date: `${year - 1}-12-31`,
    region_id: r1,
    fine_id: fine.id,
    fine_multiple: '2',
    fine_amount: '1000.00',
    paid_amount: '0.00',
    status: 'closed',
    inspector_id: inspectors[0],
  });
  regionToken = await api.userWithActions('ins_rep_viewer', [5901, 5902], { region_id: r2 });
});
afterAll(async () => {
  await api?.close();
});

const imposedOf = (xs: typeof rows) => xs.filter((o) => o.status !== 'draft');

describe('inspection reports', () => {
  it('by region: imposed, paid, sent to the ministry and closed equal the offences, to the tiyin', async () => {
    const a = await report('inspection-first-report');
    expect(a.totals.offences).toBe(rows.length);
    expect(a.totals.imposed).toBe(sum(imposedOf(rows).map((o) => o.fine_amount)));
    expect(a.totals.paid).toBe(sum(imposedOf(rows).map((o) => o.paid_amount)));
    expect(a.totals.sent_mvd).toBe(rows.filter((o) => o.mvd_sent).length);
    expect(a.totals.closed).toBe(rows.filter((o) => o.status === 'closed').length);
    const one = a.rows.find((r) => r.region_id === r2)!;
    const mine = rows.filter((o) => o.region_id === r2);
    expect(one.imposed).toBe(sum(imposedOf(mine).map((o) => o.fine_amount)));
  });

  it("by inspector: each inspector's figures, adding up to the regions' totals", async () => {
    const [a, b] = await Promise.all([report('inspection-second-report'), report('inspection-first-report')]);
    expect(a.rows).toHaveLength(3);
    for (const r of a.rows) {
      const mine = rows.filter((o) => o.inspector_id === r.inspector_id);
      expect(r.offences).toBe(mine.length);
      expect(r.paid).toBe(sum(imposedOf(mine).map((o) => o.paid_amount)));
    }
    expect(a.totals).toEqual(b.totals);
  });

  it('a quarter holds only its offences', async () => {
    const a = await report('inspection-first-report', '&quarter=q1');
    expect(a.totals.offences).toBe(rows.filter((o) => Number(o.offence_date.slice(5, 7)) <= 3).length);
  });

  it("a region's user sees only their region, whatever region they ask for", async () => {
    const all = await report('inspection-first-report');
    const mine = await report('inspection-first-report', `&region_id=${r1}`, regionToken);
    expect(mine.rows.map((r) => r.region_id)).toEqual([r2]);
    expect(mine.rows[0]).toEqual(all.rows.find((r) => r.region_id === r2));
    const people = await report('inspection-second-report', '', regionToken);
    expect(people.rows.map((r) => r.inspector)).toEqual(['Inspektor 3']);
  });

  it.each(['inspection-first-report', 'inspection-second-report'])('%s exports to Excel with the same totals', async (name) => {
    const json = await report(name, '', undefined, 'ru');
    const r = await api.get(`/api/reports/${name}/export?year=${year}`, { lang: 'ru' });
    expect(r.status).toBe(200);
    await expectExcelLikeAnswer(r.raw, json);
  });
});
