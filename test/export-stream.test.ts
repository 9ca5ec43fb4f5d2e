import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { fixtureModel } from './support/fixture-model.ts';
import { createEntityTables } from '../api/db/entity-tables.ts';
import { seed } from '../seeds/index.ts';
import { writeExport } from '../api/engine/export.ts';
import type { Principal } from '../api/auth/ability.ts';

/**
 * Exports have no ceiling: a list of more rows than lists count exactly (10 000) exports whole,
 * its filters and sort kept, money and dates as Excel numbers and dates with their formats,
 * figures past Excel's 15 digits as text; GeoJSON the same; and `writeExport`, the seam a job
 * runs, writes the same file into any stream.
 */
const ROWS = 10_500;
const fixture = {
  name: 'export-payments',
  module: 'fixtures',
  kind: 'document',
  caption: 'entity.export-payments',
  access: { read: 9121, create: 9122, update: 9123, delete: 9124, export: 9125 },
  fields: {
    payer: { type: 'string', required: true, maxLength: 100 },
    amount: { type: 'money', required: true },
    paid_on: { type: 'date', required: true },
    place: { type: 'point' },
  },
  list: { columns: ['id', 'payer', 'amount', 'paid_on'], sort: ['paid_on', 'desc'], perPage: 25, filters: { paid_on: 'range' } },
  titleField: 'payer',
};
const names = {
  'entity.export-payments': 'Toʻlovlar',
  'fields.payer': 'Toʻlovchi',
  'fields.amount': 'Summa',
  'fields.paid_on': 'Sana',
  'fields.place': 'Joy',
};
const path = '/api/fixtures/export-payments';
let api: TestApi;

async function sheetOf(raw: ArrayBuffer | Buffer): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw as ArrayBuffer);
  return wb.worksheets[0];
}

beforeAll(async () => {
  const model = fixtureModel([fixture], { uz: names, uk: names, ru: names });
  api = await startTestApi(model);
  await createEntityTables(api.db.knex, ['export-payments'], model);
  await seed(api.db.knex, model, {});
  // row g: paid on 2024-01-01 + g % 366 days; row 1 holds a figure Excel cannot keep exactly, row 2 XML specials
  await api.db.knex.raw(`
    insert into export_payments (payer, amount, paid_on, place)
    select case g when 2 then 'A & B <MChJ> "Oʻzbekiston" 🌳' else 'Toʻlovchi ' || g end,
           case g when 1 then 90071992547409.99 else g * 100 + 0.5 end,
           date '2024-01-01' + (g % 366), point(69 + g / 100000.0, 41)
      from generate_series(1, ${ROWS}) g`);
}, 300_000);
afterAll(async () => {
  await api?.close();
});

describe('exports without a ceiling', () => {
  it('exports more rows than lists count exactly, sorted and formatted like the list', { timeout: 120_000 }, async () => {
    const list = await api.get(path);
    expect(list.headers.get('x-total-exact')).toBe('false');
    const r = await api.get(`${path}/export?background=0`, { lang: 'uz' });
    expect(r.status).toBe(200);
    const sheet = await sheetOf(r.raw);
    expect(sheet.rowCount).toBe(ROWS + 1);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['ID', 'Toʻlovchi', 'Summa', 'Sana']);
    // the list's order: newest first, ties by id descending with it
    const first = await api.db
      .knex('export_payments')
      .orderBy([
        { column: 'paid_on', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first('id', 'amount', 'paid_on');
    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe(Number(first.id));
    expect(row.getCell(3).value).toBe(Number(first.amount));
    expect(row.getCell(3).numFmt).toBe('#,##0.00');
    expect(row.getCell(4).value).toEqual(new Date(`${first.paid_on}T00:00:00Z`));
    expect(row.getCell(4).numFmt).toBe('dd.mm.yyyy');
    const byId = new Map<number, ExcelJS.Row>();
    sheet.eachRow((x, n) => {
      if (n > 1) byId.set(Number(x.getCell(1).value), x);
    });
    expect(byId.size).toBe(ROWS);
    // 16 digits: the exact figure as text, as the faces write it
    expect(byId.get(1)!.getCell(3).value).toBe('90\u00a0071\u00a0992\u00a0547\u00a0409,99');
    expect(byId.get(2)!.getCell(2).value).toBe('A & B <MChJ> "Oʻzbekiston" 🌳');
  });

  it('keeps the filters, and GeoJSON exports every row too', { timeout: 120_000 }, async () => {
    const filtered = await api.get(`${path}/export?from_paid_on=2024-01-01&to_paid_on=2024-01-10`);
    const expected = await api.db.knex('export_payments').whereBetween('paid_on', ['2024-01-01', '2024-01-10']).count({ n: '*' }).first();
    expect((await sheetOf(filtered.raw)).rowCount).toBe(Number(expected!.n) + 1);
    const geo = await api.get(`${path}/export.geojson?background=0`);
    expect(geo.status).toBe(200);
    const doc = JSON.parse(Buffer.from(geo.raw).toString('utf8'));
    expect(doc.features).toHaveLength(ROWS);
    expect(doc.features[0].geometry.type).toBe('Point');
  });

  it("writes the same export into any stream through writeExport, checking the caller's right", { timeout: 120_000 }, async () => {
    const e = api.model.entities.get('export-payments')!;
    const principal: Principal = {
      id: 1,
      username: 'admin',
      actions: new Set([e.access.read, e.access.export!]),
      region_id: null,
      branch_id: null,
      subject_id: null,
    };
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const done = await writeExport(
      { knex: api.db.knex, model: api.model, principal, lang: 'ru' },
      'export-payments',
      'xlsx',
      { to_paid_on: '2024-01-31' },
      out,
    );
    expect(done.filename).toMatch(/^export-payments-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const sheet = await sheetOf(Buffer.concat(chunks));
    expect(sheet.rowCount).toBe(done.rows + 1);
    expect(done.rows).toBeGreaterThan(800);
    const nobody: Principal = { ...principal, actions: new Set([e.access.read]) };
    await expect(
      writeExport({ knex: api.db.knex, model: api.model, principal: nobody, lang: 'ru' }, 'export-payments', 'xlsx', {}, new PassThrough()),
    ).rejects.toMatchObject({ status: 403 });
  });
});
