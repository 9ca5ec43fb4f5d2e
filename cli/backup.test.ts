import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { backupEmbedded, restoreEmbedded } from './backup.ts';

/**
 * `ecofond backup` / `restore` of a single machine's install (docs/operations.md): the embedded
 * database and the folder's files in one archive, restored together — the rows and files of the
 * backup's moment, none written after it — and the refusals: a server install, a folder that holds
 * data already (unless --replace, which keeps it aside).
 */
const root = mkdtempSync(join(tmpdir(), 'ecofond-embedded-backup-'));
const NO_SERVER = {};
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function withDb<T>(dir: string, fn: (q: (sql: string) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T> {
  // PGlite itself: knex's pool gives up on a start longer than 30 s, which a busy machine can take
  mkdirSync(join(dir, 'pgdata'), { recursive: true });
  const db = new PGlite({ dataDir: join(dir, 'pgdata') });
  await db.waitReady;
  try {
    return await fn(async (sql) => (await db.query<Record<string, unknown>>(sql)).rows);
  } finally {
    await db.close();
  }
}

describe('ecofond backup and restore of the embedded database', () => {
  it('restores the rows and files of the backup, none made after it', async () => {
    const data = join(root, 'data');
    await withDb(data, async (q) => {
      await q('CREATE TABLE knex_migrations (id serial PRIMARY KEY, name text)');
      await q("INSERT INTO knex_migrations (name) VALUES ('20261122000100_system.ts'), ('20261128000100_jobs.ts')");
      await q('CREATE TABLE kept (id int PRIMARY KEY, file text)');
      await q("INSERT INTO kept SELECT i, 'f' || i FROM generate_series(1, 500) i");
    });
    mkdirSync(join(data, 'uploads', 'ab'), { recursive: true });
    writeFileSync(join(data, 'uploads', 'ab', 'abc'), 'before');
    const archive = join(root, 'out', 'backup.tar.gz');
    const m = await backupEmbedded(data, archive, NO_SERVER);
    expect(m).toMatchObject({ format: 1, migration: '20261128000100_jobs.ts', files: 1 });
    // what happens after the backup
    await withDb(data, (q) => q("INSERT INTO kept VALUES (501, 'late')"));
    writeFileSync(join(data, 'uploads', 'ab', 'late'), 'after');

    const restored = join(root, 'restored');
    const r = await restoreEmbedded(archive, restored, { env: NO_SERVER });
    expect(r.madeAt).toBe(m.madeAt);
    const rows = await withDb(restored, (q) => q('SELECT count(*)::int AS n, max(id) AS top FROM kept'));
    expect(rows[0]).toEqual({ n: 500, top: 500 });
    expect(readFileSync(join(restored, 'uploads', 'ab', 'abc'), 'utf8')).toBe('before');
    expect(existsSync(join(restored, 'uploads', 'ab', 'late'))).toBe(false);
    expect(existsSync(join(restored, 'pgdata.tar.gz'))).toBe(false);

    // into a folder that holds data: refused, or moved aside with replace
    await expect(restoreEmbedded(archive, data, { env: NO_SERVER })).rejects.toThrow(/not empty/);
    const again = await restoreEmbedded(archive, data, { replace: true, env: NO_SERVER });
    expect(again.replacedTo).toBeTruthy();
    expect(existsSync(join(again.replacedTo!, 'uploads', 'ab', 'late'))).toBe(true);
    expect(existsSync(join(data, 'uploads', 'ab', 'late'))).toBe(false);
  }, 300_000);

  it("refuses a server install: that is pgBackRest's", async () => {
    await expect(backupEmbedded(join(root, 'x'), join(root, 'x.tar.gz'), { DATABASE_URL: 'postgres://x' })).rejects.toThrow(/pgBackRest/);
    await expect(restoreEmbedded(join(root, 'x.tar.gz'), join(root, 'y'), { env: { DATABASE_URL: 'postgres://x' } })).rejects.toThrow(
      /pgBackRest/,
    );
  });
});
