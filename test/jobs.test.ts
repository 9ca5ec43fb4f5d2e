import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { fixtureModel } from './support/fixture-model.ts';
import { createEntityTables } from '../api/db/entity-tables.ts';
import { seed } from '../seeds/index.ts';
import { createApp } from '../api/app.ts';
import { clearConfigCache } from '../api/auth/config.ts';
import { JobWorker } from '../api/jobs/worker.ts';
import { enqueueJob, JOB_CANCELLED, type JobRun } from '../api/jobs/queue.ts';
import { buildRegistry } from '../api/registry.ts';
import { MODULES } from '../api/modules/index.ts';
import { writeExport } from '../api/engine/export.ts';
import { principalForUser } from '../api/auth/sessions.ts';

/**
 * Background jobs (docs/jobs.md): an export over `exports.background_rows` is a job (202), run by
 * the worker as its owner stands — their scope — with its progress, its file read back with
 * exceljs; cancelling; a job queued before a "restart" (a new app and worker on the same database)
 * and one whose worker died are run; expired files and rows go; nobody else sees or downloads it.
 */
process.env.ECOFOND_DATA_DIR = mkdtempSync(join(tmpdir(), 'ecofond-jobs-'));
const A_ROWS = 1800;
const B_ROWS = 700;
const fixture = {
  name: 'job-rows',
  module: 'fixtures',
  kind: 'document',
  caption: 'entity.job-rows',
  access: { read: 9131, create: 9132, update: 9133, delete: 9134, export: 9135 },
  scope: { region: 'region_id' },
  fields: {
    payer: { type: 'string', required: true, maxLength: 100 },
    amount: { type: 'money', required: true },
    region_id: { type: 'ref', ref: 'regions', required: true },
  },
  list: { columns: ['id', 'payer', 'amount', 'region_id'], sort: ['id', 'asc'], perPage: 25, filters: { region_id: 'eq' } },
  titleField: 'payer',
};
const names = { 'entity.job-rows': 'Qatorlar', 'fields.payer': 'Toʻlovchi', 'fields.amount': 'Summa' };
const path = '/api/fixtures/job-rows';
let api: TestApi;
let regionA: number;
let regionB: number;
const model = () => api.model;
const fast = { pollMs: 50, heartbeatMs: 20, leaseMs: 60_000 };

async function sheetOf(raw: ArrayBuffer | Buffer): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw as ArrayBuffer);
  return wb.worksheets[0];
}

async function setThreshold(n: number): Promise<void> {
  const k = api.db.knex;
  await k('app_configs')
    .insert({ key: 'exports.background_rows', value: String(n) })
    .onConflict('key')
    .merge(['value']);
  clearConfigCache(k);
}

// a kind that moves step by step when the test lets it: progress and cancelling without timing
const gates: (() => void)[] = [];
const step = () => new Promise<void>((r) => gates.push(r));
const testSteps: JobRun = async ({ progress, signal, params }) => {
  const n = Number(params.steps ?? 3);
  for (let i = 1; i <= n; i++) {
    await step();
    if (signal.aborted) throw signal.reason;
    progress(i, n);
  }
  return { steps: n };
};
// the kind comes in as a module's job, the way start-up registers every kind (api/registry.ts)
const registry = buildRegistry([...MODULES, { name: 'test-jobs', jobs: { 'test-steps': testSteps } }]);
const release = async () => {
  while (!gates.length) await new Promise((r) => setTimeout(r, 5));
  gates.shift()!();
};
const job = (id: number) => api.db.knex('jobs').where({ id }).first();
async function until<T>(f: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  const m = fixtureModel([fixture], { uz: names, uk: names, ru: names });
  api = await startTestApi(m, registry);
  const k = api.db.knex;
  await createEntityTables(k, ['job-rows'], m);
  await seed(k, m, {});
  [regionA, regionB] = (await k('regions').orderBy('id').limit(2).pluck('id')).map(Number);
  await k.raw(`insert into job_rows (payer, amount, region_id)
    select 'Toʻlovchi ' || g, g * 100 + 0.5, case when g <= ${A_ROWS} then ${regionA} else ${regionB} end
      from generate_series(1, ${A_ROWS + B_ROWS}) g`);
  await setThreshold(500);
}, 300_000);
afterAll(async () => {
  await api?.close();
});

describe('background exports', () => {
  it('an export over the threshold is a job: run as its owner, progress moving, the file whole and in their scope', {
    timeout: 60_000,
  }, async () => {
    // under the threshold it still streams
    const small = await api.get(`${path}/export?region_id=${regionB}&background=0`);
    expect(small.status).toBe(200);
    const token = await api.userWithActions('region_exporter', [9131, 9135], { region_id: regionA });
    const r = await api.get(`${path}/export`, { token });
    expect(r.status).toBe(202);
    expect(r.headers.get('location')).toBe(`/api/jobs/${r.body.id}`);
    expect(r.body).toMatchObject({ kind: 'export', state: 'queued', title: 'Qatorlar', file: null, progress: { done: 0 } });
    expect(r.body.progress.total).toBeGreaterThan(500);
    // the progress the worker writes, as the owner reads it while it runs
    const seen = new Set<number>();
    const worker = new JobWorker(api.db.knex, model, fast);
    const running = worker.drain();
    await until(
      async () => {
        const j = await api.get(`/api/jobs/${r.body.id}`, { token });
        seen.add(j.body.progress.done);
        return j.body.state;
      },
      (s) => s === 'done',
    );
    expect(await running).toBe(1);
    const done = await api.get(`/api/jobs/${r.body.id}`, { token });
    expect(done.body).toMatchObject({ state: 'done', progress: { done: A_ROWS, total: A_ROWS }, result: { rows: A_ROWS }, error: null });
    expect(done.body.file.name).toMatch(/^job-rows-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect([...seen].some((d) => d === A_ROWS)).toBe(true);
    const file = await api.get(`/api/jobs/${r.body.id}/file`, { token });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('attachment');
    const sheet = await sheetOf(file.raw);
    expect(sheet.rowCount).toBe(A_ROWS + 1);
    // only the region's rows: ids 1 … A_ROWS
    const ids: number[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) ids.push(Number(row.getCell(1).value));
    });
    expect(Math.max(...ids)).toBe(A_ROWS);
    expect(new Set(ids).size).toBe(A_ROWS);

    // nobody else sees it, cancels it or downloads it
    const other = await api.userWithActions('other_exporter', [9131, 9135], { region_id: regionA });
    expect((await api.get(`/api/jobs/${r.body.id}`, { token: other })).status).toBe(404);
    expect((await api.get(`/api/jobs/${r.body.id}/file`, { token: other })).status).toBe(404);
    expect((await api.post(`/api/jobs/${r.body.id}/cancel`, undefined, { token: other })).status).toBe(404);
    expect((await api.get(`/api/jobs/${r.body.id}/file`)).status).toBe(404);
    expect((await api.get('/api/jobs', { token: other })).body).toMatchObject({ data: [], total: 0 });
    const list = await api.get('/api/jobs', { token });
    expect(list.body.total).toBe(1);
    expect(list.body.data[0]).toMatchObject({ id: r.body.id, state: 'done' });
    // a finished job cannot be cancelled
    expect((await api.post(`/api/jobs/${r.body.id}/cancel`, undefined, { token })).status).toBe(409);
  });

  it('refuses what the stream would refuse before queueing anything', async () => {
    const token = await api.userWithActions('no_export', [9131], { region_id: regionA });
    expect((await api.get(`${path}/export`, { token })).status).toBe(403);
    expect((await api.get(`${path}/export?background=maybe`)).status).toBe(400);
    expect((await api.get(`${path}/export?nofilter=1`)).status).toBe(400);
    expect(
      await api.db
        .knex('jobs')
        .where({ user_id: (await api.db.knex('users').where({ username: 'no_export' }).first('id')).id })
        .first(),
    ).toBeUndefined();
  });

  it('a report export is a job when asked (or over the threshold), its file a workbook', { timeout: 60_000 }, async () => {
    const report = [...api.model.reports.values()].find(
      (x) => x.access !== undefined && Object.values(x.params).every((p) => !p.required || p.default !== undefined),
    )!;
    const r = await api.get(`/api/reports/${report.name}/export?background=1`);
    expect(r.status).toBe(202);
    expect(r.body.kind).toBe('report-export');
    await new JobWorker(api.db.knex, model, fast).drain();
    const done = await api.get(`/api/jobs/${r.body.id}`);
    expect(done.body.state).toBe('done');
    const file = await api.get(`/api/jobs/${r.body.id}/file`);
    expect(file.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.raw);
    expect(wb.worksheets.length).toBeGreaterThan(0);
  });

  it('the walk stops at its next batch when the signal is aborted', async () => {
    const principal = await principalForUser(api.db.knex, Number((await api.db.knex('users').where({ username: 'admin' }).first('id')).id));
    const ac = new AbortController();
    const batches: number[] = [];
    const out = new PassThrough();
    out.resume();
    out.on('error', () => undefined);
    await expect(
      writeExport({ knex: api.db.knex, model: api.model, principal, lang: 'uz' }, 'job-rows', 'xlsx', {}, out, {
        signal: ac.signal,
        onBatch: (n) => {
          batches.push(n);
          ac.abort(JOB_CANCELLED);
        },
      }),
    ).rejects.toBe(JOB_CANCELLED);
    expect(batches).toEqual([2000]);
  });
});

describe('the job machinery', () => {
  it('progress moves and a cancel stops a running job at its next step', { timeout: 30_000 }, async () => {
    const admin = (await api.db.knex('users').where({ username: 'admin' }).first('id')).id;
    const j = await enqueueJob(api.db.knex, { kind: 'test-steps', userId: admin, lang: 'uz', params: { steps: 4 } });
    const worker = new JobWorker(api.db.knex, model, fast);
    const running = worker.drain();
    await release();
    await release();
    const moved = await until(
      () => api.get(`/api/jobs/${j.id}`),
      (x) => x.body.progress.done === 2,
    );
    expect(moved.body).toMatchObject({ state: 'running', progress: { done: 2, total: 4 } });
    const c = await api.post(`/api/jobs/${j.id}/cancel`, undefined);
    expect(c.status).toBe(200);
    expect(c.body.cancel_requested).toBe(true);
    await release();
    await running;
    const after = await api.get(`/api/jobs/${j.id}`);
    expect(after.body).toMatchObject({ state: 'cancelled', file: null, progress: { done: 2 } });
    expect((await api.get(`/api/jobs/${j.id}/file`)).status).toBe(404);
    // cancelling again changes nothing
    expect((await api.post(`/api/jobs/${j.id}/cancel`, undefined)).body.state).toBe('cancelled');
  });

  it('a queued job cancelled is never run', async () => {
    const r = await api.get(`${path}/export?background=1`);
    expect((await api.post(`/api/jobs/${r.body.id}/cancel`, undefined)).body.state).toBe('cancelled');
    expect(await new JobWorker(api.db.knex, model, fast).drain()).toBe(0);
    expect((await job(r.body.id)).started_at).toBeNull();
  });

  it('a job queued before a restart, and one whose worker died, run in the new instance', { timeout: 60_000 }, async () => {
    const queued = await api.get(`${path}/export?region_id=${regionB}&background=1`);
    expect(queued.status).toBe(202);
    const admin = (await api.db.knex('users').where({ username: 'admin' }).first('id')).id;
    // a worker that died holding a job: running, its lease over
    const dead = await enqueueJob(api.db.knex, {
      kind: 'export',
      userId: admin,
      lang: 'ru',
      params: { entity: 'job-rows', format: 'xlsx', query: { region_id: String(regionA) } },
    });
    await api.db
      .knex('jobs')
      .where({ id: dead.id })
      .update({ state: 'running', attempts: 1, run_token: 'dead-worker', lease_until: api.db.knex.raw("now() - interval '1 second'") });
    // the "restarted" server: a new app and a worker started as the server starts it
    const app = createApp({ knex: api.db.knex, model: api.model });
    const server = await new Promise<Server>((res) => {
      const s = app.listen(0, '127.0.0.1', () => res(s));
    });
    const worker = new JobWorker(api.db.knex, model, fast).start();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const read = (id: number) =>
        fetch(`${url}/api/jobs/${id}`, { headers: { Authorization: `Bearer ${api.adminToken}` } }).then(
          (x) => x.json() as Promise<{ state: string }>,
        );
      const a = await until(
        () => read(queued.body.id),
        (x) => x.state === 'done' || x.state === 'failed',
      );
      expect(a).toMatchObject({ state: 'done', progress: { done: B_ROWS } });
      const b = await until(
        () => read(dead.id),
        (x) => x.state === 'done' || x.state === 'failed',
      );
      expect(b).toMatchObject({ state: 'done', progress: { done: A_ROWS } });
      expect((await job(dead.id)).attempts).toBe(2);
      const file = await fetch(`${url}/api/jobs/${dead.id}/file`, { headers: { Authorization: `Bearer ${api.adminToken}` } });
      const sheet = await sheetOf(await file.arrayBuffer());
      expect(sheet.rowCount).toBe(A_ROWS + 1);
      // the captions in the language it was asked in
      expect(sheet.getRow(1).getCell(2).value).toBe('Toʻlovchi');
    } finally {
      await worker.stop();
      await new Promise<void>((res) => server.close(() => res()));
    }
  });

  it("a blocked user's job fails with the reason kept (user blocked)", async () => {
    const token = await api.userWithActions('soon_blocked', [9131, 9135], { region_id: regionA });
    const r = await api.get(`${path}/export?background=1`, { token });
    expect(r.status).toBe(202);
    await api.db.knex('users').where({ username: 'soon_blocked' }).update({ status: 'blocked' });
    await new JobWorker(api.db.knex, model, fast).drain();
    const j = await job(r.body.id);
    expect(j.state).toBe('failed');
    const seen = await api.get('/api/jobs/' + r.body.id, { token: api.adminToken });
    expect(seen.status).toBe(404);
    expect(j.error).toMatchObject({ key: 'errors.userBlocked' });
  });

  it('expired results are removed, files and rows; until then the download says it expired', { timeout: 60_000 }, async () => {
    const r = await api.get(`${path}/export?region_id=${regionB}&background=1`);
    const worker = new JobWorker(api.db.knex, model, fast);
    await worker.drain();
    const row = await job(r.body.id);
    expect(row.state).toBe('done');
    const file = join(process.env.ECOFOND_DATA_DIR!, row.result_path);
    expect(existsSync(file)).toBe(true);
    // a day later (keep_hours)
    expect(new Date(row.expires_at).getTime() - new Date(row.finished_at).getTime()).toBe(24 * 3600_000);
    await api.db
      .knex('jobs')
      .where({ id: r.body.id })
      .update({ expires_at: api.db.knex.raw("now() - interval '1 second'") });
    const gone = await api.get(`/api/jobs/${r.body.id}/file`, { lang: 'ru' });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Файл больше не хранится: выполните выгрузку заново');
    expect(await worker.cleanup()).toBeGreaterThanOrEqual(1);
    expect(await job(r.body.id)).toBeUndefined();
    expect(existsSync(file)).toBe(false);
    expect((await api.get(`/api/jobs/${r.body.id}`)).status).toBe(404);
  });

  it('a user has at most jobs.per_user exports queued or running: 40 at once queue exactly that many, the rest 429', {
    timeout: 60_000,
  }, async () => {
    const report = [...api.model.reports.values()].find(
      (x) => typeof x.access === 'number' && Object.values(x.params).every((p) => !p.required || p.default !== undefined),
    )!;
    const token = await api.userWithActions('many_exports', [9131, 9135, report.access as number], { region_id: regionA });
    const user = (await api.db.knex('users').where({ username: 'many_exports' }).first('id')).id;
    const active = async () =>
      Number((await api.db.knex('jobs').where({ user_id: user }).whereIn('state', ['queued', 'running']).count({ n: '*' }))[0].n);
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => api.get(`${path}/export?background=1`, { token, lang: ['uz', 'uk', 'ru'][i % 3] })),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((x) => x === 202)).toHaveLength(3);
    expect(statuses.filter((x) => x === 429)).toHaveLength(37);
    expect(await active()).toBe(3);
    const refused = burst.filter((r) => r.status === 429);
    expect(new Set(refused.map((r) => r.body.message))).toEqual(
      new Set([
        'Fon vazifalaringiz juda koʻp: bir vaqtda koʻpi bilan 3 ta. Ulardan biri tugashini kuting yoki bekor qiling',
        'Фон вазифаларингиз жуда кўп: бир вақтда кўпи билан 3 та. Улардан бири тугашини кутинг ёки бекор қилинг',
        'Слишком много фоновых задач: одновременно не более 3. Дождитесь окончания одной из них или отмените её',
      ]),
    );
    expect(refused[0].body.code).toBe(-112);
    // a report's export counts against the same bound; another user is not held by this one's
    expect((await api.get(`/api/reports/${report.name}/export?background=1`, { token })).status).toBe(429);
    const others = await api.get(`${path}/export?background=1`);
    expect(others.status).toBe(202);
    await api.db.knex('jobs').where({ id: others.body.id }).update({ state: 'cancelled', finished_at: api.db.knex.fn.now() });
    // one cancelled makes room for one more
    const [first] = burst.filter((r) => r.status === 202);
    expect((await api.post(`/api/jobs/${first.body.id}/cancel`, {}, { token })).body.state).toBe('cancelled');
    expect((await api.get(`${path}/export?background=1`, { token })).status).toBe(202);
    expect((await api.get(`${path}/export?background=1`, { token })).status).toBe(429);
    // the setting raises it, for the next request
    await api.db.knex('app_configs').insert({ key: 'jobs.per_user', value: '5' }).onConflict('key').merge(['value']);
    clearConfigCache(api.db.knex);
    const more = await Promise.all(Array.from({ length: 10 }, () => api.get(`${path}/export?background=1`, { token })));
    expect(more.filter((r) => r.status === 202)).toHaveLength(2);
    expect(await active()).toBe(5);
    await api.db.knex('app_configs').where({ key: 'jobs.per_user' }).update({ value: '3' });
    clearConfigCache(api.db.knex);
    // the queue alone, 40 at once with nothing before them to stagger them: still the bound
    const raced = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        enqueueJob(api.db.knex, { kind: 'test-steps', userId: user, lang: 'uz', params: {} }, { perUser: 8 }),
      ),
    );
    expect(raced.filter((x) => x.status === 'fulfilled')).toHaveLength(3);
    expect(new Set(raced.filter((x) => x.status === 'rejected').map((x) => (x as PromiseRejectedResult).reason.messageKey))).toEqual(
      new Set(['errors.jobs_too_many']),
    );
    expect(await active()).toBe(8);
    // nothing of theirs is left for the next tests' workers
    await api.db.knex('jobs').where({ user_id: user, state: 'queued' }).update({ state: 'cancelled', finished_at: api.db.knex.fn.now() });
  });
});
