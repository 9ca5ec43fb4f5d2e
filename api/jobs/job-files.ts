import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { enqueueJob, JOB_CANCELLED, type EnqueueInput, type JobRow } from './queue.ts';
import { jobsDir } from './worker.ts';

/**
 * What an import job does with its uploaded file (docs/jobs.md): the request keeps it beside the
 * jobs' files under a random name and queues the job naming it (the file removed again if the
 * queueing fails); the job reads it by that name, checked, and removes it when it ends — kept only
 * for a job that runs again (its worker stopping or losing it; not a cancel, a refusal or a
 * success). A job cancelled while still queued never runs: the cancel removes its file
 * (`dropQueuedFile`). The jobs' clean-up removes a file left a day.
 */
/** A kept file's name: its kind's prefix, a random UUID. */
const KEPT_NAME = /^([a-z]+)-[0-9a-f-]{36}\.xlsx$/;

export async function queueWithFile(knex: Knex, prefix: string, file: Uint8Array, job: EnqueueInput): Promise<JobRow> {
  mkdirSync(jobsDir(), { recursive: true });
  const name = `${prefix}-${randomUUID()}.xlsx`;
  writeFileSync(join(jobsDir(), name), file);
  try {
    return await enqueueJob(knex, { ...job, params: { ...job.params, file: name } });
  } catch (err) {
    unlinkSync(join(jobsDir(), name));
    throw err;
  }
}

/** Runs `use` with the job's kept file (undefined when it is gone) and removes the file after, as above. */
export async function withJobFile<T>(
  prefix: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
  use: (file: Buffer | undefined) => Promise<T>,
): Promise<T> {
  return withJobFilePath(prefix, params, signal, (path) => use(path === undefined ? undefined : readFileSync(path)));
}

/**
 * Runs `use` with the path of the job's kept file (undefined when it is gone), for a reader that
 * streams it from the disk rather than holding it, and removes the file after, as above.
 */
export async function withJobFilePath<T>(
  prefix: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
  use: (path: string | undefined) => Promise<T>,
): Promise<T> {
  const name = String(params.file);
  if (KEPT_NAME.exec(name)?.[1] !== prefix) throw new Error(`bad ${prefix} file name ${name}`);
  const path = join(jobsDir(), name);
  try {
    return await use(existsSync(path) ? path : undefined);
  } finally {
    const again = signal.aborted && signal.reason !== JOB_CANCELLED;
    if (!again && existsSync(path)) unlinkSync(path);
  }
}

/** A queued job cancelled before it ran: its kept file (`params.file`, one of ours by its name) goes now. */
export function dropQueuedFile(params: unknown): void {
  const name = (params as { file?: unknown } | null)?.file;
  if (typeof name !== 'string' || !KEPT_NAME.test(name)) return;
  const path = join(jobsDir(), name);
  if (existsSync(path)) unlinkSync(path);
}
