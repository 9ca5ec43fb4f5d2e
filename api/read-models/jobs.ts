import type { Knex } from 'knex';
import type { Principal } from '../auth/ability.ts';
import type { JobRow } from '../jobs/queue.ts';

/**
 * One's own background jobs (the `jobs` table, the queue's: docs/jobs.md, docs/decisions/0013).
 * Every read and the cancel are held to the owner: another's job does not exist for them.
 */

/** The caller's jobs. */
export const ownJobs = (knex: Knex, owner: Pick<Principal, 'id'>): Knex.QueryBuilder => knex('jobs').where({ user_id: owner.id });

/** One of the caller's jobs, or undefined. */
export async function ownJob(knex: Knex, owner: Pick<Principal, 'id'>, id: number): Promise<JobRow | undefined> {
  return (await ownJobs(knex, owner).where({ id }).first()) as JobRow | undefined;
}

/**
 * Cancels one of the caller's jobs: a queued one at once (kept `keepHours`), a running one asked to
 * stop. Answers the parameters of a job that was queued (its kept upload goes), else undefined.
 */
export async function cancelOwnJob(
  knex: Knex,
  owner: Pick<Principal, 'id'>,
  id: number,
  keepHours: number,
): Promise<Record<string, unknown> | undefined> {
  const [queued] = await ownJobs(knex, owner)
    .where({ id, state: 'queued' })
    .update({
      state: 'cancelled',
      cancel_requested: true,
      finished_at: knex.fn.now(),
      expires_at: knex.raw('now() + make_interval(secs => ?::float8)', [keepHours * 3600]),
    })
    .returning('params');
  await ownJobs(knex, owner).where({ id, state: 'running' }).update({ cancel_requested: true });
  return queued?.params;
}
