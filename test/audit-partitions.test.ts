import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from './support/api.ts';
import { JobWorker } from '../api/jobs/worker.ts';
import {
  AUDIT_DEFAULT,
  auditMonths,
  auditPartitioned,
  auditRetentionMonths,
  dropExpiredAuditMonths,
  ensureAuditMonths,
  monthOf,
  monthPartition,
  partitionAuditByMonth,
  unpartitionAudit,
} from '../api/db/audit-partitions.ts';

/**
 * `audit_log` partitioned by month (migrations/20261207000200_audit_log_by_month.ts,
 * api/db/audit-partitions.ts, docs/decisions/0079): a change's audit row lands in its month's
 * partition, months are made ahead (rows that landed in the default partition moved into theirs),
 * the retention drops whole months, the list and a record's history read an index a partition
 * (and a date range only its months), and the conversion goes both ways with every row.
 * On PostgreSQL (TEST_DATABASE_URL) and on PGlite alike.
 */
let api: TestApi;
let k: Knex;

beforeAll(async () => {
  api = await startTestApi();
  k = api.db.knex;
}, 120_000);
afterAll(async () => {
  await api?.close();
});

const count = async (table: string) => Number((await k(table).count({ n: '*' }))[0].n);
const plan = async (sql: string, b: Knex.RawBinding[] = []) =>
  ((await k.raw(`EXPLAIN ${sql}`, b)).rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');

describe('audit_log by month', () => {
  it('is partitioned, this month and two ahead made, a change audited into its month', async () => {
    expect(await auditPartitioned(k)).toBe(true);
    const months = await auditMonths(k);
    const now = monthOf(new Date());
    expect(months).toContain(monthPartition(now));
    expect(months).toContain(monthPartition({ y: now.m === 12 ? now.y + 1 : now.y, m: (now.m % 12) + 1 }));
    const before = await count(monthPartition(now));
    const r = await api.post('/api/ecofund/stack-payments', { number: 'AUDP-1', statement_date: '2024-02-01' });
    expect(r.status).toBe(201);
    expect(await count(monthPartition(now))).toBe(before + 1);
    expect(await count(AUDIT_DEFAULT)).toBe(0);
    // the history and the list read through the parent as before
    const h = await api.get(`/api/ecofund/stack-payments/${r.body.id}/history`);
    expect(h.status).toBe(200);
    expect(h.body.rows?.[0]?.op ?? h.body[0]?.op).toBe('create');
    const l = await api.get(`/api/admin/audit-log?entity=stack-payments&record_id=${r.body.id}`);
    expect(l.status).toBe(200);
    expect(l.body.length).toBe(1);
    const one = await api.get(`/api/admin/audit-log/${l.body[0].id}`);
    expect(one.status).toBe(200);
  });

  it("reads a record's history from the month it was made: the months before are not read", async () => {
    const r = await api.post('/api/ecofund/stack-payments', { number: 'AUDP-2', statement_date: '2024-02-01' });
    expect(r.status).toBe(201);
    // an entry dated long before the row was made (none can be) stays out; one after it is read
    const old = new Date(Date.UTC(2012, 2, 10, 12));
    const months = await ensureAuditMonths(k, old);
    await k('audit_log').insert({ entity: 'stack-payments', record_id: r.body.id, op: 'update', action: 'old', created_at: old });
    const h = await api.get(`/api/ecofund/stack-payments/${r.body.id}/history`);
    expect(h.status).toBe(200);
    const ops = (h.body.rows ?? h.body).map((x: { op: string; action: string | null }) => x.action ?? x.op);
    expect(ops).toEqual(['create']);
    // the plan of such a read: the months from the row's creation (a day before) on, no earlier one
    const made = new Date(r.body.created_at);
    const history = await plan(
      `SELECT a.id FROM audit_log a WHERE a.entity IN ('stack-payments') AND a.record_id = ? AND a.created_at >= ?::timestamptz - interval '1 day' ORDER BY a.id DESC LIMIT 500`,
      [r.body.id, made.toISOString()],
    );
    expect(history).toMatch(new RegExp(monthPartition(monthOf(made))));
    expect(history).not.toMatch(/audit_log_m2012/);
    // the months made for it go (the retention's test counts the months there are)
    for (const m of months) await k.raw(`DROP TABLE ${m}`);
  });

  it('makes a month whose rows landed in the default partition by moving them into it', async () => {
    const far = new Date(Date.UTC(2031, 5, 15, 12));
    await k('audit_log').insert({ entity: 'roles', record_id: 1, op: 'update', created_at: far });
    expect(await count(AUDIT_DEFAULT)).toBe(1);
    const made = await ensureAuditMonths(k, far);
    expect(made).toEqual(['audit_log_m203106', 'audit_log_m203107', 'audit_log_m203108']);
    expect(await count(AUDIT_DEFAULT)).toBe(0);
    expect(await count('audit_log_m203106')).toBe(1);
    expect(await ensureAuditMonths(k, far)).toEqual([]);
  });

  it('drops whole months past the retention, keeps the rest; keeps all by default', async () => {
    expect(auditRetentionMonths({})).toBeNull();
    expect(auditRetentionMonths({ ECOFOND_AUDIT_RETENTION_MONTHS: '60' })).toBe(60);
    expect(() => auditRetentionMonths({ ECOFOND_AUDIT_RETENTION_MONTHS: 'x' })).toThrow(/RETENTION/);
    // an old month made and filled, an older row in the default partition
    const old = new Date(Date.UTC(2019, 2, 10));
    await ensureAuditMonths(k, old);
    await k('audit_log').insert([
      { entity: 'roles', record_id: 1, op: 'update', created_at: old },
      { entity: 'roles', record_id: 1, op: 'update', created_at: new Date(Date.UTC(2015, 0, 10)) },
    ]);
    const all = await count('audit_log');
    expect(await dropExpiredAuditMonths(k, null)).toEqual([]);
    const dropped = await dropExpiredAuditMonths(k, 60);
    expect(dropped).toEqual(['audit_log_m201903', 'audit_log_m201904', 'audit_log_m201905']);
    expect(await count('audit_log')).toBe(all - 2);
    expect(await auditMonths(k)).toContain(monthPartition(monthOf(new Date())));
  });

  it("the jobs worker's cleanup makes the coming months and applies the retention setting", async () => {
    const now = monthOf(new Date());
    const ahead = monthPartition({ y: now.m >= 11 ? now.y + 1 : now.y, m: ((now.m + 1) % 12) + 1 });
    await k.raw(`DROP TABLE ${ahead}`);
    await ensureAuditMonths(k, new Date(Date.UTC(2010, 0, 15)));
    const lines: string[] = [];
    const worker = new JobWorker(k, () => api.model, { log: (l) => lines.push(l) });
    process.env.ECOFOND_AUDIT_RETENTION_MONTHS = '120';
    try {
      await worker.cleanup();
    } finally {
      delete process.env.ECOFOND_AUDIT_RETENTION_MONTHS;
    }
    const months = await auditMonths(k);
    expect(months).toContain(ahead);
    expect(months.filter((m) => m.startsWith('audit_log_m2010'))).toEqual([]);
    expect(lines.join('\n')).toMatch(/audit: partitions made audit_log_m\d{6}, dropped audit_log_m201001/);
  });

  it('reads an index a partition for the list and a history, and only its months for a date range', async () => {
    await k.raw('ANALYZE audit_log');
    await k.raw('SET enable_seqscan = off');
    try {
      const history = await plan(
        `SELECT a.id FROM audit_log a WHERE a.entity IN ('roles') AND a.record_id = 1 ORDER BY a.id DESC LIMIT 500`,
      );
      expect(history).toMatch(/Index Scan Backward using audit_log_m\d{6}_entity_(record_id_)?id_idx/);
      expect(history).not.toMatch(/Seq Scan|Sort Key: a.id DESC\n\s+->\s+Sort/);
      const byUser = await plan('SELECT id FROM audit_log WHERE user_id = 1 ORDER BY id DESC LIMIT 50');
      expect(byUser).toMatch(/audit_log_m\d{6}_user_id_id_idx/);
      const range = await plan(
        `SELECT id FROM audit_log WHERE created_at >= '2031-06-01 00:00+05' AND created_at < '2031-07-01 00:00+05' ORDER BY id DESC LIMIT 50`,
      );
      expect(range).toMatch(/audit_log_m203106/);
      expect(range).not.toMatch(/audit_log_m2031(07|08)|audit_log_default/);
    } finally {
      await k.raw('RESET enable_seqscan');
    }
  });

  it('goes back to one table and partitioned again with every row', async () => {
    const all = await count('audit_log');
    await k.transaction(async (trx) => unpartitionAudit(trx));
    expect(await auditPartitioned(k)).toBe(false);
    expect(await count('audit_log')).toBe(all);
    await k.transaction(async (trx) => partitionAuditByMonth(trx));
    expect(await auditPartitioned(k)).toBe(true);
    expect(await count('audit_log')).toBe(all);
    expect(await count(AUDIT_DEFAULT)).toBe(0);
    const here = monthPartition(monthOf(new Date()));
    const before = await count(here);
    await k('audit_log').insert({ entity: 'roles', record_id: 2, op: 'update' });
    expect(await count(here)).toBe(before + 1);
  });
});
