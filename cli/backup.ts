import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * `ecofond backup` / `ecofond restore` for the embedded database (docs/operations.md): a single
 * machine's install keeps everything in ECOFOND_DATA_DIR — the database in `pgdata/` and the files
 * (uploads, issued documents, job files) beside it — so one archive holds both, taken together
 * while the server is stopped and therefore consistent: the database as PGlite dumps it
 * (`pgdata.tar.gz`) and the folder's files as they are, with a manifest. A server install backs up
 * with pgBackRest instead (ops/pgbackrest.sh).
 */
export interface BackupManifest {
  format: 1;
  madeAt: string;
  /** the last migration the database had run */
  migration: string | null;
  files: number;
  databaseBytes: number;
}

const DUMP = 'pgdata.tar.gz';

/**
 * The embedded database opened by itself, without knex's pool: a pool gives up creating its one
 * connection after 30 s, and PGlite's start on a busy machine (or a first load of a dump) can take longer.
 */
async function embedded(dir: string, loadDataDir?: Blob) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  mkdirSync(join(dir, 'pgdata'), { recursive: true });
  const db = new PGlite({ dataDir: join(dir, 'pgdata'), loadDataDir, extensions: { pg_trgm } });
  await db.waitReady;
  return db;
}
const MANIFEST = 'ecofond-backup.json';

function countFiles(dir: string, skip = new Set<string>()): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(e.name)) continue;
    n += e.isDirectory() ? countFiles(join(dir, e.name)) : 1;
  }
  return n;
}

function refuseServer(env: NodeJS.ProcessEnv): void {
  if (env.DATABASE_URL)
    throw new Error(
      'DATABASE_URL is set: a PostgreSQL server is backed up with pgBackRest (ops/pgbackrest.sh, docs/operations.md), not with ecofond backup',
    );
}

/** Writes `archive` (.tar.gz): the embedded database of `dataDir` and its files. Stop the server first. */
export async function backupEmbedded(dataDir: string, archive: string, env: NodeJS.ProcessEnv = process.env): Promise<BackupManifest> {
  refuseServer(env);
  const dir = resolve(dataDir);
  if (!existsSync(join(dir, 'pgdata', 'PG_VERSION'))) throw new Error(`${dir} holds no embedded database (pgdata/)`);
  const staging = mkdtempSync(join(tmpdir(), 'ecofond-backup-'));
  try {
    const db = await embedded(dir);
    let migration: string | null = null;
    let dump: Blob;
    try {
      const done = await db
        .query<{ name: string }>('SELECT name FROM knex_migrations ORDER BY id DESC LIMIT 1')
        .catch(() => ({ rows: [] }));
      migration = done.rows[0]?.name ?? null;
      dump = await db.dumpDataDir('gzip');
    } finally {
      await db.close();
    }
    writeFileSync(join(staging, DUMP), Buffer.from(await dump.arrayBuffer()));
    const manifest: BackupManifest = {
      format: 1,
      madeAt: new Date().toISOString(),
      migration,
      files: countFiles(dir, new Set(['pgdata'])),
      databaseBytes: dump.size,
    };
    writeFileSync(join(staging, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    const out = resolve(archive);
    mkdirSync(dirname(out), { recursive: true });
    // the manifest and the dump, then every file of the folder but the live database's
    await run('tar', ['-czf', out, '-C', staging, MANIFEST, DUMP, '-C', dir, '--exclude=./pgdata', '.'], { maxBuffer: 16 * 2 ** 20 });
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Restores an archive of `backupEmbedded` into `dataDir`: refused when it already holds a database,
 * unless `replace`, when the folder is first moved aside to `<dataDir>.replaced-<time>` (kept).
 */
export async function restoreEmbedded(
  archive: string,
  dataDir: string,
  o: { replace?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<BackupManifest & { replacedTo?: string }> {
  refuseServer(o.env ?? process.env);
  const src = resolve(archive);
  if (!existsSync(src) || !statSync(src).isFile()) throw new Error(`${src}: no such archive`);
  const dir = resolve(dataDir);
  let replacedTo: string | undefined;
  if (existsSync(dir) && readdirSync(dir).length) {
    if (!o.replace) throw new Error(`${dir} is not empty: restore into an empty folder, or pass --replace to move it aside first`);
    replacedTo = `${dir}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(dir, replacedTo);
  }
  mkdirSync(dir, { recursive: true });
  await run('tar', ['-xzf', src, '-C', dir], { maxBuffer: 16 * 2 ** 20 });
  const manifestFile = join(dir, MANIFEST);
  if (!existsSync(manifestFile) || !existsSync(join(dir, DUMP)))
    throw new Error(`${src} is not an ecofond backup (no ${MANIFEST} or ${DUMP})`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
  const dump = new Blob([readFileSync(join(dir, DUMP))]);
  const db = await embedded(dir, dump);
  try {
    await db.query('SELECT 1');
  } finally {
    await db.close();
  }
  rmSync(join(dir, DUMP));
  rmSync(manifestFile);
  return { ...manifest, ...(replacedTo ? { replacedTo } : {}) };
}
