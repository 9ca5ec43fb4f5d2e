import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from './support/api.ts';
import { todayTashkent } from '../api/meta/today.ts';
import { CHECKS } from '../bench/national/aggregates.ts';

/**
 * `offences` and `payments` partitioned by year like `plantings` (migrations/20261201000300_offences_by_year.ts,
 * …/20261202000100_payments_by_year.ts, api/db/partitions.ts): an offence or a payment lands in its
 * year's partition and moves with its date through the engine's one write path, the offence map's
 * cells and the fund's aggregates stay equal to the rows (test/fund-report-facts.test.ts holds every
 * fund aggregate against its rows through moves and deletes), a missing reference is a 400 under
 * its field, and the references to them — an offence's offenders, an offence's payments, a
 * payment's splits — behave as their foreign keys did.
 */
let api: TestApi;
let k: Knex;
const PAYMENTS = '/api/ecofund/payments';
const OFFENCES = '/api/ecofund-offences/offences';
const year = Number(todayTashkent().slice(0, 4));
let stack: number;
let offenceId: number;
let incomeType: { id: number; code: string };

beforeAll(async () => {
  api = await startTestApi();
  k = api.db.knex;
  const s = await api.post('/api/ecofund/stack-payments', { number: 'KV-PART', statement_date: `${year - 1}-12-31` });
  expect(s.status, JSON.stringify(s.body)).toBe(201);
  stack = s.body.id;
  const region = (await k('regions').orderBy('id').first('id')).id;
  incomeType = await k('income_types').orderBy('id').first('id', 'code');
  const [{ id: fine }] = await k('fine')
    .insert({
      code: 'PART-65-1',
      article: '65',
      part: '1',
      name: JSON.stringify({ uz: 'Daraxtlarni qonunsiz kesish' }),
      min_multiple: '5',
      max_multiple: '10',
    })
    .returning('id');
  const o = await api.post(OFFENCES, {
    number: 'HB-PART',
    offence_date: `${year - 1}-09-01`,
    opened_on: `${year - 1}-09-02`,
    region_id: region,
    address: 'Olmazor tumani',
    location: { lat: 41.35, lng: 69.22 },
    fine_id: fine,
    fine_multiple: '7.5',
    offenders: [
      { offender_kind: 'person', full_name: 'Aliyev Vali', citizenship: 'Oʻzbekiston', nationality: 'oʻzbek', passport: 'AA 1234567' },
    ],
  });
  expect(o.status, JSON.stringify(o.body)).toBe(201);
  offenceId = o.body.id;
}, 120_000);
afterAll(async () => {
  await api?.close();
});

const partitionOf = async (table: string, id: number) =>
  (await k.raw(`SELECT tableoid::regclass::text AS p FROM ${table} WHERE id = ?`, [id])).rows[0]?.p;
/** The national checks of these aggregates (the offence map's cells, the fund's), each equal to what its rows sum to. */
async function expectChecksRight(of: RegExp): Promise<void> {
  for (const [what, x0, y0] of CHECKS.filter(([w]) => of.test(w))) {
    const [x, y] = [(await k.raw(x0)).rows[0].v, (await k.raw(y0)).rows[0].v];
    expect(String(x), what).toBe(String(y));
  }
}
const expectAggregatesRight = () => expectChecksRight(/offence_cells/);
const expectFundRight = () => expectChecksRight(/fund_/);

describe('payments and offences partitioned by year', () => {
  it('is partitioned: a partition a year around this one and a default one', async () => {
    for (const table of ['offences', 'payments']) {
      expect((await k.raw('SELECT relkind FROM pg_class WHERE relname = ?', [table])).rows[0].relkind).toBe('p');
      const names = (
        await k.raw(
          `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = ?::regclass ORDER BY 1`,
          [table],
        )
      ).rows.map((r: { relname: string }) => r.relname);
      expect(names).toEqual(expect.arrayContaining([`${table}_y${year}`, `${table}_y${year - 1}`, `${table}_other`]));
    }
  });

  it("moves a payment with its date through the engine, its splits kept and counted once in the fund's aggregates, moved or deleted", async () => {
    const p = await api.post(PAYMENTS, {
      stack_id: stack,
      paid_on: `${year - 1}-05-05`,
      number: 'P-PART-MOVE',
      amount: '1200.00',
      payment_type: 'cash',
      income_type_id: incomeType.id,
    });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    expect(await partitionOf('payments', p.body.id)).toBe(`payments_y${year - 1}`);
    await k('payment_splits').insert({
      parent_id: p.body.id,
      income_code: incomeType.code,
      budget: '600.00',
      fund: '500.00',
      organisation: '100.00',
    });
    const row = (await api.get(`${PAYMENTS}/${p.body.id}`)).body;
    const moved = await api.put(`${PAYMENTS}/${p.body.id}`, { ...row, paid_on: `${year - 3}-07-07`, version: row.version });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await partitionOf('payments', p.body.id)).toBe(`payments_y${year - 3}`);
    const splits = async () => Number((await k('payment_splits').where({ parent_id: p.body.id }).count({ n: '*' }))[0].n);
    expect(await splits()).toBe(1);
    // confirmed (the fund's workflow; a confirmed payment is not edited), its split counted; moved
    // by SQL to another year — the row's delete triggers stay out of it — and then deleted
    await k('payments').where({ id: p.body.id }).update({ status: 'confirmed' });
    await expectFundRight();
    await k('payments')
      .where({ id: p.body.id })
      .update({ paid_on: `${year - 2}-01-31` });
    expect(await partitionOf('payments', p.body.id)).toBe(`payments_y${year - 2}`);
    expect(await splits()).toBe(1);
    await expectFundRight();
    await k('payments').where({ id: p.body.id }).delete();
    expect(await splits()).toBe(0);
    await expectFundRight();
  });

  it('answers a payment of a stack that is not there with a 400 under its field, from whichever partition', async () => {
    const r = await api.post(PAYMENTS, {
      stack_id: 999_999_999,
      paid_on: `${year - 1}-05-05`,
      number: 'P-PART-NONE',
      amount: '1.00',
      payment_type: 'cash',
      income_type_id: incomeType.id,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(JSON.stringify(r.body)).toContain('stack_id');
  });

  it("puts an offence in its year and moves it with its date through the engine, its offenders and the map's cells following", async () => {
    expect(await partitionOf('offences', offenceId)).toBe(`offences_y${year - 1}`);
    const offenders = Number((await k('offence_offenders').where({ parent_id: offenceId }).count({ n: '*' }))[0].n);
    expect(offenders).toBe(1);
    const row = (await api.get(`${OFFENCES}/${offenceId}`)).body;
    const moved = await api.put(`${OFFENCES}/${offenceId}`, {
      ...row,
      offence_date: `${year - 3}-06-15`,
      opened_on: `${year - 3}-06-16`,
      version: row.version,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await partitionOf('offences', offenceId)).toBe(`offences_y${year - 3}`);
    expect((await api.get(`${OFFENCES}/${offenceId}`)).body).toMatchObject({ offence_date: `${year - 3}-06-15` });
    expect(Number((await k('offence_offenders').where({ parent_id: offenceId }).count({ n: '*' }))[0].n)).toBe(offenders);
    await expectAggregatesRight();
  });

  it("keeps the references to an offence as their foreign keys did, beside a payment's real ones", async () => {
    const p = await api.post(PAYMENTS, {
      stack_id: stack,
      paid_on: `${year - 2}-03-03`,
      number: 'P-PART-2',
      amount: '990.00',
      payment_type: 'cash',
      income_type_id: incomeType.id,
    });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    const link = {
      offence_id: offenceId,
      paid_on: `${year - 2}-03-03`,
      number: 'P-PART-2',
      amount: '990.00',
      income_type_id: incomeType.id,
    };
    // a reference to no offence, or to no payment, is refused by the keys' names
    await expect(k('offence_payments').insert({ ...link, offence_id: 999_999_999, payment_id: p.body.id })).rejects.toThrow(
      /offence_payments_offence_id_foreign/,
    );
    await expect(k('offence_payments').insert({ ...link, payment_id: 999_999_999 })).rejects.toThrow(/offence_payments_payment_id_foreign/);
    await k('offence_payments').insert({ ...link, payment_id: p.body.id });
    // an offence its payment refers to cannot be deleted (409); moved to another year it keeps it
    expect((await api.del(`${OFFENCES}/${offenceId}`)).status).toBe(409);
    await k('offences')
      .where({ id: offenceId })
      .update({ offence_date: `${year - 1}-02-02` });
    expect(await partitionOf('offences', offenceId)).toBe(`offences_y${year - 1}`);
    expect(await k('offence_payments').where({ offence_id: offenceId }).first('payment_id')).toEqual({ payment_id: p.body.id });
    await expectAggregatesRight();
  });
});
