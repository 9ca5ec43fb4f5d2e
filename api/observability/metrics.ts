import client from 'prom-client';
import type { Knex } from 'knex';

/**
 * The process's metrics in Prometheus' format (docs/operations.md), served at GET /api/metrics
 * to whoever brings ECOFOND_METRICS_TOKEN (api/modules/system/metrics.ts). What the process counts
 * itself — requests, the pools' waits, chat sockets — is its own; what is read from the database
 * at each scrape — the jobs' queue, notification deliveries, sign-in failures and lockouts — is
 * the same whichever process answers (aggregate those with max(), not sum()).
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequests = new client.Counter({
  name: 'ecofond_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'],
  registers: [registry],
});
export const httpDuration = new client.Histogram({
  name: 'ecofond_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route template and status',
  labelNames: ['method', 'route', 'status'],
  buckets: SECONDS,
  registers: [registry],
});
const poolConnections = new client.Gauge({
  name: 'ecofond_db_pool_connections',
  help: "The database pools' connections: used, free, and requests waiting for one (pending)",
  labelNames: ['pool', 'state'],
  registers: [registry],
});
const poolWait = new client.Histogram({
  name: 'ecofond_db_pool_acquire_seconds',
  help: 'Time a query waited for a pooled connection',
  labelNames: ['pool'],
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
  registers: [registry],
});
const poolTimeouts = new client.Counter({
  name: 'ecofond_db_pool_acquire_failures_total',
  help: 'Waits for a pooled connection that failed (timed out)',
  labelNames: ['pool'],
  registers: [registry],
});
const jobs = new client.Gauge({
  name: 'ecofond_jobs',
  help: 'Background jobs queued or running, by kind and state',
  labelNames: ['kind', 'state'],
  registers: [registry],
});
const jobsAge = new client.Gauge({
  name: 'ecofond_jobs_oldest_queued_seconds',
  help: 'Age of the oldest queued job, by kind',
  labelNames: ['kind'],
  registers: [registry],
});
const jobsFailed = new client.Gauge({
  name: 'ecofond_jobs_failed_last_hour',
  help: 'Jobs that failed in the last hour, by kind',
  labelNames: ['kind'],
  registers: [registry],
});
const jobRows = new client.Gauge({
  name: 'ecofond_job_rows_per_second',
  help: 'Rows per second of the export and import jobs finished in the last 15 minutes, by kind',
  labelNames: ['kind'],
  registers: [registry],
});
const deliveries = new client.Gauge({
  name: 'ecofond_notification_deliveries',
  help: 'Notification deliveries by transport and state: every queued one, the others of the last hour',
  labelNames: ['transport', 'state'],
  registers: [registry],
});
const chatSockets = new client.Gauge({
  name: 'ecofond_chat_sockets',
  help: "The chat's open sockets, operators' and visitors'",
  labelNames: ['side'],
  registers: [registry],
});
const signIns = new client.Gauge({
  name: 'ecofond_sign_in_failures_last_5m',
  help: 'Failed sign-in attempts in the last 5 minutes, by reason (locked: refused by the lockout)',
  labelNames: ['reason'],
  registers: [registry],
});
const replicaLag = new client.Gauge({
  name: 'ecofond_replica_lag_seconds',
  help: "How far the read replica's replay is behind (0 when it has replayed all it received)",
  registers: [registry],
});
const scrapeErrors = new client.Counter({
  name: 'ecofond_metrics_read_failures_total',
  help: 'Reads of the database-held metrics that failed',
  labelNames: ['what'],
  registers: [registry],
});

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  on(event: string, fn: (...args: unknown[]) => void): void;
}
const poolOf = (knex: Knex) => (knex.client as { pool?: TarnPool }).pool;
const pools = new Map<string, Knex>();
const watched = new WeakSet<object>();

/** Counts a pool's connections and waits under `name` (primary, reads); the same pool once. */
export function watchPool(name: string, knex: Knex): void {
  pools.set(name, knex);
  const pool = poolOf(knex);
  if (!pool || watched.has(pool)) return;
  watched.add(pool);
  const waiting = new Map<unknown, number>();
  pool.on('acquireRequest', (id) => waiting.set(id, performance.now()));
  pool.on('acquireSuccess', (id) => {
    const t = waiting.get(id);
    waiting.delete(id);
    if (t !== undefined) poolWait.observe({ pool: name }, (performance.now() - t) / 1000);
  });
  pool.on('acquireFail', (id) => {
    waiting.delete(id);
    poolTimeouts.inc({ pool: name });
  });
}

let readReplica: Knex | undefined;
/** The read replica's pool, whose lag is reported (DATABASE_READ_URL). */
export function watchReplica(reads: Knex | undefined): void {
  readReplica = reads;
}

let chat: (() => { operators: number; visitors: number }) | undefined;
/** Where the chat's socket counts are read (the server's hub). */
export function watchChat(counts: typeof chat): void {
  chat = counts;
}

const safely = async (what: string, fn: () => Promise<void>) => {
  try {
    await fn();
  } catch {
    scrapeErrors.inc({ what });
  }
};

/** Reads what the database holds into the gauges, then renders every metric. */
export async function renderMetrics(knex: Knex): Promise<string> {
  if (!pools.size) watchPool('primary', knex);
  poolConnections.reset();
  for (const [name, k] of pools) {
    const p = poolOf(k);
    if (!p) continue;
    poolConnections.set({ pool: name, state: 'used' }, p.numUsed());
    poolConnections.set({ pool: name, state: 'free' }, p.numFree());
    poolConnections.set({ pool: name, state: 'pending' }, p.numPendingAcquires() + p.numPendingCreates());
  }
  chatSockets.reset();
  if (chat) {
    const c = chat();
    chatSockets.set({ side: 'operators' }, c.operators);
    chatSockets.set({ side: 'visitors' }, c.visitors);
  }
  await Promise.all([
    safely('jobs', async () => {
      // the queue through its partial index; the finished ones are few (they expire)
      const queue = (
        await knex.raw(`SELECT kind, state, count(*)::int AS n, extract(epoch FROM now() - min(created_at))::float AS age
        FROM jobs WHERE state IN ('queued', 'running') GROUP BY kind, state`)
      ).rows as { kind: string; state: string; n: number; age: number }[];
      const done = (
        await knex.raw(`SELECT kind, count(*) FILTER (WHERE state = 'failed' AND finished_at > now() - interval '1 hour')::int AS failed,
          sum(progress_done) FILTER (WHERE state = 'done' AND finished_at > now() - interval '15 minutes')::float AS rows_done,
          sum(extract(epoch FROM finished_at - started_at)) FILTER (WHERE state = 'done' AND finished_at > now() - interval '15 minutes')::float AS secs
        FROM jobs WHERE finished_at > now() - interval '1 hour' GROUP BY kind`)
      ).rows as { kind: string; failed: number; rows_done: number | null; secs: number | null }[];
      jobs.reset();
      jobsAge.reset();
      jobsFailed.reset();
      jobRows.reset();
      for (const r of queue) {
        jobs.set({ kind: r.kind, state: r.state }, r.n);
        if (r.state === 'queued') jobsAge.set({ kind: r.kind }, r.age);
      }
      for (const r of done) {
        jobsFailed.set({ kind: r.kind }, r.failed);
        if (r.rows_done && r.secs) jobRows.set({ kind: r.kind }, r.rows_done / Math.max(r.secs, 0.001));
      }
    }),
    safely('notifications', async () => {
      const rows = (
        await knex.raw(`SELECT channel, delivery_state AS state, count(*)::int AS n FROM notification_recipients WHERE delivery_state = 'queued' GROUP BY 1, 2
        UNION ALL SELECT channel, delivery_state, count(*)::int FROM notification_recipients
          WHERE id > (SELECT coalesce(max(id), 0) - 100000 FROM notification_recipients) AND delivery_state <> 'queued' AND created_at > now() - interval '1 hour' GROUP BY 1, 2`)
      ).rows as { channel: string; state: string; n: number }[];
      deliveries.reset();
      for (const r of rows) deliveries.set({ transport: r.channel, state: r.state }, r.n);
    }),
    safely('sign-in', async () => {
      const rows = (
        await knex.raw(`SELECT coalesce(reason, 'unknown') AS reason, count(*)::int AS n FROM login_logs
        WHERE created_at > now() - interval '5 minutes' AND NOT success AND reason <> 'pending' GROUP BY 1`)
      ).rows as { reason: string; n: number }[];
      signIns.reset();
      for (const r of rows) signIns.set({ reason: r.reason }, r.n);
    }),
    safely('replica', async () => {
      replicaLag.reset();
      if (!readReplica || readReplica === knex) return;
      const [row] = (
        await readReplica.raw(`SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
        ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0) END::float AS lag`)
      ).rows as { lag: number }[];
      replicaLag.set(row.lag);
    }),
  ]);
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;
