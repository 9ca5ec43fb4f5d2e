import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';

/**
 * The fund end to end over HTTP: subjects and their operations, a bank statement imported into a
 * payment stack, payments attached and confirmed in bulk with exact splits, and the balance.
 */
let api: TestApi;
let regionId: number;
let categoryId: number;
const SUBJECTS = '/api/ecofund/subject';
const STACKS = '/api/ecofund/stack-payments';
const PAYMENTS = '/api/ecofund/payments';

beforeAll(async () => {
  api = await startTestApi();
  regionId = (await api.db.knex('regions').orderBy('id').first('id')).id;
  categoryId = (await api.db.knex('subject_categories').orderBy('id').first('id')).id;
});
afterAll(async () => {
  await api?.close();
});

const subject = (inn: string, extra: Record<string, unknown> = {}) =>
  api.post(SUBJECTS, { inn, name: `Korxona ${inn}`, region_id: regionId, category_id: categoryId, ...extra });

async function sheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Koʻchirma');
  ws.addRow(['Sana', 'Raqam', 'Summa', 'Toʻlovchi', 'STIR', 'Hisob', 'Maqsad', 'Tushum kodi', 'Turi']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(stackId: number, body: Buffer, lang = 'uz') {
  const res = await fetch(`${api.url}${STACKS}/${stackId}/import`, {
    method: 'POST',
    body,
    headers: {
      Authorization: `Bearer ${api.adminToken}`,
      Language: lang,
      'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    },
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('subjects', () => {
  it('validates the INN, PINFL, MFO in the bank book, account and uniqueness', async () => {
    const bad = await subject('12345', { pinfl: '123', mfo: '99999', account: '123' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['account', 'inn', 'pinfl']);
    const mfo = (await api.db.knex('banks_mfo').first('mfo')).mfo;
    const ok = await subject('300000001', { mfo, account: '2020 8000 1234 5678 9012', start_date: '2020-01-01' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ status: 'active', account: '20208000123456789012', parent_id: null });
    expect((await subject('300000001')).body.errors).toEqual({ inn: 'Bunday qiymat allaqachon mavjud' });
    const noBank = await subject('300000009', { mfo: '99999' });
    expect(noBank.body.errors).toEqual({ mfo: 'Tanlangan yozuv topilmadi' });
  });

  it("finds a subject by INN, with the spec's message when there is none", async () => {
    expect((await api.get(`${SUBJECTS}/by-inn/300000001`)).body.inn).toBe('300000001');
    const none = await api.get(`${SUBJECTS}/by-inn/399999999`, { lang: 'ru' });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('Такого ИНН нет в системе');
    expect((await api.get(`${SUBJECTS}/by-inn/12`)).status).toBe(400);
  });

  it('suspends for a date range, resumes, and moves between main organisation and branch without cycles', async () => {
    const main = (await subject('300000002')).body;
    const branch = (await subject('300000003')).body;
    const badDates = await api.post(`${SUBJECTS}/${main.id}/actions/suspend`, { suspended_from: '2025-05-01', suspended_to: '2025-04-01' });
    expect(badDates.status).toBe(400);
    const suspended = await api.post(`${SUBJECTS}/${main.id}/actions/suspend`, {
      suspended_from: '2025-04-01',
      suspended_to: '2025-05-01',
    });
    expect(suspended.body).toMatchObject({ status: 'suspended', suspended_from: '2025-04-01', suspended_to: '2025-05-01' });
    const resumed = await api.post(`${SUBJECTS}/${main.id}/actions/resume`, { suspended_to: '2025-04-15' });
    expect(resumed.body).toMatchObject({ status: 'active', suspended_to: '2025-04-15' });
    const attached = await api.post(`${SUBJECTS}/${branch.id}/actions/attach-as-branch`, { parent_id: main.id });
    expect(attached.body.parent_id).toBe(main.id);
    const cycle = await api.post(`${SUBJECTS}/${main.id}/actions/attach-as-branch`, { parent_id: branch.id }, { lang: 'ru' });
    expect(cycle.status).toBe(400);
    expect(cycle.body.errors).toEqual({ parent_id: 'Головная организация оказалась филиалом этого субъекта' });
    expect((await api.get(`${SUBJECTS}?parent_id=${main.id}`)).body.map((s: { id: number }) => s.id)).toEqual([branch.id]);
    const back = await api.post(`${SUBJECTS}/${branch.id}/actions/make-main`, {});
    expect(back.body.parent_id).toBeNull();
    // an action's parameters follow the same rules as a form's: no stopping in the future
    const future = await api.post(`${SUBJECTS}/${branch.id}/actions/stop`, { stopped_date: '2999-01-01' }, { lang: 'ru' });
    expect(future.body.errors).toEqual({ stopped_date: 'Дата не может быть позже сегодняшней' });
    const stopped = await api.post(`${SUBJECTS}/${branch.id}/actions/stop`, { stopped_date: '2025-06-30' });
    expect(stopped.body).toMatchObject({ status: 'stopped', stopped_date: '2025-06-30' });
  });
});

describe('payments', () => {
  let stackId: number;
  let subjectId: number;

  it('refuses a statement with bad rows, naming each row, and imports nothing', async () => {
    subjectId = (await subject('400000001')).body.id;
    stackId = (await api.post(STACKS, { number: 'KV-1', statement_date: '2025-03-31' })).body.id;
    const bad = await upload(
      stackId,
      await sheet([
        ['2025-03-01', 'P-1', 1000, 'Korxona', '400000001', '', 'Kompensatsiya', '3450715'],
        ['31.02.2025', '', '12,345', 'X', '123', '1', '', '0000000', 'bitcoin'],
      ]),
      'ru',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('В файле есть ошибки, ничего не загружено');
    expect(bad.body.errors).toEqual({
      'rows.3.paid_on': 'Неверный формат',
      'rows.3.number': 'Обязательное поле',
      'rows.3.amount': 'Сумма вводится с 2 знаками после запятой',
      'rows.3.payer_inn': 'Введите ИНН (9 цифр) или ПИНФЛ (14 цифр)',
      'rows.3.payer_account': 'Расчётный счёт должен состоять из 20 цифр',
      'rows.3.payment_type': 'Недопустимое значение',
      'rows.3.income_code': 'Выбранная запись не найдена',
    });
    expect(await api.db.knex('payments').where({ stack_id: stackId }).count({ n: '*' })).toEqual([{ n: 0 }]);
    const notXlsx = await upload(stackId, Buffer.from('not a spreadsheet'));
    expect(notXlsx.status).toBe(400);
  });

  it('imports a statement, attaching payers that are subjects, once', async () => {
    const ok = await upload(
      stackId,
      await sheet([
        [new Date(Date.UTC(2025, 2, 1)), 'P-1', 1000.01, 'Korxona', '400000001', '', 'Kompensatsiya', '3450715', 'karta'],
        ['02.03.2025', 'P-2', '2 500,00', 'Boshqa', '499999999', '', 'Daraxt kesish', '3422225', 'naqd'],
        ['2025-03-03', 'P-3', '0.03', 'Korxona', '400000001', '', 'Kompensatsiya', '3450715', ''],
        [],
      ]),
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ imported: 3, attached: 2, total_amount: '3500.04' });
    const stack = (await api.get(`${STACKS}/${stackId}`)).body;
    expect(stack).toMatchObject({ rows_count: 3, total_amount: '3500.04' });
    const list = (await api.get(`${PAYMENTS}?stack_id=${stackId}&sort=${encodeURIComponent('["number","ASC"]')}`)).body;
    expect(
      list.map((p: { number: string; status: string; amount: string; payment_type: string }) => [
        p.number,
        p.status,
        p.amount,
        p.payment_type,
      ]),
    ).toEqual([
      ['P-1', 'defined', '1000.01', 'card'],
      ['P-2', 'undefined', '2500.00', 'cash'],
      ['P-3', 'defined', '0.03', 'card'],
    ]);
    expect(list[0].income_code).toBe('3450715');
    expect((await upload(stackId, await sheet([['2025-03-01', 'P-9', 1, '', '', '', '', '', '']]))).status).toBe(409);
  });

  it('attaches and confirms in bulk, splitting each payment exactly, idempotently, and shows the balance', async () => {
    const list = (await api.get(`${PAYMENTS}?stack_id=${stackId}&sort=${encodeURIComponent('["number","ASC"]')}`)).body as { id: number }[];
    const [p1, p2, p3] = list.map((p) => p.id);
    const attach = await api.post(`${PAYMENTS}/actions/attach`, { ids: [p2], subject_id: subjectId });
    expect(attach.body).toEqual({ ids: [p2], changed: 1 });
    const p2row = (await api.get(`${PAYMENTS}/${p2}`)).body;
    expect(p2row).toMatchObject({ status: 'defined', subject_id: subjectId, region_id: regionId });
    const confirm = await api.post(`${PAYMENTS}/actions/confirm`, { ids: [p1, p2, p3] });
    expect(confirm.body.changed).toBe(3);
    expect((await api.post(`${PAYMENTS}/actions/confirm`, { ids: [p1, p2, p3] })).body.changed).toBe(0);
    const splits = await Promise.all([p1, p2, p3].map(async (id) => (await api.get(`${PAYMENTS}/${id}`)).body.splits[0]));
    // 1000.01 × 26 % = 260.0026 → 260.00; 74 % = 740.0074 → 740.01 (largest remainder)
    expect(splits[0]).toMatchObject({ income_code: '3450715', budget: '260.00', fund: '740.01', organisation: '0.00' });
    expect(splits[1]).toMatchObject({ income_code: '3422225', budget: '650.00', fund: '1850.00' });
    // 0.03 × 26 % = 0.0078, × 74 % = 0.0222 → 0.01 + 0.02
    expect(splits[2]).toMatchObject({ budget: '0.01', fund: '0.02' });
    const balance = await api.get(`${SUBJECTS}/${subjectId}/balance?year=2025`);
    expect(balance.body).toMatchObject({ year: 2025, balance_start: '0.00', paid_in_year: '3500.04', balance_end: '3500.04' });
    expect(balance.body.by_income_code).toEqual([
      { income_code: '3422225', amount: '2500.00', budget: '650.00', fund: '1850.00', organisation: '0.00' },
      { income_code: '3450715', amount: '1000.04', budget: '260.01', fund: '740.03', organisation: '0.00' },
    ]);
    // asked for no year, the balance is of the newest year with payments, not of an empty current year
    const latest = await api.get(`${SUBJECTS}/${subjectId}/balance`);
    expect(latest.body).toMatchObject({ year: 2025, years: [2025], paid_in_year: '3500.04' });
    // a subject with no payments: the current year, and no years with payments
    const none = await api.get(`${SUBJECTS}/${(await subject('400000009')).body.id}/balance`);
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body).toMatchObject({ years: [], paid_in_year: '0.00', by_income_code: [] });
    // cancelling a confirmation removes its split; a confirmed payment cannot be detached
    expect((await api.post(`${PAYMENTS}/actions/cancel-attachment`, { ids: [p1] })).status).toBe(409);
    await api.post(`${PAYMENTS}/actions/cancel-confirmed`, { ids: [p1] });
    expect((await api.get(`${PAYMENTS}/${p1}`)).body.splits).toEqual([]);
    const detached = await api.post(`${PAYMENTS}/${p1}/actions/cancel-attachment`, {});
    expect(detached.body).toMatchObject({ status: 'undefined', subject_id: null, region_id: null });
    const flows = (await api.get(`${PAYMENTS}/${p1}/flows`)).body.map((f: { action: string }) => f.action);
    expect(flows).toEqual(['attach', 'confirm', 'cancel-confirmed', 'cancel-attachment']);
  });

  it('keeps a subject user to their own payments', async () => {
    const token = await api.userWithActions('subject_user', [577, 253], { subject_id: subjectId });
    const mine = (await api.get(PAYMENTS, { token })).body as { subject_id: number }[];
    expect(mine.length).toBe(2);
    expect(mine.every((p) => p.subject_id === subjectId)).toBe(true);
    const subjects = (await api.get(SUBJECTS, { token })).body as { id: number }[];
    expect(subjects.map((s) => s.id)).toEqual([subjectId]);
  });
});
