import { execFile } from 'node:child_process';
import {
  accessSync,
  appendFileSync,
  chownSync,
  constants,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './ports.ts';
import { postgresIds, processAlive } from './os-user.ts';

const run = promisify(execFile);

/**
 * A streaming replica of the local PostgreSQL server for a test (docs/scaling.md): a base backup
 * (`pg_basebackup -R -X stream`) into a temporary directory, started on a free port with its own
 * socket directory, stopped and removed by `stop()`. Only what a test needs: the server's binaries,
 * a replication connection the primary allows, and (as root) the `postgres` OS user to run them.
 */
export interface Replica {
  port: number;
  dir: string;
  /** the replica's URL for a database */
  url(database: string): string;
  /** what starting it cost: the base backup's time and size, the start's time */
  figures: { basebackupMs: number; dataBytes: number; startMs: number };
  /** waits until the replica has replayed everything the primary has written so far; answers the wait in ms */
  caughtUp(timeoutMs?: number): Promise<number>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** a query on the replica (its `postgres` database unless named) */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[], database?: string): Promise<T[]>;
  stop(): Promise<void>;
}

/** Why a replica cannot be started here, or null when it can. */
export async function replicaUnavailable(primaryUrl: string | undefined): Promise<string | null> {
  if (!primaryUrl) return 'TEST_DATABASE_URL is not set: the replica test needs a PostgreSQL server';
  let major: number;
  try {
    major = Math.floor(Number((await primaryQuery(primaryUrl, 'SHOW server_version_num'))[0].server_version_num) / 10000);
  } catch (err) {
    return `the PostgreSQL server at TEST_DATABASE_URL does not answer (${(err as Error).message})`;
  }
  const bin = binDir(major);
  for (const tool of ['pg_basebackup', 'pg_ctl']) if (!existsSync(join(bin, tool))) return `${join(bin, tool)} is not installed`;
  if (process.getuid?.() === 0) {
    if (!(await postgresIds())) return 'running as root and there is no postgres OS user to run the server as';
  }
  // the base backup copies the whole cluster — every database on it, other work's benches included
  const [{ bytes }] = await primaryQuery<{ bytes: string }>(
    primaryUrl,
    'SELECT sum(pg_database_size(datname))::bigint::text AS bytes FROM pg_database',
  );
  const free = statfsSync(tmpdir());
  const room = Number(free.bavail) * Number(free.bsize);
  if (Number(bytes) * 1.2 > room)
    return `the base backup would copy ${gb(Number(bytes))} of databases and ${tmpdir()} has ${gb(room)} free`;
  const max = Number(process.env.ECOFOND_REPLICA_MAX_GB || 40) * 2 ** 30;
  if (Number(bytes) > max)
    return `the base backup would copy ${gb(Number(bytes))} of databases, more than ECOFOND_REPLICA_MAX_GB (${gb(max)})`;
  const refused = await replicationRefused(primaryUrl);
  if (!refused) return null;
  // the primary's pg_hba.conf has no replication entry for this address: add one beside its
  // `host all all … trust` line (the same trust, for replication) and reload — no restart
  if (await allowReplication(primaryUrl)) {
    const again = await replicationRefused(primaryUrl);
    if (!again) return null;
    return `the primary refuses a replication connection even after its pg_hba.conf was reloaded: ${again}`;
  }
  return `the primary refuses a replication connection (${refused}); add "host replication all 127.0.0.1/32 trust" to its pg_hba.conf and reload it`;
}

export async function startReplica(primaryUrl: string): Promise<Replica> {
  const u = new URL(primaryUrl);
  const major = Math.floor(Number((await primaryQuery(primaryUrl, 'SHOW server_version_num'))[0].server_version_num) / 10000);
  const bin = binDir(major);
  // the standby must allow at least what the primary does
  const settings = Object.fromEntries(
    (
      await primaryQuery<{ name: string; setting: string }>(
        primaryUrl,
        `SELECT name, setting FROM pg_settings WHERE name IN ('max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction')`,
      )
    ).map((r) => [r.name, r.setting]),
  );
  const root = mkdtempSync(join(tmpdir(), 'ecofond-replica-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  const pgIds = asRoot ? await postgresIds() : null;
  if (asRoot && !pgIds) throw new Error('running as root and there is no postgres OS user to run the server as');
  const [pgUid, pgGid] = pgIds ? [pgIds.uid, pgIds.gid] : [-1, -1];
  if (asRoot) chownSync(root, pgUid, pgGid);
  const as = (cmd: string, args: string[], timeout = 600_000) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', cmd, ...args], { timeout }) : run(cmd, args, { timeout });
  const port = await freePort();
  // the replica streams through a physical slot of its own: the primary keeps every WAL segment
  // the replica has not replayed. Without one (wal_keep_size is 0 by default) the databases other
  // test files create meanwhile write enough WAL for a checkpoint to recycle a segment the replica
  // still needs, and it then waits for it forever (seen in CI: "did not replay … in 60000 ms")
  await dropStaleSlots(primaryUrl);
  const slot = `${SLOT_PREFIX}${process.pid}_${port}`;
  const dropSlot = () =>
    primaryQuery(
      primaryUrl,
      `SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '${slot}' AND NOT active`,
    ).catch(() => undefined);
  let started = false;
  const stop = async () => {
    if (started) await as(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], 60_000).catch(() => undefined);
    started = false;
    // the walsender of a stopped replica may take a moment to end: the slot is released then
    for (let i = 0; i < 50; i++) {
      await dropSlot();
      const left = await primaryQuery(primaryUrl, `SELECT 1 FROM pg_replication_slots WHERE slot_name = '${slot}'`).catch(() => []);
      if (!left.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const t0 = Date.now();
    // a fast checkpoint (else the backup waits for a spread one), no fsync of a throwaway copy
    // other work creating and dropping databases meanwhile (other test files') can end a backup —
    // seen here as the server terminating the backup's WAL stream to release its temporary slot
    // ("background process terminated unexpectedly"): a fresh attempt then
    for (let attempt = 1; ; attempt++) {
      try {
        await as(join(bin, 'pg_basebackup'), [
          '-d',
          `host=${u.hostname} port=${u.port || 5432} user=${decodeURIComponent(u.username || 'postgres')}`,
          '-D',
          data,
          '-R',
          '-X',
          'stream',
          '-C',
          '-S',
          slot,
          '-c',
          'fast',
          '--no-sync',
        ]);
        break;
      } catch (err) {
        if (attempt >= 5) throw err;
        rmSync(data, { recursive: true, force: true });
        await dropSlot();
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const basebackupMs = Date.now() - t0;
    const dataBytes = Number((await run('du', ['-sb', data])).stdout.split(/\s/)[0]);
    // a Debian cluster keeps its configuration outside the data directory: the copy gets its own
    const conf = [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${root}'`,
      'hot_standby = on',
      'fsync = off',
      'shared_buffers = 32MB',
      `max_connections = ${settings.max_connections}`,
      `max_worker_processes = ${settings.max_worker_processes}`,
      `max_wal_senders = ${settings.max_wal_senders}`,
      `max_prepared_transactions = ${settings.max_prepared_transactions}`,
      `max_locks_per_transaction = ${settings.max_locks_per_transaction}`,
      `timezone = 'UTC'`,
      `datestyle = 'iso, mdy'`,
      `application_name = 'ecofond-replica'`,
    ];
    writeFileSync(join(data, 'postgresql.conf'), conf.join('\n') + '\n');
    writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    if (asRoot) for (const f of ['postgresql.conf', 'pg_hba.conf']) chownSync(join(data, f), pgUid, pgGid);
    const t1 = Date.now();
    started = true;
    await as(join(bin, 'pg_ctl'), ['-D', data, '-l', join(root, 'log'), '-w', '-t', '120', 'start'], 180_000);
    const startMs = Date.now() - t1;
    const url = (database: string) => {
      const r = new URL(primaryUrl);
      r.hostname = '127.0.0.1';
      r.port = String(port);
      r.pathname = `/${database}`;
      return r.toString();
    };
    const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = [], database = 'postgres'): Promise<T[]> => {
      const c = new pg.Client({ connectionString: url(database) });
      await c.connect();
      try {
        return (await c.query<T>(sql, params)).rows;
      } finally {
        await c.end();
      }
    };
    const recovering = await query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
    if (!recovering[0]?.r) throw new Error('the copy is not a standby');
    return {
      port,
      dir: root,
      url,
      figures: { basebackupMs, dataBytes, startMs },
      query,
      stop,
      async caughtUp(timeoutMs = 60_000) {
        const t = Date.now();
        const [{ lsn }] = await primaryQuery<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS lsn');
        for (;;) {
          const [{ done }] = await query<{ done: boolean }>('SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS done', [
            lsn,
          ]);
          if (done) return Date.now() - t;
          if (Date.now() - t > timeoutMs) {
            const log = existsSync(join(root, 'log')) ? readFileSync(join(root, 'log'), 'utf8').slice(-2000) : '';
            throw new Error(`the replica did not replay ${lsn} in ${timeoutMs} ms${log ? `\nreplica log:\n${log}` : ''}`);
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      },
      async pause() {
        await query('SELECT pg_wal_replay_pause()');
        for (let i = 0; i < 500; i++) {
          const [{ s }] = await query<{ s: string }>('SELECT pg_get_wal_replay_pause_state() AS s');
          if (s === 'paused') return;
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error('the replica did not pause its replay');
      },
      async resume() {
        await query('SELECT pg_wal_replay_resume()');
      },
    };
  } catch (err) {
    const log = existsSync(join(root, 'log')) ? readFileSync(join(root, 'log'), 'utf8').slice(-2000) : '';
    await stop();
    throw new Error(`${(err as Error).message}${log ? `\nreplica log:\n${log}` : ''}`, { cause: err });
  }
}

const SLOT_PREFIX = 'ecofond_test_replica_';

/**
 * Drops the slots an earlier run left behind (a test process killed before its `stop()`): an
 * inactive slot of this prefix whose process is gone. A leaked slot would keep the primary's WAL
 * for ever (max_slot_wal_keep_size is -1 by default).
 */
async function dropStaleSlots(url: string): Promise<void> {
  const slots = await primaryQuery<{ slot_name: string }>(
    url,
    `SELECT slot_name FROM pg_replication_slots WHERE slot_name LIKE '${SLOT_PREFIX}%' AND NOT active`,
  );
  for (const { slot_name: name } of slots) {
    const pid = Number(name.slice(SLOT_PREFIX.length).split('_')[0]);
    if (pid && pid !== process.pid && processAlive(pid)) continue;
    await primaryQuery(url, `SELECT pg_drop_replication_slot('${name}')`).catch(() => undefined);
  }
}

const gb = (n: number) => `${(n / 2 ** 30).toFixed(1)} GB`;

function binDir(major: number): string {
  return process.env.PG_BIN_DIR ?? `/usr/lib/postgresql/${major}/bin`;
}

async function primaryQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

/** The primary's refusal of a replication connection, or null when it accepts one. */
async function replicationRefused(url: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url, replication: 'true', connectionTimeoutMillis: 5000 } as pg.ClientConfig);
  try {
    await c.connect();
    await c.query('IDENTIFY_SYSTEM');
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Adds a replication entry for 127.0.0.1 to the primary's pg_hba.conf when this process may write
 * the file and the file already trusts 127.0.0.1 for every database, then reloads the server's
 * configuration (pg_reload_conf: no restart). False when it may not.
 */
async function allowReplication(url: string): Promise<boolean> {
  if (!['127.0.0.1', 'localhost'].includes(new URL(url).hostname)) return false;
  try {
    const [{ hba_file: file }] = await primaryQuery<{ hba_file: string }>(url, 'SHOW hba_file');
    accessSync(file, constants.W_OK);
    const text = readFileSync(file, 'utf8');
    if (!/^\s*host\s+all\s+all\s+127\.0\.0\.1\/32\s+trust\s*$/m.test(text)) return false;
    if (!/^\s*host\s+replication\s+\S+\s+127\.0\.0\.1\/32\s+trust\s*$/m.test(text)) {
      appendFileSync(
        file,
        `${text.endsWith('\n') ? '' : '\n'}# added by ecofond's test/replica.test.ts: a streaming replica of this server (pg_basebackup)\nhost replication all 127.0.0.1/32 trust\n`,
      );
    }
    await primaryQuery(url, 'SELECT pg_reload_conf()');
    await new Promise((r) => setTimeout(r, 500));
    return true;
  } catch {
    return false;
  }
}
