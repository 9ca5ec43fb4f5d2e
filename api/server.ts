import type { Server } from 'node:http';
import type Koa from 'koa';
import { createApp } from './app.ts';
import { buildRegistry } from './registry.ts';
import { databaseFromEnv, type Database } from './db/connection.ts';
import { loadMetadata } from './meta/load.ts';
import { migrate } from './db/migrator.ts';
import { seed } from '../seeds/index.ts';
import type { MetaModel } from './meta/types.ts';
import { staticSites } from './http/static.ts';
import { attachChat } from './modules/chat/hub.ts';
import { LiveModel } from './meta/live.ts';
import { startWorkers } from './workers.ts';
import { ensureYearPartitions } from './db/partitions.ts';
import { ensureAuditMonths } from './db/audit-partitions.ts';
import { log as logger } from './observability/log.ts';
import { watchChat, watchPool, watchReplica } from './observability/metrics.ts';

export interface StartOptions {
  port?: number;
  host?: string;
  migrate?: boolean;
  seed?: boolean;
  demo?: boolean;
  /** where start-up's and the workers' lines go; default the structured log (api/observability/log.ts) */
  log?: (line: string) => void;
}

export interface Running {
  server: Server;
  db: Database;
  /** the model at start-up; `live.current` is the one answering now (reference books reload it) */
  model: MetaModel;
  live: LiveModel;
  url: string;
  close(): Promise<void>;
}

/** Loads and checks the metadata, opens the database, migrates and seeds if asked, and listens. */
export async function startServer(opts: StartOptions = {}): Promise<Running> {
  const log = opts.log ?? ((s: string) => logger.info(s));
  // the modules' registry, built once: the model, and every model the live model builds, bound to it
  const registry = buildRegistry();
  const model = registry.bind(loadMetadata());
  const db = databaseFromEnv();
  log(`Database: ${db.kind === 'pglite' ? 'embedded PostgreSQL (PGlite)' : 'PostgreSQL server'}`);
  if (opts.migrate) {
    const done = await migrate(db.knex, model);
    if (done.length) log(`Migrated: ${done.join(', ')}`);
  }
  // this year's and next year's partitions of the tables partitioned by year (docs/scaling.md)
  // and the audit trail's month partitions, this month's and two ahead (docs/operations.md)
  const parts = [...(await ensureYearPartitions(db.knex)), ...(await ensureAuditMonths(db.knex))];
  if (parts.length) log(`Partitions made: ${parts.join(', ')}`);
  // the files' model with the reference books the database holds (docs/reference-books.md)
  const live = new LiveModel(model, db.knex, undefined, registry);
  await live.reload();
  if (opts.seed) await seed(db.knex, live.current, { adminPassword: process.env.ECOFOND_ADMIN_PASSWORD, demo: opts.demo, log });
  if (db.reads !== db.knex) log('Public reads: the read replica (DATABASE_READ_URL)');
  // other processes on the same server tell this one when they change a book, a session, a user or a
  // role (docs/sessions.md); LISTEN holds its connection, so behind a transaction-pooling proxy
  // (PgBouncer) it takes a direct one: DATABASE_LISTEN_URL
  if (db.listenUrl) await live.listen(db.listenUrl, log);
  const app: Koa = createApp({ knex: db.knex, reads: db.reads, model, live, registry, statics: staticSites(db.knex) });
  const port = opts.port ?? Number(process.env.PORT || 8080);
  const host = opts.host ?? process.env.HOST ?? '0.0.0.0';
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, host, () => resolve(s));
    s.on('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  // the chat's WebSocket (/api/chat/socket) on the same server, fed by LISTEN/NOTIFY (docs/chat.md)
  const chat = await attachChat(server, db, model);
  // what /api/metrics reads of this process: its pools, the replica's lag, the chat's sockets (docs/operations.md)
  watchPool('primary', db.knex);
  if (db.reads !== db.knex) {
    watchPool('reads', db.reads);
    watchReplica(db.reads);
  }
  watchChat(() => chat.counts);
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://localhost:${actualPort}`;
  log(`ecofond is listening on ${url} (API ${url}/api, back-office ${url}/admin/)`);
  // the notification worker (docs/notifications.md) and the background jobs (large exports, imports:
  // docs/jobs.md) run in the server's process; ECOFOND_NOTIFY_WORKER=off / ECOFOND_JOBS_WORKER=off
  // leave them to another process (`ecofond work`, api/workers.ts)
  const workers = startWorkers(db.knex, live, log);
  return {
    server,
    db,
    model,
    live,
    url,
    close: async () => {
      watchChat(undefined);
      await chat.close();
      await workers.stop();
      await new Promise<void>((r) => server.close(() => r()));
      await live.close();
      await db.close();
    },
  };
}
