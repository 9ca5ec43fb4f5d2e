import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { fixtureModel } from './support/fixture-model.ts';
import { createEntityTables } from '../api/db/entity-tables.ts';
import { seed } from '../seeds/index.ts';
import { todayTashkent } from '../api/meta/today.ts';

/**
 * The engine's features on a fixture entity that uses all of them: row scope by region, child
 * rows, points, multi-references, derived fields, a workflow with its flow history, date and
 * format rules, search across columns, range filters, audit rows and transactions.
 */
const fixture = JSON.parse(readFileSync(new URL('./fixtures/scoped-notes.json', import.meta.url), 'utf8'));
const captions = {
  'entity.scoped-notes': 'Eslatmalar',
  'fields.title': 'Sarlavha',
  'fields.area_id': 'Tuman',
  'fields.happened_on': 'Sana',
  'fields.place': 'Joy',
  'fields.tags': 'Teglar',
  'fields.status': 'Holat',
  'fields.region_soato': 'Viloyat kodi',
  'fields.lines': 'Qatorlar',
  'fields.mass': 'Massa',
  'fields.coefficient': 'Koeffitsiyent',
  'enums.status.draft': 'Qoralama',
  'enums.status.sent': 'Yuborilgan',
  'enums.status.closed': 'Yopilgan',
  'actions.send': 'Yuborish',
  'actions.close': 'Yopish',
  'fields.bank_mfo': 'Bank MFO',
};
const path = '/api/fixtures/scoped-notes';

let api: TestApi;
let regionA: { id: number; soato: string };
let regionB: { id: number };
let areasA: number[];
let inspectorA: string;
let inspectorB: string;

beforeAll(async () => {
  const model = fixtureModel([fixture], { uz: captions, uk: captions, ru: captions });
  api = await startTestApi(model);
  await createEntityTables(api.db.knex, ['scoped-notes'], model);
  await seed(api.db.knex, model, {});
  const regions = await api.db.knex('regions').orderBy('id').limit(2).select('id', 'soato');
  [regionA, regionB] = regions;
  areasA = await api.db.knex('areas').where('region_id', regionA.id).orderBy('id').limit(3).pluck('id');
  inspectorA = await api.userWithActions('insp_a', [9001, 9002, 9003, 9004, 9005, 9010, 9011, 3011], { region_id: regionA.id });
  inspectorB = await api.userWithActions('insp_b', [9001, 9002, 9005], { region_id: regionB.id });
});
afterAll(async () => {
  await api?.close();
});

const note = (over: Record<string, unknown> = {}) => ({
  title: 'Daraxt kesilgan',
  region_id: regionA.id,
  area_id: areasA[0],
  happened_on: '2025-03-01',
  amount: '1234567.50',
  inn: '123 456 789',
  phone: '(90) 123-45-67',
  place: { lat: 41.31, lng: 69.28 },
  tags: [areasA[1], areasA[2]],
  lines: [
    { area_id: areasA[0], mass: '1.250000' },
    { area_id: areasA[1], mass: '2.5', coefficient: '1.2' },
  ],
  ...over,
});

describe('engine features on a fixture entity', () => {
  it('creates a row with children, points, multi-references and derived fields in one go', async () => {
    const r = await api.post(path, note());
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      title: 'Daraxt kesilgan',
      amount: '1234567.50',
      inn: '123456789',
      phone: '901234567',
      place: { lat: 41.31, lng: 69.28 },
      tags: [areasA[1], areasA[2]],
      status: 'draft',
      region_soato: regionA.soato,
      version: 1,
    });
    expect(r.body.lines).toHaveLength(2);
    expect(r.body.lines[0]).toMatchObject({ area_id: areasA[0], mass: '1.250000', coefficient: '1.0000', ordering: 0 });
    const audit = await api.db.knex('audit_log').where({ entity: 'scoped-notes', record_id: r.body.id });
    expect(audit.map((a) => a.op)).toEqual(['create']);
  });

  it('refuses future dates, bad formats and missing child values, and writes nothing', async () => {
    const before = await api.db.knex('scoped_notes').count({ n: '*' });
    const tomorrow = new Date(Date.parse(`${todayTashkent()}T12:00:00Z`) + 86400000).toISOString().slice(0, 10);
    const r = await api.post(path, note({ happened_on: tomorrow, inn: '12345', amount: '1.234', lines: [{ area_id: areasA[0] }] }), {
      lang: 'ru',
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({
      happened_on: 'Дата не может быть позже сегодняшней',
      inn: 'ИНН должен состоять из 9 цифр',
      amount: 'Сумма вводится с 2 знаками после запятой',
      'lines.0.mass': 'Обязательное поле',
    });
    const badRef = await api.post(path, note({ lines: [{ area_id: 99999999, mass: '1' }] }));
    expect(badRef.status).toBe(400);
    expect(badRef.body.errors).toEqual({ 'lines.0.area_id': 'Tanlangan yozuv topilmadi' });
    expect(await api.db.knex('scoped_notes').count({ n: '*' })).toEqual(before);
  });

  it('searches across columns with any apostrophe, filters ranges and pages', async () => {
    await api.post(path, note({ title: 'Oʻrmon xoʻjaligi', happened_on: '2024-06-01', amount: '10.00', lines: [] }));
    await api.post(path, note({ title: 'Boshqa', happened_on: '2023-01-01', amount: '99.00', lines: [] }));
    for (const q of ["o'rmon", 'o’rmon', 'OʻRMON']) {
      const r = await api.get(`${path}?q=${encodeURIComponent(q)}`);
      expect(
        r.body.map((x: { title: string }) => x.title),
        q,
      ).toEqual(['Oʻrmon xoʻjaligi']);
    }
    const range = await api.get(`${path}?from_happened_on=2024-01-01&to_happened_on=2024-12-31`);
    expect(range.body.map((x: { title: string }) => x.title)).toEqual(['Oʻrmon xoʻjaligi']);
    const money = await api.get(`${path}?filter=${encodeURIComponent(JSON.stringify({ from_amount: '50', to_amount: '100' }))}`);
    expect(money.body.map((x: { title: string }) => x.title)).toEqual(['Boshqa']);
    const paged = await api.get(`${path}?options=${encodeURIComponent('sortBy=amount;descending=false;page=2;perPage=1')}`);
    expect(paged.body.map((x: { amount: string }) => x.amount)).toEqual(['99.00']);
    expect(paged.headers.get('content-range')).toBe('scoped-notes 1-1/3');
    expect((await api.get(`${path}?from_happened_on=2024-13-01`)).status).toBe(400);
    expect((await api.get(`${path}?status=draft,bogus`)).status).toBe(400);
  });

  it('keeps a regional user to their region in lists, reads, exports, updates and deletes', async () => {
    const b = await api.post(path, note({ title: 'B region', region_id: regionB.id, area_id: null, tags: [], lines: [] }));
    expect(b.status).toBe(201);
    const listA = await api.get(path, { token: inspectorA });
    expect(listA.body.length).toBe(3);
    expect(listA.body.every((x: { region_id: number }) => x.region_id === regionA.id)).toBe(true);
    const listB = await api.get(path, { token: inspectorB });
    expect(listB.body.map((x: { title: string }) => x.title)).toEqual(['B region']);
    expect((await api.get(`${path}/${b.body.id}`, { token: inspectorA })).status).toBe(404);
    expect((await api.put(`${path}/${b.body.id}`, { title: 'x', version: 1 }, { token: inspectorA })).status).toBe(404);
    expect((await api.del(`${path}/${b.body.id}`, { token: inspectorA })).status).toBe(404);
    // a row moved out of one's own region is refused
    const a = listA.body[0];
    expect((await api.put(`${path}/${a.id}`, { region_id: regionB.id, version: a.version }, { token: inspectorA })).status).toBe(403);
    // creating fills the region from the scope; another region is refused
    const own = await api.post(path, { title: 'Own', happened_on: '2025-01-01' }, { token: inspectorB });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.region_id).toBe(regionB.id);
    expect((await api.post(path, note(), { token: inspectorB })).status).toBe(403);
    // export: only their rows
    const x = await api.get(`${path}/export`, { token: inspectorB, lang: 'uz' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.raw);
    const sheet = wb.worksheets[0];
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(1).getCell(2).value).toBe('Sarlavha');
    const titles = [sheet.getRow(2).getCell(2).value, sheet.getRow(3).getCell(2).value].sort();
    expect(titles).toEqual(['B region', 'Own']);
    // money as a number with 2 decimals, dates as dates, references by name
    const amountCell = sheet.getRow(2).getCell(5);
    expect(amountCell.numFmt).toBe('#,##0.00');
    expect(sheet.getRow(2).getCell(4).value).toBeInstanceOf(Date);
    expect(typeof sheet.getRow(2).getCell(3).value).toBe('string');
  });

  it('runs workflow actions only from their states, with a flow row, within scope', async () => {
    const [row] = (await api.get(path, { token: inspectorA })).body;
    const sent = await api.post(`${path}/${row.id}/actions/send`, { comment: 'ok' }, { token: inspectorA });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.status).toBe('sent');
    const again = await api.post(`${path}/${row.id}/actions/send`, {}, { token: inspectorA, lang: 'ru' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Действие «Yuborish» нельзя выполнить для записи в состоянии «Yuborilgan»');
    const flows = await api.get(`${path}/${row.id}/flows`, { token: inspectorA });
    expect(flows.body).toMatchObject([{ action: 'send', from_state: 'draft', to_state: 'sent', comment: 'ok', username: 'insp_a' }]);
    expect((await api.post(`${path}/${row.id}/actions/send`, {}, { token: inspectorB })).status).toBe(403);
    expect((await api.post(`${path}/${row.id}/actions/nope`, {}, { token: inspectorA })).status).toBe(404);
    // the state cannot be written through an update
    const updated = await api.put(`${path}/${row.id}`, { status: 'draft', version: sent.body.version }, { token: inspectorA });
    expect(updated.body.status).toBe('sent');
  });

  it('runs a bulk action with parameters, idempotently, all or nothing', async () => {
    const mine = (await api.get(path, { token: inspectorA })).body as { id: number; status: string }[];
    const draft = mine.filter((r) => r.status === 'draft').map((r) => r.id);
    const sent = mine.filter((r) => r.status === 'sent').map((r) => r.id);
    expect(sent.length).toBe(1);
    // a row in a state the action does not leave from stops the whole batch
    const mixed = await api.post(`${path}/actions/close`, { ids: [...sent, ...draft], inn: '111222333' }, { token: inspectorA });
    expect(mixed.status).toBe(409);
    expect((await api.get(`${path}/${sent[0]}`, { token: inspectorA })).body.status).toBe('sent');
    const bad = await api.post(`${path}/actions/close`, { ids: sent, inn: '12' }, { token: inspectorA, lang: 'ru' });
    expect(bad.body.errors).toEqual({ inn: 'ИНН должен состоять из 9 цифр' });
    const ok = await api.post(`${path}/actions/close`, { ids: sent, inn: '111 222 333' }, { token: inspectorA });
    expect(ok.body).toEqual({ ids: sent, changed: 1 });
    const closed = (await api.get(`${path}/${sent[0]}`, { token: inspectorA })).body;
    expect(closed).toMatchObject({ status: 'closed', inn: '111222333', phone: null });
    // again: nothing to do, no second flow row
    const again = await api.post(`${path}/actions/close`, { ids: sent, inn: '111222333' }, { token: inspectorA });
    expect(again.body).toEqual({ ids: sent, changed: 0 });
    const flows = await api.get(`${path}/${sent[0]}/flows`, { token: inspectorA });
    expect(flows.body.map((f: { action: string }) => f.action)).toEqual(['send', 'close']);
    // "all": every row of the caller's list in a state the action leaves from (none left)
    expect((await api.post(`${path}/actions/close`, { all: true, inn: '111222333' }, { token: inspectorA })).body.changed).toBe(0);
    expect((await api.post(`${path}/actions/close`, { inn: '111222333' }, { token: inspectorA })).status).toBe(400);
  });

  it('checks a looked-up code exists in its book', async () => {
    const mfo = (await api.db.knex('banks_mfo').first('mfo')).mfo;
    expect((await api.post(path, note({ bank_mfo: mfo, lines: [] }))).status).toBe(201);
    const r = await api.post(path, note({ bank_mfo: '99999', lines: [] }));
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ bank_mfo: 'Tanlangan yozuv topilmadi' });
  });

  it('replaces child rows on update and refuses a delete of a referenced row with 409', async () => {
    const [row] = (await api.get(path)).body;
    const full = (await api.get(`${path}/${row.id}`)).body;
    const r = await api.put(`${path}/${row.id}`, { ...full, lines: [{ area_id: areasA[2], mass: '7' }] });
    expect(r.status).toBe(200);
    expect(r.body.lines).toMatchObject([{ area_id: areasA[2], mass: '7.000000' }]);
    const inUse = await api.del(`/api/ecofund-sprav/areas/${areasA[2]}`, { lang: 'ru' });
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe(-107);
    const region = await api.del(`/api/ecofund-sprav/regions/${regionA.id}`);
    expect(region.status).toBe(409);
  });

  it('bulk-deletes all or nothing', async () => {
    const ids = (await api.get(path, { token: inspectorA })).body.map((x: { id: number }) => x.id);
    const other = (await api.get(path, { token: inspectorB })).body[0].id;
    expect((await api.post(`${path}/delete-many`, { ids: [...ids, other] }, { token: inspectorA })).status).toBe(404);
    expect((await api.get(path, { token: inspectorA })).body.length).toBe(ids.length);
    expect((await api.post(`${path}/delete-many`, { ids: [] }, { token: inspectorA })).status).toBe(400);
    expect((await api.post(`${path}/delete-many`, { ids }, { token: inspectorA })).status).toBe(200);
    expect((await api.get(path, { token: inspectorA })).body).toEqual([]);
  });
});

describe('counting large lists', () => {
  it("counts exactly up to the limit and gives the planner's estimate beyond it", async () => {
    const { Repository } = await import('../api/engine/repository.ts');
    const { parseListParams } = await import('../api/engine/list-params.ts');
    const e = api.model.entities.get('areas')!;
    const principal = { id: 1, username: 'admin', actions: new Set([3011]), region_id: null, branch_id: null, subject_id: null };
    const repo = new Repository({ knex: api.db.knex, model: api.model, principal, lang: 'uz', countLimit: 5 }, e);
    const all = await repo.list(parseListParams(e, { range: '[0,9]' }));
    expect(all.exact).toBe(false);
    expect(all.total).toBeGreaterThan(5);
    expect(all.rows).toHaveLength(10);
    const few = await repo.list(parseListParams(e, { region_id: String(regionA.id), q: 'shahri' }));
    expect(few.exact).toBe(true);
    const exact = await api.db.knex('areas').where('region_id', regionA.id).whereRaw(`name->>'uz' ilike '%shahri%'`).count({ n: '*' });
    expect(few.total).toBe(Number(exact[0].n));
  });

  it('asks for no estimate where none is needed: a by-id read, or the short last page past the cap', async () => {
    const { Repository } = await import('../api/engine/repository.ts');
    const { parseListParams } = await import('../api/engine/list-params.ts');
    const e = api.model.entities.get('areas')!;
    const principal = { id: 1, username: 'admin', actions: new Set([3011]), region_id: null, branch_id: null, subject_id: null };
    const [{ n }] = await api.db.knex('areas').count<{ n: number }[]>({ n: '*' });
    // a cap of half the table: its statistics, whatever they say, never call it big (ten times the cap)
    const repo = new Repository({ knex: api.db.knex, model: api.model, principal, lang: 'uz', countLimit: Math.ceil(Number(n) / 2) }, e);
    const sql: string[] = [];
    const on = (q: { sql: string }) => sql.push(q.sql);
    api.db.knex.on('query', on);
    try {
      const ids = (await api.db.knex('areas').orderBy('id').limit(3).pluck('id')).map(Number);
      sql.length = 0;
      const byId = await repo.list(parseListParams(e, { id: ids.join(',') }));
      expect(byId).toMatchObject({ total: 3, exact: true });
      expect(sql.filter((s) => /count\(|explain/i.test(s))).toEqual([]);
      // the last page, past the cap and short: its end is the total, exactly, with no EXPLAIN
      const total = Number(n);
      sql.length = 0;
      const last = await repo.list(parseListParams(e, { range: `[${total - 2},${total + 7}]` }));
      expect(last.rows).toHaveLength(2);
      expect(last).toMatchObject({ total, exact: true });
      expect(sql.some((s) => /explain/i.test(s))).toBe(false);
    } finally {
      api.db.knex.off('query', on);
    }
  });

  it('on a table its statistics call big, asks the estimate first and counts only where it is small', async () => {
    const { Repository } = await import('../api/engine/repository.ts');
    const { parseListParams } = await import('../api/engine/list-params.ts');
    const { forgetTableRows } = await import('../api/db/table-rows.ts');
    const e = api.model.entities.get('areas')!;
    const principal = { id: 1, username: 'admin', actions: new Set([3011]), region_id: null, branch_id: null, subject_id: null };
    await api.db.knex.raw('ANALYZE areas');
    forgetTableRows(api.db.knex);
    const [{ n }] = await api.db.knex('areas').count<{ n: number }[]>({ n: '*' });
    expect(Number(n)).toBeGreaterThan(40);
    // the table holds twenty times the cap: big
    const repo = new Repository({ knex: api.db.knex, model: api.model, principal, lang: 'uz', countLimit: Math.floor(Number(n) / 20) }, e);
    const sql: string[] = [];
    const on = (q: { sql: string }) => sql.push(q.sql);
    api.db.knex.on('query', on);
    try {
      // every area: the estimate (the table's size) is far past the cap — no count is made
      const all = await repo.list(parseListParams(e, { range: '[0,9]' }));
      expect(all).toMatchObject({ exact: false });
      expect(all.total).toBeGreaterThan(2 * Math.floor(Number(n) / 20));
      expect(all.rows).toHaveLength(10);
      expect(sql.filter((s) => /explain/i.test(s))).toHaveLength(1);
      expect(sql.filter((s) => /count\(/i.test(s))).toEqual([]);
      // one area by its code: estimated at a row or two, so counted — exactly
      const [one] = await api.db.knex('areas').orderBy('id').limit(1).select('soato');
      const exact = await api.db
        .knex('areas')
        .whereRaw('soato ilike ?', [`%${one.soato}%`])
        .count({ n: '*' });
      sql.length = 0;
      const few = await repo.list(parseListParams(e, { q: one.soato }));
      expect(few).toMatchObject({ total: Number(exact[0].n), exact: true });
      expect(sql.filter((s) => /count\(/i.test(s))).toHaveLength(1);
      // as a count alone (an export's) too
      expect(await repo.count(parseListParams(e, {}))).toMatchObject({ exact: false });
    } finally {
      api.db.knex.off('query', on);
      forgetTableRows(api.db.knex);
    }
  });
});
