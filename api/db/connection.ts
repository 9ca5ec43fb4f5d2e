import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const DATE = 1082;
const INT8 = 20;

// Dates stay 'YYYY-MM-DD' strings (a date has no time zone); bigint counts and ids become numbers;
// numeric (money, decimals) stays a string so that it is never rounded through a float.
pg.types.setTypeParser(DATE, (v: string) => v);
pg.types.setTypeParser(INT8, (v: string) => Number(v));
const INT8_ARRAY = 1016;
const INT4_ARRAY = 1007;
pg.types.setTypeParser(INT8_ARRAY as never, pg.types.getTypeParser(INT4_ARRAY as never));

export interface DatabaseOptions {
  /** a PostgreSQL connection string; without it, embedded PGlite is used */
  url?: string;
  /** where embedded PGlite keeps its files; 'memory' for an in-memory database */
  dataDir?: string;
  /** the schema to use on a real server (tests use one each) */
  searchPath?: string;
  /** connections a pool opens at most (`DATABASE_POOL_MAX`, default 10), the read replica's pool likewise */
  poolMax?: number;
  /** embedded: start from this dumped data directory (tests) */
  loadDataDir?: Blob;
  /**
   * a read replica's connection string (`DATABASE_READ_URL`): the public reads — public API, map
   * viewports, statistics, public reports — go to a second pool on it; without it, to the primary
   */
  readUrl?: string;
  /**
   * where the processes' LISTEN connections go (`DATABASE_LISTEN_URL`): a direct connection to the
   * primary when `url` is a pgbouncer in transaction mode, which cannot hold a LISTEN; default `url`
   */
  listenUrl?: string;
}

/** What each pool calls itself on the server (`pg_stat_activity.application_name`). */
export const APP_NAME = { primary: 'ecofond', reads: 'ecofond-read', listen: 'ecofond-listen' } as const;

export interface Database {
  knex: Knex;
  kind: 'postgres' | 'pglite';
  /** the embedded instance, when kind is pglite */
  pglite?: PGlite;
  /** the connection string, when kind is postgres */
  url?: string;
  /**
   * the pool the public reads use: a second pool on the read replica when `readUrl` was given,
   * else `knex` itself. Nothing that must see its own writes reads here (the replica lags by its replay).
   */
  reads: Knex;
  /** the connection string a LISTEN connection of its own uses, when kind is postgres */
  listenUrl?: string;
  close(): Promise<void>;
}

export function openDatabase(opts: DatabaseOptions = {}): Database {
  if (opts.url) {
    // no session state is kept in a pooled connection — settings are SET LOCAL inside a transaction,
    // statements are not prepared by name, advisory locks are the transaction's, LISTEN has a
    // connection of its own — so `url` may be a pgbouncer in transaction mode (docs/scaling.md)
    const pool = (url: string, application_name: string) =>
      knexFactory({
        client: 'pg',
        // the name is a start-up parameter, not a SET: pgbouncer passes it on per client
        connection: { connectionString: url, application_name },
        searchPath: opts.searchPath ? [opts.searchPath] : undefined,
        pool: { min: 0, max: opts.poolMax ?? 10 },
      });
    const knex = pool(opts.url, APP_NAME.primary);
    const reads = opts.readUrl ? pool(opts.readUrl, APP_NAME.reads) : knex;
    return {
      knex,
      reads,
      kind: 'postgres',
      url: opts.url,
      listenUrl: opts.listenUrl || opts.url,
      close: async () => {
        await Promise.all([knex.destroy(), reads !== knex ? reads.destroy() : undefined]);
      },
    };
  }
  let dir: string | undefined;
  if (opts.dataDir !== 'memory') {
    dir = resolve(join(opts.dataDir ?? './data', 'pgdata'));
    mkdirSync(dir, { recursive: true });
  }
  // Embedded PGlite is loaded here, only when there is no server: through tsx's loader its modules
  // take about 95 MB of a process's memory (the ESM copy and knex-pglite's CommonJS copy of the
  // same package), which a process on PostgreSQL never uses. Required, not imported, so that
  // openDatabase stays synchronous and knex-pglite and this module share the one (CommonJS) copy.
  const require = createRequire(import.meta.url);
  const { PGlite: PGliteClass } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
  const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as typeof import('@electric-sql/pglite/contrib/pg_trgm');
  const ClientPgLite = require('knex-pglite') as typeof import('knex-pglite');
  const pglite = new PGliteClass({
    dataDir: dir,
    loadDataDir: opts.loadDataDir,
    extensions: { pg_trgm },
    parsers: { [DATE]: (v: string) => v, [INT8]: (v: string) => Number(v) },
  });
  // the pool's one connection is created by waiting for the embedded server to start, which on a
  // busy machine takes longer than tarn's 30 s to create a resource: the same bound as acquiring
  // (knex-pglite refuses a pool configuration, so the settings are extended rather than given)
  class SlowStartClient extends (ClientPgLite as unknown as typeof knexFactory.Client) {
    override getPoolSettings(poolConfig: unknown) {
      return { ...(super.getPoolSettings as (c: unknown) => object)(poolConfig), createTimeoutMillis: 300_000 };
    }
  }
  const knex = knexFactory({
    client: SlowStartClient,
    dialect: 'postgres',
    connection: () => ({ pglite }) as object,
    // the one connection waits for the embedded server to start, which on a busy machine (a test
    // run starting three servers at once) can take longer than knex's default minute
    acquireConnectionTimeout: 300_000,
  } as Knex.Config);
  return { knex, reads: knex, kind: 'pglite', pglite, close: () => knex.destroy() };
}

export function databaseFromEnv(env: NodeJS.ProcessEnv = process.env): Database {
  return openDatabase({
    url: env.DATABASE_URL || undefined,
    dataDir: dataDir(env),
    readUrl: env.DATABASE_READ_URL || undefined,
    listenUrl: env.DATABASE_LISTEN_URL || undefined,
    poolMax: Number(env.DATABASE_POOL_MAX) > 0 ? Math.floor(Number(env.DATABASE_POOL_MAX)) : undefined,
  });
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.ECOFOND_DATA_DIR || './data');
}
