import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';
import { statementFile, statementRow, STATEMENT_HEADER } from '../../../test/support/statement.ts';
import { Repository } from '../../engine/repository.ts';
import { importStatement } from './statement-import.ts';
import type { Principal } from '../../auth/ability.ts';
import { readdirSync } from 'node:fs';
import { JobWorker, jobsDir } from '../../jobs/worker.ts';

/**
 * A bank statement at size (docs/payments-import.md, bench/import for 100 000 rows): a few
 * thousand rows imported all or nothing, a bad row in the middle naming itself, the first hundred
 * errors and their count, cells the database cannot hold refused by row, progress and abort.
 */
let api: TestApi;
let codes: string[];
let regionId: number;
const ROWS = Number(process.env.ECOFOND_IMPORT_TEST_ROWS || 5000);
const STACKS = '/api/ecofund/stack-payments';

beforeAll(async () => {
  api = await startTestApi();
  regionId = (await api.db.knex('regions').orderBy('id').first('id')).id;
  codes = await api.db.knex('income_types').orderBy('id').limit(3).pluck('code');
}, 120_000);
afterAll(async () => { await api?.close(); });

async function stack(number: string): Promise<number> {
  const r = await api.post(STACKS, { number, statement_date: '2025-12-01' });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

async function upload(stackId: number, body: Buffer, lang = 'uz') {
  const res = await fetch(`${api.url}${STACKS}/${stackId}/import`, {
    method: 'POST', body,
    headers: { Authorization: `Bearer ${api.adminToken}`, Language: lang, 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  });
  return { status: res.status, body: (await res.json()) as any };
}

const written = async (stackId: number) => Number((await api.db.knex('payments').where({ stack_id: stackId }).count({ n: '*' }))[0].n);

/** A small statement by ExcelJS: rows of cells after the header. */
async function sheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Koʻchirma');
  ws.addRow(STATEMENT_HEADER);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('a statement of thousands of rows', () => {
  it(`imports ${ROWS} rows in one transaction, one audit row each, attaching known payers`, async () => {
    const inn = '410000001';
    const subject = await api.post('/api/ecofund/subject', { inn, name: 'Korxona', region_id: regionId, category_id: (await api.db.knex('subject_categories').first('id')).id });
    expect(subject.status, JSON.stringify(subject.body)).toBe(201);
    const id = await stack('BIG-1');
    const file = await statementFile({ rows: ROWS, codes, known: { inns: [inn], every: 1000 } });
    const r = await upload(id, file);
    expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(200);
    expect(r.body).toMatchObject({ imported: ROWS, attached: Math.ceil(ROWS / 1000) });
    expect(await written(id)).toBe(ROWS);
    const k = api.db.knex;
    const audited = await k('audit_log as a').join('payments as p', 'p.id', 'a.record_id').where({ 'a.entity': 'payments', 'p.stack_id': id, 'a.op': 'create', 'a.action': 'import' }).count({ n: '*' });
    expect(Number(audited[0].n)).toBe(ROWS);
    // a row as the sheet had it, its audit row as a single create writes it
    const row = await k('payments').where({ stack_id: id, number: 'P-2' }).first();
    const expected = statementRow(1, { rows: ROWS, codes });
    expect(row).toMatchObject({ paid_on: '2025-01-02', amount: '1001.01', payer: expected[3], payer_inn: expected[4], payer_account: expected[5], income_code: codes[1], payment_type: 'card', status: 'undefined' });
    const trail = await k('audit_log').where({ entity: 'payments', record_id: row.id }).first('after');
    expect(trail.after).toMatchObject({ number: 'P-2', amount: '1001.01', paid_on: '2025-01-02', stack_id: id, status: 'undefined' });
    const stackRow = (await api.get(`${STACKS}/${id}`)).body;
    expect(stackRow.rows_count).toBe(ROWS);
    expect(stackRow.total_amount).toBe(r.body.total_amount);
  });

  it('refuses a file with one bad row in the middle, naming that row, and writes nothing', async () => {
    const id = await stack('BIG-2');
    const bad = Math.floor(ROWS / 2) + 1;
    const file = await statementFile({ rows: ROWS, codes, spoil: (row) => (row === bad ? statementRow(row - 2, { rows: ROWS, codes }).map((v, i) => (i === 2 ? '12,345' : v)) : undefined) });
    const r = await upload(id, file, 'ru');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ message: 'В файле есть ошибки, ничего не загружено', errors: { [`rows.${bad}.amount`]: 'Сумма вводится с 2 знаками после запятой' }, error_count: 1, error_rows: 1 });
    expect(Object.keys(r.body.errors)).toEqual([`rows.${bad}.amount`]);
    expect(await written(id)).toBe(0);
    expect(await api.db.knex('audit_log').where({ entity: 'stack-payments', record_id: id, action: 'import' }).first()).toBeUndefined();
  });

  it('lists the first hundred errors by row number and counts them all', async () => {
    const id = await stack('BIG-3');
    // every tenth row from row 11 on: no number and an INN of 3 digits — 2 errors a row
    const spoilt = (row: number) => row > 10 && row % 10 === 1;
    const file = await statementFile({ rows: 2000, codes, spoil: (row) => (spoilt(row) ? statementRow(row - 2, { rows: 2000, codes }).map((v, i) => (i === 1 ? '' : i === 4 ? '123' : v)) : undefined) });
    const r = await upload(id, file);
    expect(r.status).toBe(400);
    const bad = Array.from({ length: 2001 }, (_, i) => i + 1).filter(spoilt);
    expect(r.body.error_rows).toBe(bad.length);
    expect(r.body.error_count).toBe(bad.length * 2);
    const keys = Object.keys(r.body.errors);
    expect(keys).toHaveLength(100);
    expect(keys.slice(0, 4)).toEqual(['rows.11.number', 'rows.11.payer_inn', 'rows.21.number', 'rows.21.payer_inn']);
    expect(keys.at(-1)).toBe(`rows.${bad[49]}.payer_inn`);
    expect(await written(id)).toBe(0);
  });

  it('refuses cells the database cannot hold or that are out of range, by row and column, and keeps odd but good text exactly', async () => {
    const id = await stack('ODD-1');
    const good = 'Oʻzbekiston 🌳 Ўзбекистон «Eco» \u200d\u05d0'; // emoji, Cyrillic, a joiner, Hebrew
    const r = await upload(id, await sheet([
      ['2025-03-01', 'N_x0000_UL', 1000, 'A', '', '', '', codes[0], ''],
      ['2025-03-01', 'S-1', 1000, 'B_xD800_', '', '', '', codes[0], ''],
      ['2025-03-01', 'H-1', 1e20, 'C', '', '', '', codes[0], ''],
      ['2025-03-01', 'H-2', '99999999999999999.00', 'D', 1e20, '', '', codes[0], ''],
      [1e9, 'H-3', 10, 'E', '', '', '', codes[0], ''],
      ['2025-03-01', 'OK-1', '0.01', good, '', '', good, codes[0], ''],
    ]), 'ru');
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors).sort()).toEqual([
      'rows.2.number', 'rows.3.payer', 'rows.4.amount', 'rows.5.amount', 'rows.5.payer_inn', 'rows.6.paid_on',
    ]);
    expect(r.body.errors['rows.2.number']).toBe(r.body.errors['rows.3.payer']);
    expect(r.body.error_count).toBe(6);
    expect(await written(id)).toBe(0);
    // the good row alone: taken, its text as it was
    const ok = await upload(id, await sheet([['2025-03-01', 'OK-1', '0.01', good, '', '', good, codes[0], '']]));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await api.db.knex('payments').where({ stack_id: id }).first('payer', 'purpose')).toEqual({ payer: good, purpose: good });
  });

  it('reports progress up to 100 and stops on an abort, writing nothing', async () => {
    const k = api.db.knex;
    const admin = await k('users').where({ username: 'admin' }).first('id');
    const principal: Principal = { id: admin.id, username: 'admin', actions: new Set(api.model.actions.keys()), region_id: null, branch_id: null, subject_id: null };
    const repo = (name: string) => new Repository({ knex: k, model: api.model, principal, lang: 'uz' }, api.model.entities.get(name)!);
    const file = await statementFile({ rows: 3000, codes });
    const id = await stack('PROG-1');
    const seen: [number, number, string][] = [];
    const done = await importStatement({ knex: k, repo, stackId: id, file, onProgress: (d, t, s) => seen.push([d, t, s]) });
    expect(done.imported).toBe(3000);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.every(([d, t], i) => t === 100 && d >= (seen[i - 1]?.[0] ?? 0))).toBe(true);
    expect(seen.at(-1)).toEqual([100, 100, 'done']);
    expect(new Set(seen.map(([, , s]) => s))).toEqual(new Set(['read', 'write', 'attach', 'done']));
    // aborted while writing: the transaction rolls back
    const id2 = await stack('PROG-2');
    const ac = new AbortController();
    const aborted = importStatement({ knex: k, repo, stackId: id2, file, signal: ac.signal, onProgress: (_d, _t, s) => { if (s === 'write') ac.abort(); } });
    await expect(aborted).rejects.toThrow();
    expect(await written(id2)).toBe(0);
  });
});

describe('a statement imported as a background job (?background=1)', () => {
  const post = async (stackId: number, body: Buffer) => {
    const res = await fetch(`${api.url}${STACKS}/${stackId}/import?background=1`, {
      method: 'POST', body,
      headers: { Authorization: `Bearer ${api.adminToken}`, Language: 'ru', 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    });
    return { status: res.status, location: res.headers.get('location'), body: (await res.json()) as any };
  };
  const run = () => new JobWorker(api.db.knex, () => api.model, { pollMs: 50, heartbeatMs: 20, leaseMs: 60_000 }).drain();

  it('answers 202 with the job; the worker imports it with its progress, all at once', { timeout: 60_000 }, async () => {
    const id = await stack('BG-1');
    const r = await post(id, await statementFile({ rows: 300, codes }));
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.location).toBe(`/api/jobs/${r.body.id}`);
    expect(r.body).toMatchObject({ kind: 'statement-import', state: 'queued', title: 'Импорт банковской выписки № BG-1' });
    expect(await written(id)).toBe(0);
    expect(await run()).toBe(1);
    const done = await api.get(`/api/jobs/${r.body.id}`);
    expect(done.body).toMatchObject({ state: 'done', progress: { done: 100, total: 100 }, result: { imported: 300, attached: 0 }, error: null });
    expect(await written(id)).toBe(300);
    // the kept statement is gone with the job's end
    expect(readdirSync(jobsDir()).filter((f) => f.startsWith('statement-'))).toEqual([]);
  });

  it('fails the job with the bad rows named, their count, and nothing written', { timeout: 60_000 }, async () => {
    const id = await stack('BG-2');
    const o = { rows: 200, codes };
    const file = await statementFile({ ...o, spoil: (row) => (row === 101 ? statementRow(row - 2, o).map((c, i) => (i === 2 ? 'yuz' : c)) : undefined) });
    const r = await post(id, file);
    expect(r.status).toBe(202);
    await run();
    const failed = await api.get(`/api/jobs/${r.body.id}`);
    expect(failed.body.state).toBe('failed');
    expect(Object.keys(failed.body.error.errors)).toEqual(['rows.101.amount']);
    // the counts as the synchronous 400 answers them (error_count, error_rows)
    expect(failed.body.error).toMatchObject({ code: -105, count: 1, error_count: 1, error_rows: 1 });
    expect(await written(id)).toBe(0);
  });

  it('refuses a wrong background value before keeping anything', async () => {
    const id = await stack('BG-3');
    const res = await fetch(`${api.url}${STACKS}/${id}/import?background=maybe`, {
      method: 'POST', body: await statementFile({ rows: 2, codes }), headers: { Authorization: `Bearer ${api.adminToken}`, 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(((await res.json()) as any).errors)).toContain('background');
  });
});
