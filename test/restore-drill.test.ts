import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './support/ports.ts';
import { postgresIds } from './support/os-user.ts';
import { skipBecause } from './support/skip.ts';

const run = promisify(execFile);

/**
 * The restore drill (docs/operations.md): a throwaway PostgreSQL cluster of its own — never the
 * machine's server — archived and backed up by `ops/pgbackrest.sh` exactly as an install is, with
 * files in its ECOFOND_DATA_DIR as uploads are kept (named by their content). Rows and files are
 * written before a full backup, before an incremental one and before a noted moment, more after
 * it; the cluster is then restored to that moment into a fresh data directory, started, and
 * compared: every row written before the moment is there, none written after, and every file a
 * restored row names is restored with its content. The timings go to the run's output.
 */
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const SCRIPT = resolve('ops/pgbackrest.sh');
const ROWS = 200;

async function unavailable(): Promise<string | undefined> {
  for (const tool of ['/usr/bin/pgbackrest', join(BIN, 'initdb'), join(BIN, 'pg_ctl'), '/usr/bin/rsync']) {
    if (!existsSync(tool)) return `${tool} is not installed (the drill needs pgBackRest, PostgreSQL's server programs and rsync)`;
  }
  if (process.getuid?.() === 0 && !(await postgresIds())) return 'running as root and there is no postgres OS user to run the cluster as';
  return undefined;
}

const skip = await unavailable();
const root = skip ? '' : mkdtempSync(join(tmpdir(), 'ecofond-drill-'));
const timings: Record<string, number> = {};
const running: string[] = [];

async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const t = Date.now();
  try {
    return await fn();
  } finally {
    timings[name] = Date.now() - t;
  }
}

describe('the restore drill: pgBackRest full + incremental + WAL to a moment, with the files', skipBecause(skip), () => {
  const asRoot = process.getuid?.() === 0;
  let ids: { uid: number; gid: number } | null = null;
  const data = join(root, 'data');
  const restored = join(root, 'restored');
  const files = join(root, 'files');
  const restoredFiles = join(root, 'restored-files');
  const sock = join(root, 'sock');
  let env: NodeJS.ProcessEnv = {};

  /** A program as the cluster's owner (postgres when the tests run as root). */
  const as = (cmd: string, args: string[], extra: NodeJS.ProcessEnv = {}) => {
    const opts = { env: { ...process.env, ...env, ...extra }, timeout: 120_000, maxBuffer: 16 * 2 ** 20 };
    return asRoot ? run('runuser', ['-u', 'postgres', '--', cmd, ...args], opts) : run(cmd, args, opts);
  };
  const script = (...args: string[]) => as(SCRIPT, args);
  const query = async <T extends pg.QueryResultRow>(port: number, sql: string, params: unknown[] = []): Promise<T[]> => {
    const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await c.connect();
    try {
      return (await c.query<T>(sql, params)).rows;
    } finally {
      await c.end();
    }
  };
  /** A batch of rows, each naming a file written as an upload is: under uploads/, named by its sha-256. */
  const writeBatch = async (port: number, batch: string) => {
    const shas: string[] = [];
    for (let i = 0; i < ROWS; i++) {
      const bytes = randomBytes(512);
      const sha = createHash('sha256').update(bytes).digest('hex');
      const dir = join(files, 'uploads', sha.slice(0, 2));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, sha), bytes);
      shas.push(sha);
    }
    if (asRoot) await run('chown', ['-R', 'postgres:postgres', files]);
    await query(port, `INSERT INTO drill (batch, n, file) SELECT $1, n, f FROM unnest($2::text[]) WITH ORDINALITY AS t(f, n)`, [
      batch,
      shas,
    ]);
  };
  const pgctl = (dir: string, ...args: string[]) =>
    as(join(BIN, 'pg_ctl'), ['-D', dir, '-l', join(root, `${dir === data ? 'primary' : 'restored'}.log`), ...args]);

  afterAll(async () => {
    for (const dir of running) await pgctl(dir, '-m', 'immediate', '-w', 'stop').catch(() => undefined);
    if (root) rmSync(root, { recursive: true, force: true });
    if (Object.keys(timings).length) console.log(`restore drill (ms): ${JSON.stringify(timings)}`);
  }, 60_000);

  it('restores the cluster to the noted moment: the rows before it and their files, none after', async () => {
    const t0 = Date.now();
    ids = asRoot ? await postgresIds() : null;
    mkdirSync(sock, { recursive: true });
    mkdirSync(files, { recursive: true });
    if (ids) for (const d of [root, sock, files]) chownSync(d, ids.uid, ids.gid);
    const port = await freePort();
    env = {
      PGDATA: data,
      PGPORT: String(port),
      PGHOST: sock,
      PGUSER: 'postgres',
      PG_BIN: BIN,
      ECOFOND_BACKUP_REPO: join(root, 'repo'),
      ECOFOND_BACKUP_CONF: join(root, 'pgbackrest.conf'),
      ECOFOND_BACKUP_LOG_DIR: join(root, 'log'),
      ECOFOND_BACKUP_STANZA: 'drill',
      ECOFOND_BACKUP_RETENTION_FULL: '1',
      ECOFOND_BACKUP_COMPRESS: 'lz4',
      ECOFOND_DATA_DIR: files,
    };

    await timed('initdb+start', async () => {
      await as(join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
      writeFileSync(
        join(data, 'postgresql.conf'),
        [
          `port = ${port}`,
          `listen_addresses = '127.0.0.1'`,
          `unix_socket_directories = '${sock}'`,
          'shared_buffers = 16MB',
          'max_connections = 20',
          `timezone = 'Asia/Tashkent'`,
          'fsync = off',
        ].join('\n') + '\n',
        { flag: 'a' },
      );
      await pgctl(data, '-w', '-t', '60', 'start');
      running.push(data);
    });
    await timed('configure+restart+init', async () => {
      await script('configure');
      await pgctl(data, '-w', '-t', '60', 'restart');
      await script('init');
    });
    await query(
      port,
      'CREATE TABLE drill (id serial PRIMARY KEY, batch text NOT NULL, n int NOT NULL, file text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())',
    );
    await writeBatch(port, 'before-full');
    await timed('full backup', () => script('full'));
    await writeBatch(port, 'before-incr');
    await timed('incremental backup', () => script('incr'));
    await writeBatch(port, 'before-moment');
    // the moment, as the server's clock has it once the rows before it are committed
    const [{ moment }] = await query<{ moment: string }>(port, 'SELECT clock_timestamp()::text AS moment');
    const before = await query<{ id: number; batch: string; n: number; file: string }>(
      port,
      `SELECT id, batch, n, file FROM drill WHERE at <= $1 ORDER BY id`,
      [moment],
    );
    expect(before).toHaveLength(3 * ROWS);
    await new Promise((r) => setTimeout(r, 50));
    await writeBatch(port, 'after-moment');
    await query(port, `UPDATE drill SET n = -n WHERE batch = 'before-full'`);
    await query(port, `DELETE FROM drill WHERE batch = 'before-incr' AND n <= 10`);
    // the files as the periodic copy takes them, the WAL of the writes after the moment in the repository
    await timed('files+archive', async () => {
      await script('files');
      await script('check');
    });

    await timed('restore', () => script('restore', moment, restored, restoredFiles));
    const port2 = await freePort();
    await timed('start+recover', async () => {
      writeFileSync(join(restored, 'postgresql.conf'), `port = ${port2}\n`, { flag: 'a' });
      await pgctl(restored, '-w', '-t', '60', 'start');
      running.push(restored);
      for (let i = 0; ; i++) {
        const [{ r }] = await query<{ r: boolean }>(port2, 'SELECT pg_is_in_recovery() AS r');
        if (!r) break;
        if (i > 600) throw new Error('the restored cluster never left recovery');
        await new Promise((res) => setTimeout(res, 100));
      }
    });

    const after = await query<{ id: number; batch: string; n: number; file: string }>(
      port2,
      'SELECT id, batch, n, file FROM drill ORDER BY id',
    );
    // every row as it stood at the moment: the later update and delete undone, the later rows absent
    expect(after).toEqual(before);
    expect(after.filter((r) => r.batch === 'after-moment')).toHaveLength(0);
    expect(new Set(after.map((r) => r.batch))).toEqual(new Set(['before-full', 'before-incr', 'before-moment']));
    // every file a restored row names is restored, byte for byte
    for (const r of after) {
      const bytes = readFileSync(join(restoredFiles, 'uploads', r.file.slice(0, 2), r.file));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(r.file);
    }
    // the restored server takes writes of its own
    await query(port2, `INSERT INTO drill (batch, n, file) VALUES ('restored', 1, '-')`);
    const info = await script('info');
    expect(info.stdout).toMatch(/full backup/);
    expect(info.stdout).toMatch(/incr backup/);
    timings.total = Date.now() - t0;
  }, 300_000);
});
