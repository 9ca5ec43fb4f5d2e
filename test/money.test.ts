import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { trustTestCA, type ReportSigner } from './support/report-signing.ts';
import { todayTashkent } from '../api/meta/today.ts';
import { formatTiyin, parseTiyin } from '../api/domain/money.ts';
import { lateReportFine } from '../api/domain/fines.ts';
import { periodFromCode, reportLateness } from '../api/domain/periods.ts';
import { moveProtocols } from '../migrations/20261126000300_money.ts';

/**
 * The fund's open money rules (docs/domain-rules.md): the late-report fine, applied once by the
 * sending of a late report; quota splits from rows an administrator adds to the income-types book;
 * the subject's balance net of what it is charged, the same on its page, in the compensation report
 * and in that report's Excel; protocols in stacks of their own; the bank's name by the MFO; and a
 * subject's full deletion, refused while money is attached to it.
 */
const SUBJECTS = '/api/ecofund/subject';
const REPORTS = '/api/ecofund/subject-report-yearly';
const PAYMENTS = '/api/ecofund/payments';

let api: TestApi;
let signer: ReportSigner;
let regionId: number;
let categoryId: number;
let protocolCategory: number;
const today = todayTashkent();
const year = Number(today.slice(0, 4));
const month = Number(today.slice(5, 7));
let baseRows: { start_date: string; amount: string }[];

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  regionId = (await k('regions').orderBy('id').first('id')).id;
  categoryId = (await k('subject_categories').orderBy('id').first('id')).id;
  protocolCategory = (await k('stack_protocol_categories').orderBy('id').first('id')).id;
  baseRows = await k('min_oklads').select('start_date', 'amount');
  signer = await trustTestCA(api);
}, 60_000);
afterAll(async () => {
  await api?.close();
});

let innSeq = 810000000;
async function newSubject(extra: Record<string, unknown> = {}): Promise<number> {
  const r = await api.post(SUBJECTS, {
    inn: String(++innSeq),
    name: `Pul sinovi ${innSeq}`,
    region_id: regionId,
    category_id: categoryId,
    ...extra,
  });
  if (r.status !== 201) throw new Error(`subject: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

async function newReport(
  subject: number,
  y: number,
  period: string,
  m: number | null,
  lines = [{ pollutant: 'Chang', mass: '10', norm: '0.5' }],
) {
  const r = await api.post(REPORTS, { subject_id: subject, year: y, period, month: m, report_date: today, ingredients: lines });
  if (r.status !== 201) throw new Error(`report: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: number; amount: string; version: number };
}

async function send(id: number) {
  const r = await api.post(`${REPORTS}/${id}/actions/send`, { signature: await signer.sign(id) });
  if (r.status !== 200) throw new Error(`send: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function paid(subject: number, amount: string, code = '3450715', paidOn = today) {
  const income = (await api.db.knex('income_types').where({ code }).first('id')).id;
  const stack = await api.post('/api/ecofund/stack-payments', { number: `KV-${code}-${amount}`, statement_date: paidOn });
  const p = await api.post(PAYMENTS, {
    stack_id: stack.body.id,
    paid_on: paidOn,
    number: '1',
    amount,
    payment_type: 'card',
    income_type_id: income,
  });
  if (p.status !== 201) throw new Error(`payment: ${p.status} ${JSON.stringify(p.body)}`);
  expect((await api.post(`${PAYMENTS}/${p.body.id}/actions/attach`, { subject_id: subject })).status).toBe(200);
  const confirmed = await api.post(`${PAYMENTS}/${p.body.id}/actions/confirm`, {});
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return confirmed.body as { id: number; splits: { budget: string; fund: string; organisation: string; income_code: string }[] };
}

async function protocolStack(number: string): Promise<number> {
  const r = await api.post('/api/ecofund/stack-protocols', {
    number,
    stack_date: today,
    category_id: protocolCategory,
    region_id: regionId,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

async function balance(subject: number, y = year) {
  const r = await api.get(`${SUBJECTS}/${subject}/balance?year=${y}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Record<string, string> & { years: number[] };
}

const money = (...xs: string[]) => formatTiyin(xs.reduce((s, x, i) => (i === 0 ? parseTiyin(x) : s - parseTiyin(x)), 0n));

describe('the late-report fine', () => {
  it('is applied when a report goes out after its deadline, at 4 × the base value of the sending day, once', async () => {
    const subject = await newSubject();
    const late = await newReport(subject, year - 1, 'q1', null);
    const sent = await send(late.id);
    const expected = lateReportFine(baseRows, today, { multiple: '4' });
    const { daysLate } = reportLateness(periodFromCode('q1', year - 1), { submittedOn: today });
    expect(sent).toMatchObject({ status: 'sent', sent_on: today, late_days: daysLate, late_fine: formatTiyin(expected.amount) });
    // one audit row, the sending's, records the fine with the signature
    const audit = await api.db.knex('audit_log').where({ entity: 'subject-report-yearly', record_id: late.id, action: 'send' });
    expect(audit).toHaveLength(1);
    expect(audit[0].after).toMatchObject({ late_fine: formatTiyin(expected.amount), sent_on: today, signed: true });
    // returned and sent again: the first sending decided, the fine is not applied twice
    expect((await api.post(`${REPORTS}/${late.id}/actions/return-to-new`, { comment: 'qayta' })).status).toBe(200);
    const again = await send(late.id);
    expect(again).toMatchObject({ sent_on: today, late_fine: formatTiyin(expected.amount), late_days: daysLate });
    const second = await api.db
      .knex('audit_log')
      .where({ entity: 'subject-report-yearly', record_id: late.id, action: 'send' })
      .orderBy('id');
    expect(second[1].after ?? {}).not.toHaveProperty('late_fine');
  });

  it('is not applied to a report sent on time, nor to one saved unsigned', async () => {
    const subject = await newSubject();
    const timely = await newReport(subject, year, 'month', month);
    expect(await send(timely.id)).toMatchObject({ sent_on: today, late_days: 0, late_fine: null });
    const unsent = await newReport(subject, year - 1, 'q2', null);
    const saved = await api.post(`${REPORTS}/${unsent.id}/actions/save-unsigned`, {});
    expect(saved.body).toMatchObject({ status: 'new', sent_on: null, late_fine: null });
  });

  it('takes its multiple and the deadline from the settings (the "four times less" reading is 0.25)', async () => {
    const k = api.db.knex;
    await k('app_configs').where({ key: 'fund.late_report_fine_multiple' }).update({ value: '0.25' });
    try {
      const subject = await newSubject();
      const late = await newReport(subject, year - 1, 'q3', null);
      expect((await send(late.id)).late_fine).toBe(formatTiyin(lateReportFine(baseRows, today, { reading: 'four_times_less' }).amount));
    } finally {
      await k('app_configs').where({ key: 'fund.late_report_fine_multiple' }).update({ value: '4' });
    }
  });
});

describe('quota splits live in the income-types book', () => {
  it('an administrator adds 70 % and 32 % quota codes, and payments with them split by their rows', async () => {
    const book = '/api/ecofund-sprav/income-types';
    const q70 = await api.post(book, {
      code: '7777070',
      name: { uz: 'Kvota tushumlari (70%)', ru: 'Квотные поступления (70%)' },
      group: 'quota',
      budget_percent: '30',
      fund_percent: '70',
      organisation_percent: '0',
    });
    expect(q70.status, JSON.stringify(q70.body)).toBe(201);
    const q32 = await api.post(book, {
      code: '3232032',
      name: { uz: 'Kvota tushumlari (32%)', ru: 'Квотные поступления (32%)' },
      group: 'quota',
      budget_percent: '68',
      fund_percent: '32',
      organisation_percent: '0',
    });
    expect(q32.status, JSON.stringify(q32.body)).toBe(201);
    const bad = await api.post(
      book,
      { code: '3232033', name: { uz: 'Xato' }, group: 'quota', budget_percent: '68', fund_percent: '31', organisation_percent: '0' },
      { lang: 'ru' },
    );
    expect(bad.status).toBe(400);
    const subject = await newSubject();
    // 333.33 × 70 % = 233.331 → 233.33 to the fund, 100.00 to the budget (largest remainder)
    expect((await paid(subject, '333.33', '7777070')).splits[0]).toMatchObject({
      income_code: '7777070',
      budget: '100.00',
      fund: '233.33',
      organisation: '0.00',
    });
    // 0.03 × 32 % = 0.0096 → 0.01 to the fund, 0.02 to the budget
    expect((await paid(subject, '0.03', '3232032')).splits[0]).toMatchObject({ income_code: '3232032', budget: '0.02', fund: '0.01' });
    // the appendix of income groups counts them as quotas
    const app2 = await api.get(`/api/reports/second-app-report?year=${year}&subject_id=${subject}`);
    expect(app2.body.totals.quota).toBe('333.36');
  });
});

describe("a subject's balance", () => {
  let subject: number;
  const steps: Record<string, string> = {};

  it('after a payment, an accepted report and a fine: paid less accrued, fines and penya', async () => {
    subject = await newSubject();
    expect((await balance(subject)).balance_end).toBe('0.00');
    await paid(subject, '10000000.00');
    expect(await balance(subject)).toMatchObject({ balance_start: '0.00', paid_in_year: '10000000.00', balance_end: '10000000.00' });

    const report = await newReport(subject, year, 'month', month, [{ pollutant: 'Chang', mass: '2.5', norm: '0.4' }]);
    await send(report.id);
    // a report that is only sent accrues nothing yet
    expect((await balance(subject)).balance_end).toBe('10000000.00');
    const accepted = await api.post(`${REPORTS}/${report.id}/actions/accept`, {});
    expect(accepted.status).toBe(200);
    steps.accrued = accepted.body.amount;
    expect(await balance(subject)).toMatchObject({ accrued_in_year: steps.accrued, balance_end: money('10000000.00', steps.accrued) });

    const stack = await protocolStack(`BAL-${subject}`);
    const protocol = await api.post('/api/ecofund/subject-protocols', {
      stack_id: stack,
      subject_id: subject,
      number: 'F-1',
      protocol_date: today,
      fine_multiple: '3',
    });
    expect(protocol.status, JSON.stringify(protocol.body)).toBe(201);
    steps.fine = protocol.body.fine_amount;
    expect(await balance(subject)).toMatchObject({
      fines_in_year: steps.fine,
      balance_end: money('10000000.00', steps.accrued, steps.fine),
    });
  });

  it('counts the late-report fine on its sending day and penya on its due date', async () => {
    const late = await newReport(subject, year - 1, 'q4', null);
    steps.late = (await send(late.id)).late_fine;
    expect(Number(steps.late)).toBeGreaterThan(0);
    const penya = await api.post('/api/ecofund/penya', {
      subject_id: subject,
      debt: '1000000.00',
      due_date: `${year - 1}-11-30`,
      as_of: `${year - 1}-12-31`,
      daily_rate: '0.1',
    });
    expect(penya.status, JSON.stringify(penya.body)).toBe(201);
    steps.penya = penya.body.amount; // 31 days × 1 000.00
    expect(steps.penya).toBe('31000.00');
    const b = await balance(subject);
    expect(b).toMatchObject({
      balance_start: money('0.00', steps.penya),
      paid_in_year: '10000000.00',
      accrued_in_year: steps.accrued,
      fines_in_year: steps.fine,
      late_fines_in_year: steps.late,
      penya_in_year: '0.00',
      balance_end: money('10000000.00', steps.accrued, steps.fine, steps.late, steps.penya),
    });
    expect(b.years).toEqual([year, year - 1]);
    expect((await balance(subject, year - 1)).balance_end).toBe(b.balance_start);
  });

  it('is the same figure on the subject page, in the compensation report and in its Excel', async () => {
    const page = await balance(subject);
    const report = await api.get(`/api/reports/compensation-report?year=${year}&subject_id=${subject}`, { lang: 'ru' });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    const row = report.body.rows.find((r: { subject_id: number }) => r.subject_id === subject);
    expect(row.balance).toBe(page.balance_end);
    // the region's report holds the subject's row with the same figure
    const region = await api.get(`/api/reports/compensation-report?year=${year}&region_id=${regionId}`);
    expect(region.body.rows.find((r: { subject_id: number }) => r.subject_id === subject).balance).toBe(page.balance_end);
    const xlsx = await api.get(`/api/reports/compensation-report/export?year=${year}&subject_id=${subject}`, { lang: 'ru' });
    expect(xlsx.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.raw);
    const values = book.worksheets[0]
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    const header = values.findIndex((r) => r.includes('Баланс на конец периода'));
    const col = values[header].indexOf('Баланс на конец периода');
    const line = values.slice(header + 1).find((r) => r.includes(row.subject))!;
    expect(Number(line[col])).toBe(Number(page.balance_end));
    // and the SQL function the three read, asked directly
    const direct = await api.db.knex.raw('SELECT balance FROM fund_subject_balance(CAST(? AS date), CAST(? AS bigint))', [
      `${year + 1}-01-01`,
      subject,
    ]);
    expect(formatTiyin(parseTiyin(String(direct.rows[0].balance)))).toBe(page.balance_end);
  });
});

describe('protocol stacks', () => {
  it('protocols hang off stacks of their own, categorised, opened at subject-protocols/:stack_id', async () => {
    const meta = await api.get('/api/meta');
    const routes = meta.body.routes as { route: string; entity?: string; filter?: Record<string, string>; action: number }[];
    expect(routes.find((r) => r.route === '/ecofund/subject-protocols/:stack_id')).toMatchObject({
      entity: 'subject-protocols',
      filter: { stack_id: ':stack_id' },
      action: 440,
    });
    expect(routes.find((r) => r.route === '/ecofund/stack-protocols')).toMatchObject({ entity: 'stack-protocols' });
    const subject = await newSubject();
    const stack = await protocolStack('PS-1');
    const other = await protocolStack('PS-2');
    for (const [s, n] of [
      [stack, '1'],
      [stack, '2'],
      [other, '3'],
    ] as const) {
      expect(
        (await api.post('/api/ecofund/subject-protocols', { stack_id: s, subject_id: subject, number: n, protocol_date: today })).status,
      ).toBe(201);
    }
    const list = await api.get(`/api/ecofund/subject-protocols?stack_id=${stack}`);
    expect(list.body.map((p: { number: string }) => p.number).sort()).toEqual(['1', '2']);
    // an act stack is not a protocol stack
    const protocolStacks = new Set((await api.db.knex('protocol_stacks').pluck('id')).map(Number));
    let acts: { id: number };
    do {
      [acts] = await api.db
        .knex('akt_stacks')
        .insert({
          number: 'A-X',
          stack_date: today,
          category_id: (await api.db.knex('stack_akt_categories').first('id')).id,
          region_id: regionId,
        })
        .returning('id');
    } while (protocolStacks.has(Number(acts.id)));
    const wrong = await api.post('/api/ecofund/subject-protocols', {
      stack_id: acts.id,
      subject_id: subject,
      number: '4',
      protocol_date: today,
    });
    expect([wrong.status, Object.keys(wrong.body.errors ?? {})]).toEqual([400, ['stack_id']]);
    // the category is the stack's: required there
    const bad = await api.post('/api/ecofund/stack-protocols', { number: 'PS-3', stack_date: today, region_id: regionId }, { lang: 'ru' });
    expect(Object.keys(bad.body.errors)).toEqual(['category_id']);
  });

  it('the migration moves protocols out of act stacks into protocol stacks, one per act stack and category', async () => {
    const k = api.db.knex;
    await k
      .transaction(async (trx) => {
        // the schema before: protocols in act stacks, with a category of their own
        await trx.schema.alterTable('protocols', (t) => {
          t.dropForeign(['stack_id']);
          t.bigInteger('category_id').nullable().references('id').inTable('stack_protocol_categories');
        });
        await trx('protocols').delete();
        const [c2] = await trx('stack_protocol_categories')
          .insert({ code: 'SUD', name: JSON.stringify({ uz: 'Sud' }) })
          .returning('id');
        const aktCategory = (await trx('stack_akt_categories').first('id')).id;
        const [a1] = await trx('akt_stacks')
          .insert({ number: 'OLD-1', stack_date: '2025-03-01', category_id: aktCategory, region_id: regionId, note: 'eski' })
          .returning('id');
        const [a2] = await trx('akt_stacks')
          .insert({ number: 'OLD-2', stack_date: '2025-04-01', category_id: aktCategory, region_id: regionId })
          .returning('id');
        const subject = await trx('subjects').first('id');
        const p = (stack: number, category: number | null, number: string) => ({
          stack_id: stack,
          category_id: category,
          subject_id: subject.id,
          region_id: regionId,
          number,
          protocol_date: '2025-03-02',
        });
        await trx('protocols').insert([
          p(a1.id, protocolCategory, 'm1'),
          p(a1.id, protocolCategory, 'm2'),
          p(a1.id, c2.id, 'm3'),
          p(a2.id, null, 'm4'),
        ]);
        await trx.schema.alterTable('protocols', (t) => {
          t.foreign('stack_id').references('id').inTable('akt_stacks').onDelete('CASCADE');
        });

        await moveProtocols(trx as unknown as typeof k);

        const moved = await trx('protocols as p')
          .join('protocol_stacks as s', 's.id', 'p.stack_id')
          .orderBy('p.number')
          .select('p.number', 's.number as stack', 's.category_id', 's.stack_date', 's.note', 's.region_id');
        expect(
          moved.map((m: { number: string; stack: string; category_id: number }) => [m.number, m.stack, Number(m.category_id)]),
        ).toEqual([
          ['m1', 'OLD-1-ADM', protocolCategory],
          ['m2', 'OLD-1-ADM', protocolCategory],
          ['m3', 'OLD-1-SUD', Number(c2.id)],
          // no category of its own: the first of the book
          ['m4', 'OLD-2', protocolCategory],
        ]);
        expect(moved[0]).toMatchObject({ note: 'eski', region_id: regionId });
        // the key now points at protocol stacks
        const none = Number((await trx('protocol_stacks').max({ m: 'id' }))[0].m) + 1000;
        await expect(trx('protocols').where({ number: 'm1' }).update({ stack_id: none })).rejects.toThrow(/foreign key/);
        throw new Error('rollback');
      })
      .catch((err) => {
        if (err.message !== 'rollback') throw err;
      });
  });
});

describe("the subject's bank", () => {
  it('is named from banks-mfo by the MFO, on every write that sets it', async () => {
    const banks = await api.db.knex('banks_mfo').orderBy('mfo').limit(2).select('mfo', 'name');
    const id = await newSubject({ mfo: banks[0].mfo });
    const s = (await api.get(`${SUBJECTS}/${id}`)).body;
    expect(s.bank_name).toEqual(banks[0].name);
    const moved = await api.put(`${SUBJECTS}/${id}`, { mfo: banks[1].mfo, version: s.version });
    expect(moved.body.bank_name).toEqual(banks[1].name);
    const none = await api.put(`${SUBJECTS}/${id}`, { mfo: null, version: moved.body.version });
    expect(none.body.bank_name).toBeNull();
    // not the user's to type
    const typed = await api.put(`${SUBJECTS}/${id}`, { bank_name: { uz: 'Boshqa' }, version: none.body.version });
    expect(typed.body.bank_name ?? null).toBeNull();
  });
});

describe("a subject's full deletion", () => {
  it('is refused while money is attached, naming what holds it, in each language', async () => {
    const subject = await newSubject();
    await paid(subject, '100.00');
    const stack = await protocolStack(`HOLD-${subject}`);
    await api.post('/api/ecofund/subject-protocols', {
      stack_id: stack,
      subject_id: subject,
      number: 'H-1',
      protocol_date: today,
      fine_multiple: '1',
    });
    const texts = {
      uz: 'Subyektni toʻliq oʻchirib boʻlmaydi: unga pul bogʻlangan — toʻlovlar: 1; jarimali bayonnomalar: 1',
      ru: 'Субъект нельзя удалить полностью: к нему привязаны деньги — платежи: 1; протоколы со штрафом: 1',
      uk: 'Субъектни тўлиқ ўчириб бўлмайди: унга пул боғланган — тўловлар: 1; жаримали баённомалар: 1',
    };
    for (const [lang, text] of Object.entries(texts)) {
      const r = await api.post(`${SUBJECTS}/${subject}/actions/full-delete`, {}, { lang });
      expect([r.status, r.body.code, r.body.message]).toEqual([409, -107, text]);
    }
    expect((await api.get(`${SUBJECTS}/${subject}`)).status).toBe(200);
    expect(Number((await api.db.knex('payments').where({ subject_id: subject }).count({ n: '*' }))[0].n)).toBe(1);
  });

  it('is refused while an offence names it as an offender (its child row, read with the offence)', async () => {
    const k = api.db.knex;
    const subject = await newSubject();
    const inn = (await k('subjects').where({ id: subject }).first('inn')).inn;
    const [fine] = await k('fine')
      .insert({
        code: `HOLD-${subject}`,
        article: '65',
        part: '1',
        name: JSON.stringify({ uz: 'Kesish' }),
        min_multiple: '5',
        max_multiple: '10',
      })
      .returning('id');
    const o = await api.post('/api/ecofund-offences/offences', {
      number: `HOLD-${subject}`,
      offence_date: today,
      opened_on: today,
      region_id: regionId,
      address: 'Olmazor tumani',
      location: { lat: 41.35, lng: 69.22 },
      fine_id: fine.id ?? fine,
      fine_multiple: '5',
      offenders: [{ offender_kind: 'organisation', inn }],
    });
    expect(o.status, JSON.stringify(o.body)).toBe(201);
    const r = await api.post(`${SUBJECTS}/${subject}/actions/full-delete`, {}, { lang: 'ru' });
    expect([r.status, r.body.code]).toEqual([409, -107]);
    expect(r.body.message).toContain('правонарушения, где он нарушитель: 1');
    expect((await api.get(`${SUBJECTS}/${subject}`)).status).toBe(200);
  });

  it('is refused while the subject has branches, and to a user without its right', async () => {
    const main = await newSubject();
    const branch = await newSubject();
    expect((await api.post(`${SUBJECTS}/${branch}/actions/attach-as-branch`, { parent_id: main })).status).toBe(200);
    const r = await api.post(`${SUBJECTS}/${main}/actions/full-delete`, {}, { lang: 'ru' });
    expect([r.status, r.body.message]).toEqual([
      409,
      'Субъект нельзя удалить полностью: у него есть филиалы (1) — сначала сделайте их головными организациями',
    ]);
    const token = await api.userWithActions('no_full_delete', [253, 6104]);
    expect((await api.post(`${SUBJECTS}/${branch}/actions/full-delete`, {}, { token })).status).toBe(403);
  });

  it('deletes the subject with its own rows, each with its audit row, and the stacks it leaves empty', async () => {
    const k = api.db.knex;
    const subject = await newSubject({
      norms: [{ report_category_id: (await k('report_categories').first('id')).id, pollutant: 'Chang', norm: '0.5' }],
    });
    const neighbour = await newSubject();
    const draft = await newReport(subject, year, 'month', month, []);
    expect(draft.amount).toBe('0.00');
    const own = await protocolStack(`OWN-${subject}`);
    const shared = await protocolStack(`SHARED-${subject}`);
    const protocols = [];
    for (const [s, who, n] of [
      [own, subject, 'D-1'],
      [shared, subject, 'D-2'],
      [shared, neighbour, 'N-1'],
    ] as const) {
      const r = await api.post('/api/ecofund/subject-protocols', { stack_id: s, subject_id: who, number: n, protocol_date: today });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      protocols.push(r.body.id);
    }
    await api.userWithActions(`subject_${subject}`, [253], { subject_id: subject });
    const user = await k('users').where({ subject_id: subject }).first('id');

    const r = await api.post(`${SUBJECTS}/${subject}/actions/full-delete`, {});
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ id: subject, deleted: true });
    expect((await api.get(`${SUBJECTS}/${subject}`)).status).toBe(404);
    expect(await k('subject_reports').where({ id: draft.id }).first('id')).toBeUndefined();
    expect(await k('subject_norms').where({ parent_id: subject }).first('id')).toBeUndefined();
    expect(await k('protocols').whereIn('id', protocols).pluck('number')).toEqual(['N-1']);
    expect(await k('protocol_stacks').where({ id: own }).first('id')).toBeUndefined();
    expect(await k('protocol_stacks').where({ id: shared }).first('id')).toBeDefined();
    expect(await k('users').where({ id: user.id }).first('id')).toBeUndefined();
    // one delete audit row each, naming the action
    const audit = await k('audit_log').where({ op: 'delete', action: 'full-delete' }).select('entity', 'record_id');
    expect(audit.map((a: { entity: string; record_id: string | number }) => `${a.entity}:${a.record_id}`).sort()).toEqual(
      [
        `stack-protocols:${own}`,
        `subject-protocols:${protocols[0]}`,
        `subject-protocols:${protocols[1]}`,
        `subject-report-yearly:${draft.id}`,
        `subject:${subject}`,
        `users:${user.id}`,
      ].sort(),
    );
    const subjectAudit = await k('audit_log').where({ entity: 'subject', record_id: subject, op: 'delete' }).first('before');
    expect(subjectAudit.before.norms).toEqual([expect.objectContaining({ pollutant: 'Chang' })]);
  });
});
