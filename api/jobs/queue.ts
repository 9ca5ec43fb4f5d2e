import type { Writable } from 'node:stream';
import type { Knex } from 'knex';
import type { Lang, MetaModel, Text3 } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import { translate } from '../meta/captions.ts';
import { ApiError } from '../kernel/errors.ts';
import { Wakers } from '../db/worker-support.ts';

/**
 * Background jobs (docs/jobs.md): a table of requests (`jobs`), a registry of the kinds this
 * process can run, and the worker (worker.ts) that takes them one at a time with
 * `FOR UPDATE SKIP LOCKED`. Large exports are the first kind; an import registers its own.
 */

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** What a kind's run receives. */
export interface JobContext {
  id: number;
  /** the user who asked, as they stand now: their rights and scope when the job runs (a blocked user's job fails before it starts) */
  principal: Principal;
  /** what the job was queued with (JSON) */
  params: Record<string, unknown>;
  /** the language it was asked in (captions of the file) */
  lang: Lang;
  knex: Knex;
  /** the model answering now (reference books included) */
  model: MetaModel;
  /** how far it is: `done` of `total` (total may be unknown, or an estimate that `done` outgrows); written every second or so */
  progress(done: number, total?: number | null): void;
  /** aborted when the job is cancelled (or its worker stops or loses it): stop at the next batch, throwing `signal.reason` */
  signal: AbortSignal;
  /**
   * The job's result file, written as a stream: call once, write it whole and end it (or hand it
   * to a writer that does: `writeExport`); the worker keeps it until the job expires and gives it
   * to its owner only.
   */
  output(name: string, mime: string): Writable;
}

/** What a kind may answer: a JSON summary kept with the job (an import's counts); the file is what `output` received. */
export type JobRun = (ctx: JobContext) => Promise<Record<string, unknown> | void>;

const KINDS = new Map<string, JobRun>();

/**
 * Registers a kind of job this process can run (the worker takes only kinds it knows). A kind is
 * a name (`export`, `report-export`, `payments-import`…) and an async function; a failure it
 * throws is kept on the job — an ApiError with its caption key, arguments and field errors (the
 * first hundred, with their count), translated when the job is read, in the reader's language.
 */
export function registerJobKind(kind: string, run: JobRun): void {
  if (KINDS.has(kind) && KINDS.get(kind) !== run) throw new Error(`job kind "${kind}" is registered twice`);
  KINDS.set(kind, run);
}

export function jobKind(kind: string): JobRun | undefined {
  return KINDS.get(kind);
}

export function jobKinds(): string[] {
  return [...KINDS.keys()];
}

const wakers = new Wakers();
/** A worker asks to be woken when a job is queued in this process. */
export const onJobQueued = (fn: () => void): (() => void) => wakers.on(fn);

/** The reason a cancelled job's signal is aborted with (and the error a kind stopping for it may throw). */
export const JOB_CANCELLED = Object.freeze(new ApiError('workflow', 'errors.job_cancelled'));

/** Running jobs of this process by id: a cancel in this process stops them at once, not at the next lease renewal. */
export const LOCAL_RUNS = new Map<number, AbortController>();

export interface EnqueueInput {
  kind: string;
  userId: number;
  lang: Lang;
  params: Record<string, unknown>;
  /** what the job is, in the three languages (the list of one's jobs shows it) */
  title?: Text3 | null;
  /** the total when it is known (or estimated) at once */
  total?: number | null;
}

/** The states in which a job still waits for a worker or holds one: what `perUser` counts. */
export const ACTIVE_STATES: JobState[] = ['queued', 'running'];

/**
 * Queues a job (in the caller's transaction when given one) and wakes this process's worker after
 * it commits. With `perUser`, a user who already has that many jobs queued or running is refused
 * (429, nothing queued): the count and the insert are one transaction under an advisory lock on the
 * user, so parallel requests — through any server process — are counted one after another.
 */
export async function enqueueJob(db: Knex | Knex.Transaction, input: EnqueueInput, o: { perUser?: number } = {}): Promise<JobRow> {
  const insert = async (t: Knex | Knex.Transaction) =>
    (
      await t('jobs')
        .insert({
          kind: input.kind,
          user_id: input.userId,
          lang: input.lang,
          params: JSON.stringify(input.params),
          title: input.title ? JSON.stringify(input.title) : null,
          progress_total: input.total ?? null,
        })
        .returning('*')
    )[0] as JobRow;
  const { perUser } = o;
  const row =
    perUser === undefined
      ? await insert(db)
      : await db.transaction(async (trx) => {
          await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`jobs-user:${input.userId}`]);
          const [{ n }] = await trx('jobs')
            .where({ user_id: input.userId })
            .whereIn('state', ACTIVE_STATES)
            .count<{ n: number | string }[]>({ n: '*' });
          if (Number(n) >= perUser) throw new ApiError('tooManyAttempts', 'errors.jobs_too_many', { max: perUser });
          return insert(trx);
        });
  wakers.afterCommit(db);
  return row;
}

export interface JobRow {
  id: number;
  kind: string;
  user_id: number;
  lang: Lang;
  params: Record<string, unknown>;
  title: Text3 | null;
  state: JobState;
  progress_done: number | string;
  progress_total: number | string | null;
  cancel_requested: boolean;
  attempts: number;
  run_token: string | null;
  result_path: string | null;
  result_name: string | null;
  result_mime: string | null;
  result_size: number | string | null;
  result: Record<string, unknown> | null;
  error: StoredError | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  expires_at: Date | string | null;
}

/** A failure as the job keeps it: translated when read, so each reader sees it in their language. */
export interface StoredError {
  kind: string;
  code: number;
  key: string;
  args?: Record<string, unknown>;
  /** field (or row) errors, the first hundred */
  errors?: Record<string, { key: string; args?: Record<string, unknown> }>;
  /** how many field errors there were in all (an import's `error_count`) */
  count?: number;
  /** an import's rows with an error (`error_rows`) */
  rows?: number;
}

/** The first hundred field errors of a failure are kept, and their count. */
export const KEPT_ERRORS = 100;

export function storedError(err: unknown): StoredError {
  if (err instanceof ApiError) {
    const all = Object.entries(err.fieldErrors ?? {});
    // an import's refusal lists its first hundred errors and counts them all (importRowsError): the job keeps its counts, as the synchronous 400 answers them
    const count = typeof err.details?.error_count === 'number' ? err.details.error_count : all.length;
    const rows = typeof err.details?.error_rows === 'number' ? err.details.error_rows : undefined;
    return {
      kind: err.kind,
      code: err.code,
      key: err.messageKey,
      args: err.args,
      ...(all.length ? { errors: Object.fromEntries(all.slice(0, KEPT_ERRORS)), count, ...(rows !== undefined ? { rows } : {}) } : {}),
    };
  }
  return { kind: 'system', code: -201, key: 'errors.system' };
}

/** A job as its owner reads it: progress, the file when it is ready, the failure in the reader's language. */
export function jobView(model: MetaModel, lang: Lang, j: JobRow): Record<string, unknown> {
  const t = (key: string, args?: Record<string, unknown>) => translate(model, lang, key, args);
  const done = Number(j.progress_done);
  const total = j.progress_total == null ? null : Math.max(Number(j.progress_total), done);
  const expired = j.expires_at != null && new Date(j.expires_at).getTime() <= Date.now();
  return {
    id: Number(j.id),
    kind: j.kind,
    title: j.title ? j.title[lang] || j.title.uz : j.kind,
    state: j.state,
    progress: { done, total },
    cancel_requested: j.cancel_requested,
    file:
      j.state === 'done' && j.result_path && !expired ? { name: j.result_name, mime: j.result_mime, size: Number(j.result_size) } : null,
    result: j.result,
    error: j.error
      ? {
          code: j.error.code,
          message: t(j.error.key, j.error.args),
          // field errors as the synchronous 400 answers them: translated, with `error_count` and `error_rows` for an import's
          ...(j.error.errors
            ? {
                errors: Object.fromEntries(Object.entries(j.error.errors).map(([k, e]) => [k, t(e.key, e.args)])),
                count: j.error.count,
                ...(j.error.rows !== undefined ? { error_count: j.error.count, error_rows: j.error.rows } : {}),
              }
            : {}),
        }
      : null,
    created_at: j.created_at,
    started_at: j.started_at,
    finished_at: j.finished_at,
    expires_at: j.expires_at,
  };
}
