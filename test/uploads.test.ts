import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { newSubject } from './support/subjects.ts';

/**
 * Uploaded files (docs/architecture.md, "Files are the rows' files"): an upload gets a random id
 * and is read only by its uploader and by whoever may read a row that holds it — to anyone else it
 * does not exist; a file field takes only files of its types and size, the type read from the bytes
 * (a zip named .xlsx is not a workbook).
 */
let api: TestApi;
let regionOne = 0;
let regionTwo = 0;
let category = 0;
const k = () => api.db.knex;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function upload(body: Buffer, name: string, token = api.adminToken): Promise<{ status: number; body: any }> {
  const r = await fetch(`${api.url}/api/resources/upload?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    body,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
  });
  return { status: r.status, body: await r.json() };
}
const download = (id: number, token: string) =>
  fetch(`${api.url}/api/resources/${id}`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);

const subject = (inn: string, region: number) => newSubject(api, inn, region, category);

beforeAll(async () => {
  process.env.ECOFOND_DATA_DIR = mkdtempSync(join(tmpdir(), 'ecofond-uploads-'));
  api = await startTestApi();
  [regionOne, regionTwo] = await k()('regions').orderBy('id').limit(2).pluck('id');
  category = (await k()('subject_categories').first('id')).id;
});
afterAll(async () => {
  await api?.close();
});

describe('a file is read by whoever may read a row that holds it', () => {
  it('answers 404 to others, 200 to the uploader and to readers of the row in their scope; ids are random', async () => {
    const a = await upload(PDF, 'dalolatnoma.pdf');
    const b = await upload(PNG, 'rasm.png');
    expect(a.status).toBe(201);
    // not the next number: ids cannot be walked
    expect(Math.abs(b.body.id - a.body.id)).toBeGreaterThan(1000);
    const owner = await subject('400000004', regionOne);
    const report = await api.post('/api/ecofund/subject-report-yearly', {
      subject_id: owner,
      year: 2024,
      period: 'year',
      report_date: '2024-12-20',
      files: [a.body.id],
    });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    const onlyRegions = await api.userWithActions('regions_reader', [3001]);
    expect(await download(a.body.id, onlyRegions)).toBe(404);
    expect(await download(b.body.id, onlyRegions)).toBe(404);
    const readerOne = await api.userWithActions('reports_reader_1', [5201], { region_id: regionOne });
    const readerTwo = await api.userWithActions('reports_reader_2', [5201], { region_id: regionTwo });
    expect(await download(a.body.id, readerOne)).toBe(200);
    expect(await download(a.body.id, readerTwo)).toBe(404);
    expect(await download(a.body.id, api.adminToken)).toBe(200);
    // the uploader reads their own upload before any row holds it
    const own = await upload(PNG, 'mine.png', onlyRegions);
    expect(await download(own.body.id, onlyRegions)).toBe(200);
    expect(await download(own.body.id, readerOne)).toBe(404);
  });
});

describe('file fields keep their rules', () => {
  it("refuses a PDF as a logo, an image over the field's size, and a bare zip named .xlsx", async () => {
    const pdf = await upload(PDF, 'logo.pdf');
    const r = await api.post(
      '/api/ecofund/subject',
      { inn: '400000005', name: 'Logotip', region_id: regionOne, category_id: category, logo: pdf.body.id },
      { lang: 'ru' },
    );
    expect(r.status).toBe(400);
    expect(r.body.errors.logo).toMatch(/не принимает файлы такого типа/);
    const big = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]);
    const large = await upload(big, 'katta.png');
    expect(large.status).toBe(201);
    const r2 = await api.post('/api/ecofund/subject', {
      inn: '400000006',
      name: 'Katta logotip',
      region_id: regionOne,
      category_id: category,
      logo: large.body.id,
    });
    expect(r2.status).toBe(400);
    expect(r2.body.errors.logo).toMatch(/2 MB/);
    // a zip whose entries are not a workbook's is not a spreadsheet, whatever its name
    const zip = Buffer.from('504b0506000000000000000000000000000000000000', 'hex');
    expect((await upload(zip, 'hisobot.xlsx')).status).toBe(400);
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('A').addRow(['x']);
    const real = await upload(Buffer.from(await wb.xlsx.writeBuffer()), 'hisobot.xlsx');
    expect(real.body.mime).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });
});
