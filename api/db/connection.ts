import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import ClientPgLite from 'knex-pglite';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { mkdirSync } from 'node:fs';
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
  poolMax?: number;
  /** embedded: start from this dumped data directory (tests) */
  loadDataDir?: Blob;
}

export interface Database {
  knex: Knex;
  kind: 'postgres' | 'pglite';
  /** the embedded instance, when kind is pglite */
  pglite?: PGlite;
  /** the connection string, when kind is postgres (a LISTEN connection of its own uses it) */
  url?: string;
  close(): Promise<void>;
}

export function openDatabase(opts: DatabaseOptions = {}): Database {
  if (opts.url) {
    const knex = knexFactory({
      client: 'pg',
      connection: opts.url,
      searchPath: opts.searchPath ? [opts.searchPath] : undefined,
      pool: { min: 0, max: opts.poolMax ?? 10 },
    });
    return { knex, kind: 'postgres', url: opts.url, close: () => knex.destroy() };
  }
  let dir: string | undefined;
  if (opts.dataDir !== 'memory') {
    dir = resolve(join(opts.dataDir ?? './data', 'pgdata'));
    mkdirSync(dir, { recursive: true });
  }
  const pglite = new PGlite({
    dataDir: dir,
    loadDataDir: opts.loadDataDir,
    extensions: { pg_trgm },
    parsers: { [DATE]: (v: string) => v, [INT8]: (v: string) => Number(v) },
  });
  const knex = knexFactory({
    client: ClientPgLite as unknown as typeof knexFactory.Client,
    dialect: 'postgres',
    connection: () => ({ pglite }) as object,
    // the one connection waits for the embedded server to start, which on a busy machine (a test
    // run starting three servers at once) can take longer than knex's default minute
    acquireConnectionTimeout: 300_000,
  } as Knex.Config);
  return { knex, kind: 'pglite', pglite, close: () => knex.destroy() };
}

export function databaseFromEnv(env: NodeJS.ProcessEnv = process.env): Database {
  return openDatabase({ url: env.DATABASE_URL || undefined, dataDir: dataDir(env) });
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.ECOFOND_DATA_DIR || './data');
}
