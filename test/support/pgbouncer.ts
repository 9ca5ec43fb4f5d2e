import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './ports.ts';
import { postgresIds } from './os-user.ts';

/** Where Debian's package puts it; PGBOUNCER overrides. */
const BINARY = process.env.PGBOUNCER || '/usr/sbin/pgbouncer';

/**
 * A PgBouncer in transaction mode in front of one database of the local server, for a test
 * (docs/scaling.md): its own configuration in a temporary directory, a free port, `pool_size`
 * server connections at most for any number of clients. Only what a test needs: the binary
 * (Debian's `pgbouncer`), and, as root, the `postgres` OS user to run it as (it refuses root).
 */
export interface Bouncer {
  port: number;
  /** the URL of the database through the bouncer */
  url: string;
  /** a command of its admin console (SHOW POOLS, SHOW STATS…), answered as rows */
  show<T extends pg.QueryResultRow = pg.QueryResultRow>(command: string): Promise<T[]>;
  stop(): Promise<void>;
}

/** Why a PgBouncer cannot be started here, or null when it can. */
export async function bouncerUnavailable(databaseUrl: string | undefined): Promise<string | null> {
  if (!databaseUrl) return 'TEST_DATABASE_URL is not set: the test needs a PostgreSQL server behind the bouncer';
  if (!existsSync(BINARY)) return `${BINARY} is not installed (apt-get install pgbouncer; PGBOUNCER names another path)`;
  if (process.getuid?.() === 0) {
    if (!(await postgresIds())) return 'running as root and there is no postgres OS user to run pgbouncer as (it refuses root)';
  }
  return null;
}

/** Starts a bouncer in transaction mode before `databaseUrl`'s database; resolves once it accepts connections. */
export async function startBouncer(databaseUrl: string, poolSize: number): Promise<Bouncer> {
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username || 'postgres');
  const database = target.pathname.slice(1);
  const root = mkdtempSync(join(tmpdir(), 'ecofond-pgbouncer-'));
  const port = await freePort();
  const ini = join(root, 'pgbouncer.ini');
  writeFileSync(
    ini,
    [
      '[databases]',
      `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database} user=${user}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(root, 'users.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'min_pool_size = 0',
      'reserve_pool_size = 0',
      'max_client_conn = 500',
      'server_lifetime = 3600',
      'log_connections = 0',
      'log_disconnections = 0',
    ].join('\n') + '\n',
  );
  writeFileSync(join(root, 'users.txt'), `"${user}" ""\n`);
  const ids = process.getuid?.() === 0 ? await postgresIds() : null;
  if (ids) for (const f of [root, ini, join(root, 'users.txt')]) chownSync(f, ids.uid, ids.gid);
  const child: ChildProcess = spawn(BINARY, [ini], { ...(ids ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
  });
  child.stderr!.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((r) => {
        child.once('exit', () => r());
        child.kill('SIGINT');
        setTimeout(() => {
          child.kill('SIGKILL');
          r();
        }, 5000).unref();
      });
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const until = Date.now() + 20_000;
    while (!(await accepts(port))) {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited ${child.exitCode}`);
      if (Date.now() > until) throw new Error('pgbouncer did not listen within 20 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\npgbouncer's log:\n${log}`, { cause: err });
  }
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    port,
    url: url.toString(),
    stop,
    async show<T extends pg.QueryResultRow>(command: string): Promise<T[]> {
      // the admin console speaks the simple protocol only: a query without parameters
      const c = new pg.Client({ host: '127.0.0.1', port, user, database: 'pgbouncer' });
      await c.connect();
      try {
        return (await c.query<T>(command)).rows;
      } finally {
        await c.end();
      }
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
