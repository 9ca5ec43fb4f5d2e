import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { RouteHandler } from '../types.ts';
import type { AppContext } from '../../http/middleware.ts';
import type { Principal } from '../../auth/ability.ts';
import { ApiError, badParam, notFound } from '../../kernel/errors.ts';
import { dataDir } from '../../db/connection.ts';
import { jobSetting } from '../../auth/config.ts';
import { JOB_CANCELLED, jobView, LOCAL_RUNS, type JobRow } from '../../jobs/queue.ts';
import { dropQueuedFile } from '../../jobs/job-files.ts';
import { cancelOwnJob, ownJob as readOwnJob, ownJobs } from '../../read-models/jobs.ts';

/**
 * One's own background jobs (docs/jobs.md): the list, one job's progress, cancelling, and the
 * file. Every call sees the caller's own jobs only: another's job does not exist for them (404).
 */

const mine = ownJobs;

async function ownJob(knex: Knex, p: Principal, id: number): Promise<JobRow> {
  const job = await readOwnJob(knex, p, id);
  if (!job) throw notFound();
  return job;
}

function pageOf(ctx: AppContext): { limit: number; offset: number } {
  const page = ctx.query.page === undefined ? 1 : Number(ctx.query.page);
  const perPage = ctx.query.perPage === undefined ? 20 : Number(ctx.query.perPage);
  if (!Number.isSafeInteger(page) || page < 1 || page > 100_000) throw badParam('page');
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > 100) throw badParam('perPage');
  return { limit: perPage, offset: (page - 1) * perPage };
}

const expired = (j: JobRow) => j.expires_at != null && new Date(j.expires_at).getTime() <= Date.now();

export const JOB_HANDLERS: Record<string, RouteHandler> = {
  /** `?page=&perPage=`: newest first, with how many are still queued or running. */
  'jobs.mine': async (ctx, { knex, model, principal, lang }) => {
    const { limit, offset } = pageOf(ctx);
    const [rows, [{ n }], [{ a }]] = await Promise.all([
      mine(knex, principal!).orderBy('id', 'desc').limit(limit).offset(offset).select('*'),
      mine(knex, principal!).count<{ n: number }[]>({ n: '*' }),
      mine(knex, principal!).whereIn('state', ['queued', 'running']).count<{ a: number }[]>({ a: '*' }),
    ]);
    ctx.body = { data: (rows as JobRow[]).map((j) => jobView(model, lang, j)), total: Number(n), active: Number(a) };
  },

  'jobs.one': async (ctx, { knex, model, principal, lang, params }) => {
    const id = params.job as number;
    ctx.body = jobView(model, lang, await ownJob(knex, principal!, id));
  },

  /**
   * A queued job is cancelled at once (an import's kept file removed); a running one is asked to stop — in this process at once,
   * in another at its worker's next heartbeat — and stops at its next batch. Cancelling a cancelled
   * job changes nothing; a finished one cannot be (409).
   */
  'jobs.cancel': async (ctx, { knex, model, principal, lang, params }) => {
    const id = params.job as number;
    const job = await ownJob(knex, principal!, id);
    if (job.state === 'done' || job.state === 'failed') throw new ApiError('workflow', 'errors.job_finished');
    if (job.state !== 'cancelled') {
      const hours = await jobSetting(knex, 'jobs.keep_hours');
      const queued = await cancelOwnJob(knex, principal!, id, hours);
      // it never runs: an import's kept upload goes now
      if (queued) dropQueuedFile(queued);
      LOCAL_RUNS.get(id)?.abort(JOB_CANCELLED);
    }
    ctx.body = jobView(model, lang, await ownJob(knex, principal!, id));
  },

  /** The job's file, to its owner only; not ready: 409; expired (or removed): 404 saying so. */
  'jobs.file': async (ctx, { knex, principal, params }) => {
    const id = params.job as number;
    const job = await ownJob(knex, principal!, id);
    if (job.state !== 'done')
      throw new ApiError(
        job.state === 'queued' || job.state === 'running' ? 'workflow' : 'notFound',
        job.state === 'queued' || job.state === 'running' ? 'errors.job_not_ready' : 'errors.notFound',
      );
    const file = job.result_path ? join(dataDir(), job.result_path) : null;
    if (!file || expired(job) || !existsSync(file)) throw new ApiError('notFound', 'errors.job_expired');
    ctx.type = job.result_mime ?? 'application/octet-stream';
    ctx.set(
      'Content-Disposition',
      `attachment; filename="${job.result_name}"; filename*=UTF-8''${encodeURIComponent(job.result_name ?? 'export')}`,
    );
    ctx.set('Content-Length', String(job.result_size));
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.body = createReadStream(file);
  },
};
