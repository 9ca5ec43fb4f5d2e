import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApi, type TestApi } from './support/api.ts';
import { freePort } from './support/ports.ts';
import { skipBecause } from './support/skip.ts';
import { watchChat, watchPool } from '../api/observability/metrics.ts';

/**
 * GET /api/metrics (docs/operations.md): absent without ECOFOND_METRICS_TOKEN, 401 without the
 * token or with another, Prometheus' text with it — requests by route template and status, the
 * pool, the jobs' queue, sign-in failures — and read by Debian's Prometheus scraping the running
 * server, a query answered from what it stored.
 */
const TOKEN = 'metrics-test-token-5b1f0c';
const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
let api: TestApi;
const saved = process.env.ECOFOND_METRICS_TOKEN;

beforeAll(async () => {
  api = await startTestApi();
  // this test file's own pool, whatever another app in the process registered before
  watchPool('primary', api.db.knex);
}, 120_000);

afterAll(async () => {
  if (saved === undefined) delete process.env.ECOFOND_METRICS_TOKEN;
  else process.env.ECOFOND_METRICS_TOKEN = saved;
  await api?.close();
});

const metrics = (token: string | undefined) =>
  fetch(`${api.url}/api/metrics`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

describe('/api/metrics', () => {
  it('does not exist without ECOFOND_METRICS_TOKEN, and answers 401 without the token or with another', async () => {
    delete process.env.ECOFOND_METRICS_TOKEN;
    expect((await metrics(TOKEN)).status).toBe(404);
    process.env.ECOFOND_METRICS_TOKEN = TOKEN;
    expect((await metrics(undefined)).status).toBe(401);
    expect((await metrics('another')).status).toBe(401);
    // a session token is not the metrics token
    expect((await metrics(api.adminToken)).status).toBe(401);
  });

  it('counts requests by route template and status, the pool, the jobs queue, deliveries, chat sockets and sign-in failures', async () => {
    process.env.ECOFOND_METRICS_TOKEN = TOKEN;
    expect((await api.get('/api/health')).status).toBe(200);
    expect((await api.get('/api/ecofund-sprav/rank/999999999')).status).toBe(404);
    expect(
      (await api.post('/api/admin/auth/login', { username: 'admin', password: 'not-the-password' }, { token: '' })).status,
    ).toBeGreaterThanOrEqual(400);
    const [admin] = await api.db.knex('users').where({ username: 'admin' }).pluck('id');
    await api.db
      .knex('jobs')
      .insert({ kind: 'metrics-test', user_id: admin, state: 'queued', created_at: api.db.knex.raw("now() - interval '90 seconds'") });
    // a reset code queued as an e-mail delivery (no worker runs here), and the chat's counts as a server's hub gives them
    await api.db.knex('users').where({ id: admin }).update({ email: 'admin@ecofond.test' });
    expect((await api.post('/api/admin/auth/forgot-password', { username: 'admin' }, { token: '' })).status).toBe(200);
    watchChat(() => ({ operators: 2, visitors: 5 }));
    const res = await metrics(TOKEN);
    watchChat(undefined);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^ecofond_http_requests_total\{method="GET",route="\/api\/health",status="200"\} [1-9]/m);
    // the template, never the path with its id
    expect(text).toMatch(/^ecofond_http_requests_total\{method="GET",route="\/api\/ecofund-sprav\/rank\/:id",status="404"\} [1-9]/m);
    // in no label (a value may hold those digits: a sum of 0.0010417999999999665 s did once)
    expect(text).not.toMatch(/\{[^}\n]*999999999[^}\n]*\}/);
    expect(text).toMatch(
      /^ecofond_http_request_duration_seconds_bucket\{le="0.5",method="GET",route="\/api\/health",status="200"\} [1-9]/m,
    );
    expect(text).toMatch(/^ecofond_db_pool_connections\{pool="primary",state="used"\} \d/m);
    expect(text).toMatch(/^ecofond_db_pool_acquire_seconds_count\{pool="primary"\} [1-9]/m);
    expect(text).toMatch(/^ecofond_jobs\{kind="metrics-test",state="queued"\} 1$/m);
    const age = Number(/^ecofond_jobs_oldest_queued_seconds\{kind="metrics-test"\} (\S+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(89);
    expect(text).toMatch(/^ecofond_sign_in_failures_last_5m\{reason="wrong_password"\} [1-9]/m);
    expect(text).toMatch(/^ecofond_notification_deliveries\{transport="email",state="queued"\} 1$/m);
    expect(text).toMatch(/^ecofond_chat_sockets\{side="operators"\} 2$/m);
    expect(text).toMatch(/^ecofond_chat_sockets\{side="visitors"\} 5$/m);
    for (const name of [
      'ecofond_notification_deliveries',
      'ecofond_chat_sockets',
      'ecofond_replica_lag_seconds',
      'ecofond_job_rows_per_second',
      'process_cpu_seconds_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).not.toMatch(/^ecofond_metrics_read_failures_total\{/m);
    await api.db.knex('jobs').where({ kind: 'metrics-test' }).delete();
  });
});

describe(
  'Prometheus scraping the server',
  skipBecause(!existsSync(PROMETHEUS) && `${PROMETHEUS} is not installed (Debian's prometheus package; .ci/run installs it)`),
  () => {
    let prometheus: ChildProcess | undefined;
    let dir = '';
    afterAll(async () => {
      if (prometheus && prometheus.exitCode === null) {
        const exited = new Promise((r) => prometheus!.once('exit', r));
        prometheus.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (prometheus.exitCode === null) prometheus.kill('SIGKILL');
      }
      if (dir) rmSync(dir, { recursive: true, force: true });
    }, 30_000);

    it('stores what it scrapes with the token and answers a query over it', async () => {
      process.env.ECOFOND_METRICS_TOKEN = TOKEN;
      dir = mkdtempSync(join(tmpdir(), 'ecofond-prometheus-'));
      const target = new URL(api.url).host;
      writeFileSync(
        join(dir, 'prometheus.yml'),
        [
          'global:',
          '  scrape_interval: 1s',
          '  scrape_timeout: 1s',
          'scrape_configs:',
          '  - job_name: ecofond',
          '    metrics_path: /api/metrics',
          '    authorization:',
          `      credentials: ${TOKEN}`,
          '    static_configs:',
          `      - targets: ['${target}']`,
          '',
        ].join('\n'),
      );
      const port = await freePort();
      let output = '';
      prometheus = spawn(
        PROMETHEUS,
        [
          `--config.file=${join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      prometheus.stdout!.on('data', (b) => {
        output += b;
      });
      prometheus.stderr!.on('data', (b) => {
        output = (output + b).slice(-5000);
      });
      for (let i = 0; i < 20; i++) await api.get('/api/health');
      const query = async (q: string) => {
        const r = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(q)}`);
        return (await r.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      };
      const t0 = Date.now();
      let health: number | undefined;
      let up: number | undefined;
      while (Date.now() - t0 < 90_000) {
        if (prometheus.exitCode !== null) throw new Error(`prometheus exited: ${output}`);
        try {
          const [u] = (await query('up{job="ecofond"}')).data.result;
          up = u ? Number(u.value[1]) : undefined;
          const [h] = (await query('sum(ecofond_http_requests_total{route="/api/health",status="200"})')).data.result;
          health = h ? Number(h.value[1]) : undefined;
          if (up === 1 && health !== undefined) break;
        } catch {
          /* not listening yet */
        }
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(up, output).toBe(1);
      expect(health).toBeGreaterThanOrEqual(20);
    }, 120_000);
  },
);

describe(
  'the alerting rules (ops/prometheus/alerts.yml)',
  skipBecause(!existsSync(PROMTOOL) && `${PROMTOOL} is not installed (Debian's prometheus package)`),
  () => {
    it('are valid rules naming only metrics the server exports', async () => {
      const out = await promisify(execFile)(PROMTOOL, ['check', 'rules', 'ops/prometheus/alerts.yml']);
      expect(out.stdout).toMatch(/SUCCESS: \d+ rules found/);
      process.env.ECOFOND_METRICS_TOKEN = TOKEN;
      const exported = await (await metrics(TOKEN)).text();
      const rules = readFileSync('ops/prometheus/alerts.yml', 'utf8');
      for (const name of new Set(rules.match(/\b(ecofond_[a-z_0-9]+|nodejs_[a-z_0-9]+)/g))) {
        expect(exported, name).toContain(`# TYPE ${name.replace(/_bucket$/, '')} `);
      }
    });
  },
);
