import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { processAlive, runTmpDir } from './run-tmp.mjs';

/**
 * Builds one migrated, seeded template database per run (see build-template.ts) so that each test
 * file gets a clean copy of its own quickly.
 */
export default async function setup(): Promise<() => Promise<void>> {
  process.env.ECOFOND_TEST_RUN = `${process.pid}`;
  // the run's temporary files — the tests' folders and those of the processes they start, which
  // all ask os.tmpdir() — in one folder of the run's own, removed with the run
  const runTmp = runTmpDir('ecofond-test-run-');
  await dropAbandoned(process.env.TEST_DATABASE_URL);
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./build-template.ts', import.meta.url))], {
    stdio: 'inherit',
    env: process.env,
  });
  const reaper = await startReaper(process.env.TEST_DATABASE_URL);
  return async () => {
    await reaper?.stop();
    // the run's template is dropped with the run
    const url = process.env.TEST_DATABASE_URL;
    const { PG_TEMPLATE_DB, PGLITE_TEMPLATE } = await import('./template.ts');
    if (url) {
      await dropAbandoned(url);
      const { default: knexFactory } = await import('knex');
      const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
      await admin.raw(`DROP DATABASE IF EXISTS ${PG_TEMPLATE_DB} WITH (FORCE)`).catch(() => undefined);
      await admin.destroy();
    } else {
      rmSync(PGLITE_TEMPLATE, { force: true });
    }
    runTmp.remove();
  };
}

/**
 * The databases of earlier runs on this machine whose process is gone (a run killed by a timeout
 * leaves its files' databases and its template behind): dropped, so that they do not pile up and
 * every whole-cluster copy (test/replica.test.ts's base backup) stays small. Only on a server of
 * this machine, where a name's process id can be asked about; a database whose process still runs
 * (another run beside this one) is kept.
 */
async function dropAbandoned(url: string | undefined): Promise<void> {
  if (!url) return;
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(host)) return;
  const { default: knexFactory } = await import('knex');
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    const { rows } = await admin.raw("SELECT datname FROM pg_database WHERE datname ~ '^ecofond_(t|test_template)_[0-9]+(_|$)'");
    for (const { datname } of rows as { datname: string }[]) {
      const pid = Number(/^ecofond_(?:t|test_template)_(\d+)/.exec(datname)?.[1]);
      if (pid && !processAlive(pid)) await admin.raw(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
    }
  } catch {
    // a server that cannot be asked: the run goes on, as before
  } finally {
    await admin.destroy();
  }
}

/**
 * Drops the test files' databases they are done with (db.ts marks each with DONE as it closes),
 * every two seconds, all of them at once. On PostgreSQL 15 each DROP DATABASE waits for a
 * checkpoint (which writes every dirty buffer of the server); drops that wait together share one,
 * and none of them holds a test file up. A file killed before it closed leaves its database to the
 * next run's dropAbandoned.
 */
async function startReaper(url: string | undefined): Promise<{ stop(): Promise<void> } | undefined> {
  if (!url) return undefined;
  const { DONE } = await import('./template.ts');
  const { default: knexFactory } = await import('knex');
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 8 } });
  let running: Promise<void> | undefined;
  const reap = async () => {
    const { rows } = await admin.raw(
      "SELECT datname FROM pg_database d WHERE datname ~ '^ecofond_t_[0-9]+_' AND shobj_description(d.oid, 'pg_database') = ?",
      [DONE],
    );
    await Promise.all(
      (rows as { datname: string }[]).map(({ datname }) =>
        admin.raw(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined),
      ),
    );
  };
  const tick = () => {
    // one reaping at a time; a tick that finds one under way is skipped
    running ??= reap()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(tick, 2000);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await tick();
      await admin.destroy();
    },
  };
}
