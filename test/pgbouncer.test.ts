import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { TestApi } from './support/api.ts';
import { testDatabase } from './support/db.ts';
import { TEST_ADMIN_PASSWORD } from './support/template.ts';
import { bouncerUnavailable, startBouncer, type Bouncer } from './support/pgbouncer.ts';
import { startProductionServer, type ProductionServer } from './support/server.ts';
import type { Database } from '../api/db/connection.ts';
import { skipBecause } from './support/skip.ts';

/**
 * A pool in front (docs/scaling.md): the server started as in production with DATABASE_URL naming
 * a PgBouncer in **transaction mode** that gives the process's ten pooled connections two server
 * connections between them, and DATABASE_LISTEN_URL the database directly (a LISTEN cannot live in
 * a transaction pool). Everything the server does with a connection must then hold when each
 * transaction may get another server connection: signed-in reads many at once, writes through the
 * one write path (audit, optimistic version), a workflow move, an export streamed through a
 * server-side cursor and one run as a background job, a sign-out.
 * test/pool-state.test.ts holds the code to it by reading it; this shows it running.
 */
const url = process.env.TEST_DATABASE_URL;
const skip = await bouncerUnavailable(url);

const POOL = 2;
const RANKS = 4500;
const RANK = '/api/ecofund-sprav/rank';

type Pool = {
  database: string;
  user: string;
  cl_active: string;
  cl_waiting: string;
  sv_active: string;
  sv_idle: string;
  sv_used: string;
  sv_tested: string;
  sv_login: string;
  pool_mode: string;
};
type Stats = { database: string; total_xact_count: string; total_query_count: string };

let db: Database;
let bouncer: Bouncer;
let server: ProductionServer;
let api: TestApi;
let dbName: string;

async function sheetRows(raw: ArrayBuffer): Promise<number> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw);
  return wb.worksheets[0].rowCount;
}

describe('the server behind a PgBouncer in transaction mode', skipBecause(skip), () => {
  beforeAll(async () => {
    db = await testDatabase();
    dbName = new URL(db.url!).pathname.slice(1);
    // enough rows for an export to take several of the cursor's batches of 2 000
    await db.knex.raw(
      `insert into rank (code, name) select 'pgb-' || i, jsonb_build_object('uz', 'Unvon ' || i) from generate_series(1, ${RANKS}) i`,
    );
    bouncer = await startBouncer(db.url!, POOL);
    server = await startProductionServer({
      DATABASE_URL: bouncer.url,
      DATABASE_LISTEN_URL: db.url!,
      DATABASE_POOL_MAX: '10',
      ECOFOND_JOBS_POLL_MS: '200',
      ECOFOND_JOBS_HEARTBEAT_MS: '200',
    });
    api = server.api;
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await bouncer?.stop();
    await db?.close();
  }, 60_000);

  const pool = async () => (await bouncer.show<Pool>('SHOW POOLS')).find((p) => p.database === dbName)!;
  const stats = async () => (await bouncer.show<Stats>('SHOW STATS')).find((s) => s.database === dbName)!;
  const servers = (p: Pool) =>
    ['sv_active', 'sv_idle', 'sv_used', 'sv_tested', 'sv_login'].reduce((n, k) => n + Number(p[k as keyof Pool]), 0);

  it('answers many signed-in reads at once over two server connections', async () => {
    const before = await stats();
    let most = 0;
    const watching = (async () => {
      for (let i = 0; i < 40; i++) {
        most = Math.max(most, servers(await pool()));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api.get(
          i % 2
            ? `${RANK}?q=pgb-1${i}&perPage=10`
            : `${RANK}?options=${encodeURIComponent(`sortBy=code;descending=true;page=${i + 1};perPage=25`)}`,
        ),
      ),
    );
    await watching;
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
    expect(answers[1].body.length).toBeGreaterThan(0);
    const p = await pool();
    expect(p.pool_mode).toBe('transaction');
    // the process's pool opened more connections than the bouncer gave it server connections
    expect(servers(p)).toBeLessThanOrEqual(POOL);
    expect(most).toBeLessThanOrEqual(POOL);
    const clients = (await bouncer.show<{ database: string }>('SHOW CLIENTS')).filter((c) => c.database === dbName).length;
    expect(clients).toBeGreaterThan(POOL);
    // every one of them went through the bouncer: the primary saw them as its transactions
    expect(Number((await stats()).total_xact_count) - Number(before.total_xact_count)).toBeGreaterThanOrEqual(60);
  });

  it('writes through the one write path: the version checked, one audit row each, nothing of a refused write kept', async () => {
    const made = await api.post(RANK, { code: 'pgb-new', name: { uz: 'Kapitan', ru: 'Капитан' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.id;
    const changed = await api.put(`${RANK}/${id}`, { name: { uz: 'Mayor', ru: 'Майор' }, version: made.body.version });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // a stale version, and a duplicate code: refused, and nothing of them written
    expect((await api.put(`${RANK}/${id}`, { name: { uz: 'Polkovnik' }, version: made.body.version })).status).toBe(409);
    const dup = await api.post(RANK, { code: 'pgb-new', name: { uz: 'Ikkinchi' } });
    expect(dup.status).toBe(400);
    expect(Object.keys(dup.body.errors)).toContain('code');
    expect((await db.knex('rank').where({ code: 'pgb-new' })).map((r) => r.name.uz)).toEqual(['Mayor']);
    expect((await db.knex('audit_log').where({ entity: 'rank', record_id: id }).orderBy('id')).map((a) => a.op)).toEqual([
      'create',
      'update',
    ]);
    // parallel writes, each a transaction on whichever server connection is free
    const many = await Promise.all(Array.from({ length: 20 }, (_, i) => api.post(RANK, { code: `pgb-par-${i}`, name: { uz: `P ${i}` } })));
    expect(many.map((m) => m.status)).toEqual(Array(20).fill(201));
    expect(
      Number(
        (
          await db
            .knex('audit_log')
            .where({ entity: 'rank', op: 'create' })
            .whereIn(
              'record_id',
              many.map((m) => m.body.id),
            )
            .count('* as n')
        )[0].n,
      ),
    ).toBe(20);
  });

  it('moves a row by its workflow, with its flow row', async () => {
    const NEWS = '/api/notification/publications';
    const made = await api.post(NEWS, {
      title: { uz: 'Bouncer orqali', ru: 'Через пул' },
      body: { uz: '<p>Matn</p>' },
      published_at: '2026-11-20T10:00:00+05:00',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const moved = await api.post(`${NEWS}/${made.body.id}/actions/publish`, {});
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ status: 'published', is_published: true });
    const flows = await api.get(`${NEWS}/${made.body.id}/flows`);
    expect(flows.body.map((f: { action: string }) => f.action)).toContain('publish');
  });

  it('exports every row through a server-side cursor, in the request and as a background job', async () => {
    const total = Number((await db.knex('rank').count('* as n'))[0].n);
    expect(total).toBeGreaterThan(RANKS);
    // in the request: pg-cursor's portal on a pooled connection, batch after batch, while other reads go on
    const [streamed, ...others] = await Promise.all([
      api.get(`${RANK}/export?background=0`),
      ...Array.from({ length: 10 }, () => api.get(`${RANK}?perPage=5`)),
    ]);
    expect(streamed.status).toBe(200);
    expect(others.map((o) => o.status)).toEqual(Array(10).fill(200));
    expect(await sheetRows(streamed.raw)).toBe(total + 1);
    // a job: DECLARE … CURSOR / FETCH inside the job's transaction, its progress written beside it
    const queued = await api.get(`${RANK}/export?background=1`);
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    let job = queued.body;
    for (const until = Date.now() + 60_000; !['done', 'failed', 'cancelled'].includes(job.state) && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 200));
      job = (await api.get(`/api/jobs/${queued.body.id}`)).body;
    }
    expect(job, JSON.stringify(job)).toMatchObject({ state: 'done', progress: { done: total } });
    const file = await api.get(`/api/jobs/${queued.body.id}/file`);
    expect(file.status).toBe(200);
    expect(await sheetRows(file.raw)).toBe(total + 1);
  });

  it("a sign-out ends the session at once; the LISTEN connections are the database's own, not the bouncer's", async () => {
    const token = await api.login('admin', TEST_ADMIN_PASSWORD);
    expect((await api.get(`${RANK}?perPage=1`, { token })).status).toBe(200);
    expect((await api.post('/api/admin/auth/logout', {}, { token })).status).toBe(200);
    expect((await api.get(`${RANK}?perPage=1`, { token })).status).toBe(401);
    // the bouncer holds no LISTEN: those connections are the database's own
    const listening = await db.knex('pg_stat_activity').where({ datname: dbName, application_name: 'ecofond-listen' }).count('* as n');
    expect(Number(listening[0].n)).toBeGreaterThan(0);
    const p = await pool();
    expect(servers(p)).toBeLessThanOrEqual(POOL);
  });
});
