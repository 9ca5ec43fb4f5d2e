import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import ExcelJS from 'exceljs';
import { existsSync, readdirSync } from 'node:fs';
import { startTestApi, type TestApi } from './support/api.ts';
import { loadMetadata } from '../api/meta/load.ts';
import { translate } from '../api/meta/captions.ts';
import { LANGS } from '../api/meta/types.ts';
import { JobWorker, jobsDir } from '../api/jobs/worker.ts';
import { Repository } from '../api/engine/repository.ts';
import { importRows } from '../api/engine/import.ts';
import { routeCatalogue } from '../api/http/catalogue.ts';
import type { Principal } from '../api/auth/ability.ts';

// the limits, low enough to reach: read when the engine's import module loads
vi.hoisted(() => {
  process.env.ECOFOND_IMPORT_MAX_MB = '1';
  process.env.ECOFOND_IMPORT_MAX_ROWS = '300';
});

/**
 * The generic import of an entity from .xlsx (docs/reference-books.md, "Importing a book"): an
 * exported book imports back; a bad row in the middle refuses the file, names its row and writes
 * nothing; the caller's right and scope; a cancel writes nothing; the limits; the errors in three languages.
 */
let api: TestApi;
const model = loadMetadata();
// a region-scoped entity made importable for the scope's case (the books have no scope)
model.entities.get('subject')!.import = true;
const AREAS = '/api/ecofund-sprav/areas';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
let regionA: { id: number; name: Record<string, string> };
let regionB: { id: number; name: Record<string, string> };

beforeAll(async () => {
  api = await startTestApi(model);
  [regionA, regionB] = await api.db.knex('regions').orderBy('id').limit(2).select('id', 'name');
}, 120_000);
afterAll(async () => {
  await api?.close();
});

const run = () => new JobWorker(api.db.knex, () => api.model, { pollMs: 50, heartbeatMs: 20, leaseMs: 60_000 }).drain();

async function upload(path: string, body: Buffer, o: { token?: string; lang?: string } = {}) {
  const res = await fetch(`${api.url}${path}/import`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { Authorization: `Bearer ${o.token ?? api.adminToken}`, Language: o.lang ?? 'uz', 'Content-Type': XLSX },
  });
  return { status: res.status, location: res.headers.get('location'), body: (await res.json()) as any };
}

async function sheet(header: string[], rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Import');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const areasCount = async () => Number((await api.db.knex('areas').count({ n: '*' }))[0].n);

describe('an entity that may be imported', () => {
  it('is declared in the catalogue for importable entities only, as a create', () => {
    const routes = routeCatalogue(api.model).filter((r) => r.path.endsWith('/import') && r.source === 'entity');
    expect(routes.find((r) => r.path === '/ecofund-sprav/areas/import')).toMatchObject({
      method: 'post',
      op: 'create',
      actions: [3012],
      body: 'file',
    });
    expect(routes.every((r) => api.model.entities.get(r.entity!)!.import)).toBe(true);
    expect(routes.find((r) => r.entity === 'payments')).toBeUndefined();
  });

  it('imports its own export back: references by their title, one audit row a row, as the caller', { timeout: 60_000 }, async () => {
    const made = [];
    for (const [soato, name] of [
      ['17001', 'Birinchi tuman'],
      ['17002', 'Ikkinchi tuman'],
    ]) {
      const r = await api.post(AREAS, {
        region_id: regionB.id,
        soato,
        name: { uz: name, ru: `${name} (ru)` },
        is_active: soato === '17001',
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      made.push(r.body);
    }
    const exported = await api.get(
      `${AREAS}/export?background=0&filter=${encodeURIComponent(JSON.stringify({ id: made.map((m) => m.id) }))}`,
      { lang: 'ru' },
    );
    expect(exported.status).toBe(200);
    const file = Buffer.from(exported.raw);
    // the export writes the region's title, not its id
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as never);
    expect(wb.worksheets[0].getRow(2).values).toContain(regionB.name.ru);
    await api.db
      .knex('areas')
      .whereIn(
        'id',
        made.map((m) => m.id),
      )
      .delete();

    // the jobs' directory is made by the first kept file (a fresh checkout has none)
    const kept = () => (existsSync(jobsDir()) ? readdirSync(jobsDir()) : []).filter((f) => f.startsWith('import-'));
    const before = new Set(kept());
    const r = await upload(AREAS, file, { lang: 'ru' });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(kept().filter((f) => !before.has(f))).toHaveLength(1);
    expect(r.location).toBe(`/api/jobs/${r.body.id}`);
    expect(r.body).toMatchObject({
      kind: 'entity-import',
      state: 'queued',
      title: `Импорт: ${translate(api.model, 'ru', 'entity.areas')}`,
    });
    expect(await run()).toBe(1);
    const done = await api.get(`/api/jobs/${r.body.id}`);
    expect(done.body).toMatchObject({ state: 'done', progress: { done: 100, total: 100 }, result: { imported: 2 }, error: null });
    const back = await api.db.knex('areas').whereIn('soato', ['17001', '17002']).orderBy('soato');
    expect(back.map((a: any) => [a.region_id, a.soato, a.name.ru, a.is_active])).toEqual([
      [regionB.id, '17001', 'Birinchi tuman (ru)', true],
      [regionB.id, '17002', 'Ikkinchi tuman (ru)', false],
    ]);
    const audit = await api.db
      .knex('audit_log')
      .where({ entity: 'areas' })
      .whereIn(
        'record_id',
        back.map((a: any) => a.id),
      )
      .select('op', 'action', 'user_id');
    const admin = (await api.db.knex('users').where({ username: 'admin' }).first('id')).id;
    expect(audit).toEqual([
      { op: 'create', action: 'import', user_id: admin },
      { op: 'create', action: 'import', user_id: admin },
    ]);
    // the kept file is gone with the job's end
    expect(kept().filter((f) => !before.has(f))).toEqual([]);
  });

  it('refuses a file with a bad row in the middle: the row named, the count, nothing written', { timeout: 60_000 }, async () => {
    const before = await areasCount();
    const rows = Array.from({ length: 40 }, (_, i) => [regionA.name.uz, String(18000 + i), `Tuman ${i}`, '✓']);
    rows[19][0] = 'Yoʻq viloyat';
    rows[24][1] = 'abc';
    const r = await upload(AREAS, await sheet(['region_id', 'soato', 'name', 'is_active'], rows), { lang: 'uz' });
    expect(r.status).toBe(202);
    await run();
    for (const lang of LANGS) {
      const failed = await api.get(`/api/jobs/${r.body.id}`, { lang });
      expect(failed.body.state).toBe('failed');
      // rows 21 and 26 of the sheet (the header is row 1), in the reader's language
      expect(failed.body.error).toEqual({
        code: -105,
        message: translate(api.model, lang, 'errors.import_rows'),
        errors: {
          'rows.21.region_id': translate(api.model, lang, 'validation.ref_not_found'),
          'rows.26.soato': translate(api.model, lang, 'validation.soato'),
        },
        count: 2,
        error_count: 2,
        error_rows: 2,
      });
    }
    expect(new Set(LANGS.map((l) => translate(api.model, l, 'validation.ref_not_found'))).size).toBe(3);
    expect(await areasCount()).toBe(before);
  });

  it('keeps the first hundred errors and counts them all', { timeout: 60_000 }, async () => {
    const rows = Array.from({ length: 150 }, (_, i) => [regionA.id, `x${i}`, `T ${i}`]);
    const r = await upload(AREAS, await sheet(['region_id', 'soato', 'name'], rows));
    await run();
    const failed = await api.get(`/api/jobs/${r.body.id}`);
    expect(Object.keys(failed.body.error.errors)).toHaveLength(100);
    expect(failed.body.error.errors['rows.2.soato']).toBeDefined();
    expect(failed.body.error).toMatchObject({ count: 150, error_count: 150, error_rows: 150 });
  });

  it('refuses before queueing: no right to create (403), an unknown column, a file not .xlsx or too large (400, in three languages)', async () => {
    const reader = await api.userWithActions('areas_reader', [3011]);
    const file = await sheet(['region_id', 'soato', 'name'], [[regionA.id, '19001', 'T']]);
    expect((await upload(AREAS, file, { token: reader })).status).toBe(403);
    const jobs = Number((await api.db.knex('jobs').count({ n: '*' }))[0].n);
    for (const lang of LANGS) {
      const bad = await upload(AREAS, await sheet(['region_id', 'Rang'], [[regionA.id, 'qizil']]), { lang });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe(translate(api.model, lang, 'errors.import_column', { column: 'Rang' }));
      expect(bad.body.errors).toEqual({ 'columns.2': bad.body.message });
      const png = await upload(AREAS, Buffer.from('not a workbook at all'), { lang });
      expect([png.status, png.body.message]).toEqual([400, translate(api.model, lang, 'errors.import_file')]);
      const big = await upload(AREAS, Buffer.alloc(1024 * 1024 + 10, 1), { lang });
      expect([big.status, big.body.message]).toEqual([400, translate(api.model, lang, 'errors.file_too_large', { mb: 1 })]);
    }
    expect(Number((await api.db.knex('jobs').count({ n: '*' }))[0].n)).toBe(jobs);
  });

  it('fails a file of more rows than the limit, nothing written', { timeout: 60_000 }, async () => {
    const before = await areasCount();
    const r = await upload(
      AREAS,
      await sheet(
        ['region_id', 'soato', 'name'],
        Array.from({ length: 301 }, (_, i) => [regionA.id, String(20000 + i), `T ${i}`]),
      ),
      { lang: 'ru' },
    );
    expect(r.status).toBe(202);
    await run();
    const failed = await api.get(`/api/jobs/${r.body.id}`, { lang: 'ru' });
    expect(failed.body).toMatchObject({
      state: 'failed',
      error: { message: translate(api.model, 'ru', 'errors.import_too_many', { max: 300 }) },
    });
    expect(await areasCount()).toBe(before);
  });

  it("imports as the caller's scope: their region filled in, another region refused (403), nothing written", {
    timeout: 60_000,
  }, async () => {
    const token = await api.userWithActions('subject_importer', [253, 6101], { region_id: regionA.id });
    const category = (await api.db.knex('subject_categories').first('id')).id;
    const subjects = '/api/ecofund/subject';
    const own = await upload(
      subjects,
      await sheet(
        ['inn', 'name', 'category_id'],
        [
          ['510000001', 'Birinchi', category],
          ['510000002', 'Ikkinchi', category],
        ],
      ),
      { token },
    );
    expect(own.status, JSON.stringify(own.body)).toBe(202);
    await run();
    expect((await api.get(`/api/jobs/${own.body.id}`, { token })).body).toMatchObject({ state: 'done', result: { imported: 2 } });
    expect(await api.db.knex('subjects').whereIn('inn', ['510000001', '510000002']).pluck('region_id')).toEqual([regionA.id, regionA.id]);
    const foreign = await upload(
      subjects,
      await sheet(
        ['inn', 'name', 'region_id', 'category_id'],
        [
          ['510000003', 'Uchinchi', regionA.id, category],
          ['510000004', 'Toʻrtinchi', regionB.id, category],
        ],
      ),
      { token },
    );
    await run();
    expect((await api.get(`/api/jobs/${foreign.body.id}`, { token })).body).toMatchObject({ state: 'failed', error: { code: -103 } });
    expect(Number((await api.db.knex('subjects').whereIn('inn', ['510000003', '510000004']).count({ n: '*' }))[0].n)).toBe(0);
    // another user never sees the job
    expect((await api.get(`/api/jobs/${own.body.id}`)).status).toBe(404);
  });

  it('writes nothing when cancelled: a queued job never runs, a running one stops at its next batch', { timeout: 60_000 }, async () => {
    const before = await areasCount();
    const rows = Array.from({ length: 250 }, (_, i) => [regionA.id, String(21000 + i), `T ${i}`]);
    const file = await sheet(['region_id', 'soato', 'name'], rows);
    // the jobs' directory is made by the first kept file (a fresh checkout has none)
    const kept = () => (existsSync(jobsDir()) ? readdirSync(jobsDir()) : []).filter((f) => f.startsWith('import-'));
    const others = kept();
    const queued = await upload(AREAS, file);
    expect(kept().length).toBe(others.length + 1);
    expect((await api.post(`/api/jobs/${queued.body.id}/cancel`, {})).body.state).toBe('cancelled');
    // its kept upload goes with the cancel, not a day later
    expect(kept()).toEqual(others);
    expect(await run()).toBe(0);
    // a running import aborted while it writes: the transaction rolled back
    const admin = await api.db.knex('users').where({ username: 'admin' }).first('id');
    const principal: Principal = {
      id: admin.id,
      username: 'admin',
      region_id: null,
      branch_id: null,
      subject_id: null,
      actions: new Set([3011, 3012]),
    };
    const repo = new Repository({ knex: api.db.knex, model: api.model, principal, lang: 'uz' }, api.model.entities.get('areas')!);
    const stop = new AbortController();
    const seen: number[] = [];
    // aborted once the file is read and its references found, as the write begins (a file of more than a batch stops between batches: createMany's own test)
    await expect(
      importRows(repo, file, {
        signal: stop.signal,
        onProgress: (d) => {
          seen.push(d);
          if (d >= 40) stop.abort(new Error('cancelled'));
        },
      }),
    ).rejects.toThrow('cancelled');
    expect(seen.at(-1)).toBe(40);
    expect(await areasCount()).toBe(before);
  });
});
