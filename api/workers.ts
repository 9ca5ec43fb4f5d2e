import type { Knex } from 'knex';
import { databaseFromEnv, type Database } from './db/connection.ts';
import { loadMetadata } from './meta/load.ts';
import { LiveModel } from './meta/live.ts';
import { NotificationWorker, workerOptionsFromEnv } from './notify/worker.ts';
import { JobWorker, jobWorkerOptionsFromEnv } from './jobs/worker.ts';
import { buildRegistry } from './registry.ts';
import { log as logger } from './observability/log.ts';

/**
 * The background workers a process runs (docs/jobs.md, docs/notifications.md): the notification
 * worker and the job worker (large exports and imports), each unless its variable says `off`
 * (`ECOFOND_NOTIFY_WORKER`, `ECOFOND_JOBS_WORKER`). `serve` runs them beside the API; `work` runs
 * them alone, without HTTP — a process of its own for the heavy jobs, started with the V8 flags
 * that keep an export's memory flat (docs/scaling.md) while the API processes keep the defaults
 * and set `ECOFOND_JOBS_WORKER=off`. Both read the live model (`live.current`), so a reference
 * book changed elsewhere is seen through the model's LISTEN. The live model carries the modules'
 * registry (api/registry.ts: the job kinds, the hooks a job's writes run, the workflow's listeners);
 * one given without is bound to the registry of every module here.
 */
export interface Workers {
  notify: boolean;
  jobs: boolean;
  stop(): Promise<void>;
}

export function startWorkers(knex: Knex, live: LiveModel, log: (line: string) => void): Workers {
  if (!live.modelSetup) live.use(buildRegistry());
  const notify =
    process.env.ECOFOND_NOTIFY_WORKER === 'off'
      ? null
      : new NotificationWorker(knex, { ...workerOptionsFromEnv(), log, model: () => live.current }).start();
  const jobs =
    process.env.ECOFOND_JOBS_WORKER === 'off'
      ? null
      : new JobWorker(knex, () => live.current, { ...jobWorkerOptionsFromEnv(), log }).start();
  return {
    notify: !!notify,
    jobs: !!jobs,
    stop: async () => {
      await notify?.stop();
      await jobs?.stop();
    },
  };
}

export interface Working {
  db: Database;
  live: LiveModel;
  stop(): Promise<void>;
}

/** `ecofond work`: the workers alone, on the database of the environment (or `db`, a test's). */
export async function startWorkProcess(opts: { db?: Database; log?: (line: string) => void } = {}): Promise<Working> {
  const log = opts.log ?? ((s: string) => logger.info(s));
  // the embedded database belongs to the one process that opened it
  if (!opts.db && !process.env.DATABASE_URL)
    throw new Error('ecofond work needs DATABASE_URL: the workers share a PostgreSQL server with the API processes');
  const model = loadMetadata();
  const db = opts.db ?? databaseFromEnv();
  const live = new LiveModel(model, db.knex, undefined, buildRegistry());
  await live.reload();
  if (db.listenUrl) await live.listen(db.listenUrl, log);
  const workers = startWorkers(db.knex, live, log);
  const onOff = (on: boolean) => (on ? 'on' : 'off');
  log(`ecofond workers: notifications ${onOff(workers.notify)}, jobs ${onOff(workers.jobs)}`);
  return {
    db,
    live,
    stop: async () => {
      await workers.stop();
      await live.close();
      if (!opts.db) await db.close();
    },
  };
}
