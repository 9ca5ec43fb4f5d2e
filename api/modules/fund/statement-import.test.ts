import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';
import { statementFile, statementRow, STATEMENT_HEADER } from '../../../test/support/statement.ts';
import { Repository } from '../../engine/repository.ts';
import { importStatement } from './statement-import.ts';
import type { Principal } from '../../auth/ability.ts';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobWorker, jobsDir } from '../../jobs/worker.ts';
import { copyConnection } from '../../engine/copy-create.ts';

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
afterAll(async () => {
  await api?.close();
});

async function stack(number: string): Promise<number> {
  const r = await api.post(STACKS, { number, statement_date: '2025-12-01' });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
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

const written = async (stackId: number) => Number((await api.db.knex('payments').where({ stack_id: stackId }).count({ n: '*' }))[0].n);

/** A small statement by ExcelJS: rows of cells after the header. */
async function sheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Koʻchirma');
  ws.addRow(STATEMENT_HEADER);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Repositories of the administrator, as the import's job gets them (every action, no scope). */
async function adminRepos(): Promise<(name: string) => Repository> {
  const k = api.db.knex;
  const admin = await k('users').where({ username: 'admin' }).first('id');
  const principal: Principal = {
    id: admin.id,
    username: 'admin',
    actions: new Set(api.model.actions.keys()),
    region_id: null,
    branch_id: null,
    subject_id: null,
  };
  return (name) => new Repository({ knex: k, model: api.model, principal, lang: 'uz' }, api.model.entities.get(name)!);
}

describe('a statement of thousands of rows', () => {
  it(`imports ${ROWS} rows in one transaction, one audit row each, attaching known payers`, async () => {
    const inn = '410000001';
    const subject = await api.post('/api/ecofund/subject', {
      inn,
      name: 'Korxona',
      region_id: regionId,
      category_id: (await api.db.knex('subject_categories').first('id')).id,
    });
    expect(subject.status, JSON.stringify(subject.body)).toBe(201);
    const id = await stack('BIG-1');
    const file = await statementFile({ rows: ROWS, codes, known: { inns: [inn], every: 1000 } });
    const r = await upload(id, file);
    expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(200);
    expect(r.body).toMatchObject({ imported: ROWS, attached: Math.ceil(ROWS / 1000) });
    expect(await written(id)).toBe(ROWS);
    const k = api.db.knex;
    const audited = await k('audit_log as a')
      .join('payments as p', 'p.id', 'a.record_id')
      .where({ 'a.entity': 'payments', 'p.stack_id': id, 'a.op': 'create', 'a.action': 'import' })
      .count({ n: '*' });
    expect(Number(audited[0].n)).toBe(ROWS);
    // a row as the sheet had it, its audit row as a single create writes it
    const row = await k('payments').where({ stack_id: id, number: 'P-2' }).first();
    const expected = statementRow(1, { rows: ROWS, codes });
    expect(row).toMatchObject({
      paid_on: '2025-01-02',
      amount: '1001.01',
      payer: expected[3],
      payer_inn: expected[4],
      payer_account: expected[5],
      income_code: codes[1],
      payment_type: 'card',
      status: 'undefined',
    });
    const trail = await k('audit_log').where({ entity: 'payments', record_id: row.id }).first('after');
    expect(trail.after).toMatchObject({ number: 'P-2', amount: '1001.01', paid_on: '2025-01-02', stack_id: id, status: 'undefined' });
    const stackRow = (await api.get(`${STACKS}/${id}`)).body;
    expect(stackRow.rows_count).toBe(ROWS);
    expect(stackRow.total_amount).toBe(r.body.total_amount);
  });

  it('refuses a file with one bad row in the middle, naming that row, and writes nothing', async () => {
    const id = await stack('BIG-2');
    const bad = Math.floor(ROWS / 2) + 1;
    const file = await statementFile({
      rows: ROWS,
      codes,
      spoil: (row) => (row === bad ? statementRow(row - 2, { rows: ROWS, codes }).map((v, i) => (i === 2 ? '12,345' : v)) : undefined),
    });
    const r = await upload(id, file, 'ru');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      message: 'В файле есть ошибки, ничего не загружено',
      errors: { [`rows.${bad}.amount`]: 'Сумма вводится с 2 знаками после запятой' },
      error_count: 1,
      error_rows: 1,
    });
    expect(Object.keys(r.body.errors)).toEqual([`rows.${bad}.amount`]);
    expect(await written(id)).toBe(0);
    expect(await api.db.knex('audit_log').where({ entity: 'stack-payments', record_id: id, action: 'import' }).first()).toBeUndefined();
  });

  it('lists the first hundred errors by row number and counts them all', async () => {
    const id = await stack('BIG-3');
    // every tenth row from row 11 on: no number and an INN of 3 digits — 2 errors a row
    const spoilt = (row: number) => row > 10 && row % 10 === 1;
    const file = await statementFile({
      rows: 2000,
      codes,
      spoil: (row) =>
        spoilt(row) ? statementRow(row - 2, { rows: 2000, codes }).map((v, i) => (i === 1 ? '' : i === 4 ? '123' : v)) : undefined,
    });
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
    const r = await upload(
      id,
      await sheet([
        ['2025-03-01', 'N_x0000_UL', 1000, 'A', '', '', '', codes[0], ''],
        ['2025-03-01', 'S-1', 1000, 'B_xD800_', '', '', '', codes[0], ''],
        ['2025-03-01', 'H-1', 1e20, 'C', '', '', '', codes[0], ''],
        ['2025-03-01', 'H-2', '99999999999999999.00', 'D', 1e20, '', '', codes[0], ''],
        [1e9, 'H-3', 10, 'E', '', '', '', codes[0], ''],
        ['2025-03-01', 'OK-1', '0.01', good, '', '', good, codes[0], ''],
      ]),
      'ru',
    );
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors).sort()).toEqual([
      'rows.2.number',
      'rows.3.payer',
      'rows.4.amount',
      'rows.5.amount',
      'rows.5.payer_inn',
      'rows.6.paid_on',
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
    const repo = await adminRepos();
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
    const aborted = importStatement({
      knex: k,
      repo,
      stackId: id2,
      file,
      signal: ac.signal,
      onProgress: (_d, _t, s) => {
        if (s === 'write') ac.abort();
      },
    });
    await expect(aborted).rejects.toThrow();
    expect(await written(id2)).toBe(0);
  });

  it('reads the file from its path as it streams: the same rows, the same refusal, the same preview token', async () => {
    const k = api.db.knex;
    const repo = await adminRepos();
    const dir = mkdtempSync(join(tmpdir(), 'ecofond-statement-'));
    try {
      const bytes = await statementFile({ rows: 4000, codes });
      const path = join(dir, 'good.xlsx');
      writeFileSync(path, bytes);
      const id = await stack('PATH-1');
      // a preview from the bytes and one from the path give the same token
      const fromBytes = await importStatement({ knex: k, repo, stackId: id, file: bytes, preview: true });
      const fromPath = await importStatement({ knex: k, repo, stackId: id, file: path, preview: true });
      expect(fromPath).toEqual(fromBytes);
      const done = await importStatement({ knex: k, repo, stackId: id, file: path, expect: fromPath.token });
      expect(done).toMatchObject({ imported: 4000, total_amount: fromBytes.total_amount });
      expect(await written(id)).toBe(4000);
      const row = await k('payments').where({ stack_id: id, number: 'P-4000' }).first('amount', 'payer');
      const last = statementRow(3999, { rows: 4000, codes });
      expect(row).toEqual({ amount: Number(last[2]).toFixed(2), payer: last[3] });
      // a bad row near the end of a file read from the disk: named, nothing written
      const badPath = join(dir, 'bad.xlsx');
      writeFileSync(
        badPath,
        await statementFile({
          rows: 4000,
          codes,
          spoil: (r) => (r === 3990 ? statementRow(r - 2, { rows: 4000, codes }).map((v, i) => (i === 2 ? '-5' : v)) : undefined),
        }),
      );
      const id2 = await stack('PATH-2');
      const refused = await importStatement({ knex: k, repo, stackId: id2, file: badPath }).catch((e) => e);
      expect(refused.fieldErrors).toEqual({ 'rows.3990.amount': { key: 'validation.money' } });
      expect(await written(id2)).toBe(0);
      // a path that is no .xlsx (or no file) is the file's 400
      const none = await importStatement({ knex: k, repo, stackId: id2, file: join(dir, 'missing.xlsx') }).catch((e) => e);
      expect(none.messageKey).toBe('errors.import_file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a statement imported as a background job (?background=1)', () => {
  const post = async (stackId: number, body: Buffer) => {
    const res = await fetch(`${api.url}${STACKS}/${stackId}/import?background=1`, {
      method: 'POST',
      body,
      headers: {
        Authorization: `Bearer ${api.adminToken}`,
        Language: 'ru',
        'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
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
    expect(done.body).toMatchObject({
      state: 'done',
      progress: { done: 100, total: 100 },
      result: { imported: 300, attached: 0 },
      error: null,
    });
    expect(await written(id)).toBe(300);
    // the kept statement is gone with the job's end
    expect(readdirSync(jobsDir()).filter((f) => f.startsWith('statement-'))).toEqual([]);
  });

  it('fails the job with the bad rows named, their count, and nothing written', { timeout: 60_000 }, async () => {
    const id = await stack('BG-2');
    const o = { rows: 200, codes };
    const file = await statementFile({
      ...o,
      spoil: (row) => (row === 101 ? statementRow(row - 2, o).map((c, i) => (i === 2 ? 'yuz' : c)) : undefined),
    });
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
      method: 'POST',
      body: await statementFile({ rows: 2, codes }),
      headers: {
        Authorization: `Bearer ${api.adminToken}`,
        'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(((await res.json()) as any).errors)).toContain('background');
  });
});

describe('the set path: COPY into a staging table, checked set-wise (issue 32)', () => {
  const row = (number: string, o: { amount?: unknown; inn?: string; date?: string } = {}) => [
    o.date ?? '2025-03-01',
    number,
    o.amount ?? 1000,
    'Toʻlovchi',
    o.inn ?? '',
    '',
    'Kompensatsiya',
    codes[0],
    '',
  ];
  const k = () => api.db.knex;
  const audits = async () => Number((await k()('audit_log').where({ entity: 'payments' }).count({ n: '*' }))[0].n);
  const adminRepo = async () => {
    const admin = await k()('users').where({ username: 'admin' }).first('id');
    const principal: Principal = {
      id: admin.id,
      username: 'admin',
      actions: new Set(api.model.actions.keys()),
      region_id: null,
      branch_id: null,
      subject_id: null,
    };
    return (name: string) => new Repository({ knex: k(), model: api.model, principal, lang: 'uz' }, api.model.entities.get(name)!);
  };
  // a file with two repeats of row 2 and a bad amount between them
  const repeated = () => sheet([row('D-1'), row('D-2'), row('D-1'), row('D-3', { amount: 'yuz' }), row('D-1')]);

  it('takes the COPY path on PostgreSQL and the batched one on PGlite', async () => {
    const conn = await k().transaction(async (trx) => copyConnection(trx));
    expect(conn !== null).toBe(!!process.env.TEST_DATABASE_URL);
  });

  it('names repeated rows and bad cells by row number in uz, uk and ru, and writes nothing', async () => {
    const messages = {
      uz: {
        message: 'Faylda xatolar bor, hech narsa yuklanmadi',
        dup: '2-qatordagi toʻlovning takrori',
        money: 'Summa 2 ta kasr raqami bilan kiritiladi',
      },
      uk: {
        message: 'Файлда хатолар бор, ҳеч нарса юкланмади',
        dup: '2-қатордаги тўловнинг такрори',
        money: 'Сумма 2 та каср рақами билан киритилади',
      },
      ru: {
        message: 'В файле есть ошибки, ничего не загружено',
        dup: 'Повтор платежа из строки 2',
        money: 'Сумма вводится с 2 знаками после запятой',
      },
    };
    const before = await audits();
    for (const [lang, m] of Object.entries(messages)) {
      const id = await stack(`DUP-${lang}`);
      const r = await upload(id, await repeated(), lang);
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors)).toEqual(['rows.4.number', 'rows.5.amount', 'rows.6.number']);
      expect(r.body).toMatchObject({
        message: m.message,
        errors: { 'rows.4.number': m.dup, 'rows.6.number': m.dup },
        error_count: 3,
        error_rows: 3,
      });
      if (m.money) expect(r.body.errors['rows.5.amount']).toBe(m.money);
      expect(await written(id)).toBe(0);
    }
    expect(await audits()).toBe(before);
  });

  it('finds the same repeats on the batched path (no COPY: PGlite)', async () => {
    const id = await stack('DUP-FALLBACK');
    process.env.ECOFOND_IMPORT_COPY = '0';
    try {
      const r = await upload(id, await repeated(), 'ru');
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual({
        'rows.4.number': 'Повтор платежа из строки 2',
        'rows.5.amount': 'Сумма вводится с 2 знаками после запятой',
        'rows.6.number': 'Повтор платежа из строки 2',
      });
    } finally {
      delete process.env.ECOFOND_IMPORT_COPY;
    }
    expect(await written(id)).toBe(0);
  });

  it('writes nothing when the only error is found set-wise after every row was copied', async () => {
    const id = await stack('ALL-OR-NOTHING');
    const before = await audits();
    const o = { rows: 3000, codes };
    // the last row repeats the first
    const file = await statementFile({ ...o, spoil: (r) => (r === 3001 ? statementRow(0, o) : undefined) });
    const r = await upload(id, file);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ errors: { 'rows.3001.number': '2-qatordagi toʻlovning takrori' }, error_count: 1 });
    expect(await written(id)).toBe(0);
    expect(await audits()).toBe(before);
    expect((await api.get(`${STACKS}/${id}`)).body.rows_count ?? 0).toBe(0);
  });

  it("writes a large file in slices while reading it: every row in the file's order; a bad row in a late slice writes nothing", async () => {
    process.env.ECOFOND_COPY_SLICE = '400';
    try {
      const o = { rows: 3000, codes };
      const before = await audits();
      const bad = await stack('SLICES-BAD');
      // a bad amount in the eighth slice, after seven slices were written
      const spoilt = await statementFile({
        ...o,
        spoil: (r) => (r === 2900 ? statementRow(r - 2, o).map((v, i) => (i === 2 ? 'yuz' : v)) : undefined),
      });
      const refused = await upload(bad, spoilt);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ errors: { 'rows.2900.amount': expect.any(String) }, error_count: 1 });
      expect(await written(bad)).toBe(0);
      expect(await audits()).toBe(before);
      const id = await stack('SLICES');
      const r = await upload(id, await statementFile(o));
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
      expect(r.body.imported).toBe(3000);
      const numbers = await k()('payments').where({ stack_id: id }).orderBy('id').pluck('number');
      expect(numbers).toEqual(Array.from({ length: 3000 }, (_, i) => `P-${i + 1}`));
      expect(await audits()).toBe(before + 3000);
    } finally {
      delete process.env.ECOFOND_COPY_SLICE;
    }
  });

  it('previews what will be attached without committing, then imports the same; an unknown payer stays undefined', async () => {
    const inn = '410000777';
    const subject = await api.post('/api/ecofund/subject', {
      inn,
      name: 'Oldindan MChJ',
      region_id: regionId,
      category_id: (await k()('subject_categories').first('id')).id,
    });
    expect(subject.status, JSON.stringify(subject.body)).toBe(201);
    const id = await stack('PREVIEW-1');
    const file = await sheet([
      row('K-1', { inn, amount: '100.50' }),
      row('K-2', { inn: '700000123', amount: 200 }),
      row('K-3', { inn, amount: 300 }),
    ]);
    const before = await audits();
    const res = await fetch(`${api.url}${STACKS}/${id}/import?preview=1`, {
      method: 'POST',
      body: file,
      headers: {
        Authorization: `Bearer ${api.adminToken}`,
        'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    });
    const preview = (await res.json()) as any;
    expect(res.status, JSON.stringify(preview)).toBe(200);
    expect(preview).toEqual({
      preview: true,
      token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      rows: 3,
      total_amount: '600.50',
      attach_payments: 2,
      attach_subjects: 1,
      unknown_payments: 1,
      can_attach: true,
      payers: [{ subject_id: subject.body.id, inn, name: 'Oldindan MChJ', payments: 2, amount: '400.50' }],
    });
    // nothing committed: no payment, no audit row, the stack as it was, and it can still be imported
    expect(await written(id)).toBe(0);
    expect(await audits()).toBe(before);
    expect((await api.get(`${STACKS}/${id}`)).body.rows_count ?? 0).toBe(0);
    const r = await upload(id, file);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ imported: 3, attached: 2, total_amount: '600.50' });
    const rows = await k()('payments').where({ stack_id: id }).orderBy('number').select('number', 'status', 'subject_id');
    expect(rows).toEqual([
      { number: 'K-1', status: 'defined', subject_id: subject.body.id },
      { number: 'K-2', status: 'undefined', subject_id: null },
      { number: 'K-3', status: 'defined', subject_id: subject.body.id },
    ]);
    // a wrong preview value is a 400 naming it
    const bad = await fetch(`${api.url}${STACKS}/${id}/import?preview=maybe`, {
      method: 'POST',
      body: file,
      headers: { Authorization: `Bearer ${api.adminToken}` },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as any).errors)).toEqual(['preview']);
  });

  describe('a preview confirmed (?expect=<token>)', () => {
    const send = async (stackId: number, body: Buffer, query: string) => {
      const res = await fetch(`${api.url}${STACKS}/${stackId}/import?${query}`, {
        method: 'POST',
        body,
        headers: {
          Authorization: `Bearer ${api.adminToken}`,
          Language: 'ru',
          'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        },
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const subjectOf = async (inn: string, name: string) => {
      const r = await api.post('/api/ecofund/subject', {
        inn,
        name,
        region_id: regionId,
        category_id: (await k()('subject_categories').first('id')).id,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as number;
    };
    const run = () => new JobWorker(api.db.knex, () => api.model, { pollMs: 50, heartbeatMs: 20, leaseMs: 60_000 }).drain();

    it('counts rows, total, known and unknown payers; confirmed, writes all of it', async () => {
      const a = await subjectOf('410000881', 'Birinchi MChJ');
      const b = await subjectOf('410000882', 'Ikkinchi MChJ');
      const id = await stack('CONFIRM-1');
      const file = await sheet([
        row('C-1', { inn: '410000882', amount: '10.10' }),
        row('C-2', { inn: '410000881', amount: 20 }),
        row('C-3', { inn: '700000555', amount: 30 }),
        row('C-4', { inn: '410000882', amount: '0.90' }),
      ]);
      const before = await audits();
      const p = await send(id, file, 'preview=1');
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      expect(p.body).toMatchObject({
        rows: 4,
        total_amount: '61.00',
        attach_payments: 3,
        attach_subjects: 2,
        unknown_payments: 1,
        payers: [
          { subject_id: a, inn: '410000881', name: 'Birinchi MChJ', payments: 1, amount: '20.00' },
          { subject_id: b, inn: '410000882', name: 'Ikkinchi MChJ', payments: 2, amount: '11.00' },
        ],
      });
      // the same file previewed again gives the same token; nothing was kept
      expect((await send(id, file, 'preview=1')).body.token).toBe(p.body.token);
      expect(await written(id)).toBe(0);
      expect(await audits()).toBe(before);
      const r = await send(id, file, `expect=${p.body.token}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ imported: 4, attached: 3, total_amount: '61.00' });
      expect(await written(id)).toBe(4);
      // a create each, and an attach each for the three known payers' payments
      expect(await audits()).toBe(before + 4 + 3);
    });

    it('refuses a stale preview (a payer became known, another file) with 409 and writes nothing', async () => {
      const id = await stack('CONFIRM-2');
      const file = await sheet([row('S-1', { inn: '410000891', amount: 5 }), row('S-2', { inn: '700000556', amount: 6 })]);
      const p = await send(id, file, 'preview=1');
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      expect(p.body).toMatchObject({ rows: 2, attach_payments: 0, unknown_payments: 2, payers: [] });
      // another file under the same token
      const other = await sheet([row('S-1', { inn: '410000891', amount: 5 }), row('S-2', { inn: '700000556', amount: 7 })]);
      const o = await send(id, other, `expect=${p.body.token}`);
      expect(o.status, JSON.stringify(o.body)).toBe(409);
      expect(o.body.message).toBe('Предпросмотр выписки устарел: файл или плательщики изменились, просмотрите её снова');
      expect(await written(id)).toBe(0);
      // the payer became a subject since the preview: the import would attach what was not shown
      await subjectOf('410000891', 'Keyin MChJ');
      const before = await audits();
      const r = await send(id, file, `expect=${p.body.token}`);
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(await written(id)).toBe(0);
      expect(await audits()).toBe(before);
      expect((await api.get(`${STACKS}/${id}`)).body.rows_count ?? 0).toBe(0);
      // previewed again, confirmed: written
      const again = await send(id, file, 'preview=1');
      expect(again.body).toMatchObject({ attach_payments: 1, attach_subjects: 1 });
      expect((await send(id, file, `expect=${again.body.token}`)).status).toBe(200);
      expect(await written(id)).toBe(2);
      // a malformed token, or one beside a preview, is a 400 naming it
      for (const q of ['expect=abc', `preview=1&expect=${again.body.token}`]) {
        const bad = await send(id, file, q);
        expect(bad.status, q).toBe(400);
        expect(Object.keys(bad.body.errors)).toEqual(['expect']);
      }
    });

    it('previews as a background job (cancel: nothing kept) and confirms as one', { timeout: 60_000 }, async () => {
      await subjectOf('410000893', 'Fon MChJ');
      const id = await stack('CONFIRM-3');
      const file = await sheet([row('B-1', { inn: '410000893', amount: 1 }), row('B-2', { inn: '700000557', amount: 2 })]);
      const before = await audits();
      const q = await send(id, file, 'background=1&preview=1');
      expect(q.status, JSON.stringify(q.body)).toBe(202);
      expect(q.body).toMatchObject({ kind: 'statement-import', title: 'Предпросмотр банковской выписки № CONFIRM-3' });
      expect(await run()).toBe(1);
      const job = (await api.get(`/api/jobs/${q.body.id}`)).body;
      expect(job).toMatchObject({
        state: 'done',
        result: { preview: true, rows: 2, total_amount: '3.00', attach_payments: 1, attach_subjects: 1, unknown_payments: 1 },
      });
      // the user cancels: nothing was written, no file kept
      expect(await written(id)).toBe(0);
      expect(await audits()).toBe(before);
      expect(readdirSync(jobsDir()).filter((f) => f.startsWith('statement-'))).toEqual([]);
      // or confirms: the import job of that token writes it all
      const c = await send(id, file, `background=1&expect=${job.result.token}`);
      expect(c.status, JSON.stringify(c.body)).toBe(202);
      expect(await run()).toBe(1);
      expect((await api.get(`/api/jobs/${c.body.id}`)).body).toMatchObject({ state: 'done', result: { imported: 2, attached: 1 } });
      expect(await written(id)).toBe(2);
    });
  });

  it('writes one audit row a payment, equal to what a single create of it writes', async () => {
    const id = await stack('AUDIT-1');
    const r = await upload(id, await sheet([row('A-1', { inn: '700000124', amount: '12.30' })]));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const imported = await k()('payments').where({ stack_id: id }).first('id');
    const repo = await adminRepo();
    const single = await repo('payments').create({
      stack_id: id,
      paid_on: '2025-03-01',
      number: 'A-1',
      amount: '12.30',
      payer: 'Toʻlovchi',
      payer_inn: '700000124',
      purpose: 'Kompensatsiya',
      income_type_id: (await k()('income_types').where({ code: codes[0] }).first('id')).id,
      payment_type: 'card',
    });
    const trail = async (rid: number) =>
      k()('audit_log').where({ entity: 'payments', record_id: rid, op: 'create' }).select('after', 'before', 'action', 'user_id');
    const [a] = await trail(imported.id);
    const [b] = await trail(single.id as number);
    expect(a.action).toBe('import');
    expect({ ...a, action: null }).toEqual({ ...b, action: null });
    expect(a.after).toMatchObject({
      number: 'A-1',
      amount: '12.30',
      paid_on: '2025-03-01',
      stack_id: id,
      status: 'undefined',
      income_code: codes[0],
    });
    expect(await trail(imported.id)).toHaveLength(1);
  });
});
