import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { MetaModel } from '../meta/types.ts';
import { dataDir } from '../db/connection.ts';
import { principalForUser } from '../auth/sessions.ts';
import { jobSetting } from '../auth/config.ts';
import { ApiError } from '../kernel/errors.ts';
import { JOB_CANCELLED, jobKind, jobKinds, LOCAL_RUNS, onJobQueued, storedError, type JobRow } from './queue.ts';
import { envNumber } from '../db/worker-support.ts';
import { removeExpiredKeys } from '../engine/idempotency.ts';
import { auditRetentionMonths, dropExpiredAuditMonths, ensureAuditMonths } from '../db/audit-partitions.ts';

export interface JobWorkerOptions {
  /** how often the queue is looked at when nothing wakes the worker (ms) */
  pollMs?: number;
  /** how long a taken job is this worker's before another may take it again (a worker that died) */
  leaseMs?: number;
  /** how often a running job's progress is written, its lease renewed and a cancel looked for (ms) */
  heartbeatMs?: number;
  /** jobs run at once by this worker */
  concurrency?: number;
  /** takes of one job (a worker died holding it each time) before it is failed */
  maxAttempts?: number;
  /** how often expired jobs' files and rows are removed (ms) */
  cleanupMs?: number;
  log?: (line: string) => void;
}

/** The worker's settings from the environment (docs/jobs.md). */
export function jobWorkerOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): JobWorkerOptions {
  return {
    pollMs: envNumber(env.ECOFOND_JOBS_POLL_MS, 2000),
    leaseMs: envNumber(env.ECOFOND_JOBS_LEASE_MS, 60_000),
    heartbeatMs: envNumber(env.ECOFOND_JOBS_HEARTBEAT_MS, 1000),
    concurrency: envNumber(env.ECOFOND_JOBS_CONCURRENCY, 1),
    maxAttempts: envNumber(env.ECOFOND_JOBS_MAX_ATTEMPTS, 3),
    cleanupMs: envNumber(env.ECOFOND_JOBS_CLEANUP_MS, 10 * 60_000),
  };
}

/** Where jobs' files are kept: ECOFOND_DATA_DIR/jobs. */
export const jobsDir = () => join(dataDir(), 'jobs');

/** Why a running job's signal was aborted. */
const CANCELLED = JOB_CANCELLED;
const LOST = Object.freeze(new Error('the job was taken by another worker (its lease ended)'));
const STOPPING = Object.freeze(new Error('the worker is stopping'));

/**
 * The jobs' worker: takes a queued job — or a running one whose lease ended, its worker having
 * died — with `FOR UPDATE SKIP LOCKED` (any number of workers, in one process or many), runs its
 * kind as its owner as they stand now, renews its lease and writes its progress every heartbeat
 * (reading back a cancel), and ends it done (its file renamed into place), failed (the reason
 * kept), or cancelled. A worker that stops puts its running jobs back in the queue. Expired jobs'
 * files and rows are removed every `cleanupMs`, with the audit trail's month partitions made ahead
 * and dropped past their retention (api/db/audit-partitions.ts). Runs the same on PostgreSQL and on PGlite.
 */
export class JobWorker {
  readonly o: Required<Omit<JobWorkerOptions, 'log'>>;
  private readonly log: (line: string) => void;
  private slots = 0;
  private again = false;
  private stopped = true;
  /** set by stop(): loops end after their job */
  private halted = false;
  private timer: NodeJS.Timeout | null = null;
  private cleaner: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly runs = new Map<number, { ac: AbortController; done: Promise<void> }>();
  private loops = new Set<Promise<void>>();

  constructor(
    private readonly knex: Knex,
    private readonly model: () => MetaModel,
    opts: JobWorkerOptions = jobWorkerOptionsFromEnv(),
  ) {
    this.o = {
      pollMs: opts.pollMs ?? 2000,
      leaseMs: opts.leaseMs ?? 60_000,
      heartbeatMs: opts.heartbeatMs ?? 1000,
      concurrency: Math.max(1, opts.concurrency ?? 1),
      maxAttempts: opts.maxAttempts ?? 3,
      cleanupMs: opts.cleanupMs ?? 10 * 60_000,
    };
    this.log = opts.log ?? (() => undefined);
  }

  start(): this {
    if (!this.stopped) return this;
    this.stopped = false;
    this.halted = false;
    this.unsubscribe = onJobQueued(() => this.wake());
    this.wake();
    const clean = () => {
      this.cleanup()
        .catch((err) => this.log(`jobs: cleanup: ${(err as Error).message}`))
        .finally(() => {
          if (this.stopped) return;
          this.cleaner = setTimeout(clean, this.o.cleanupMs);
          this.cleaner.unref?.();
        });
    };
    clean();
    return this;
  }

  /** Stops taking jobs; running ones stop at their next batch and go back to the queue for the next worker. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.halted = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    if (this.cleaner) clearTimeout(this.cleaner);
    for (const r of this.runs.values()) r.ac.abort(STOPPING);
    await Promise.all([...this.loops]);
  }

  /** Looks at the queue now: fills free slots with loops that take jobs until none is due. */
  wake(): void {
    if (this.stopped) return;
    if (this.slots >= this.o.concurrency) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.slots++;
    const loop: Promise<void> = this.drain()
      .then(() => undefined)
      .catch((err) => this.log(`jobs: ${(err as Error).message}`))
      .finally(() => {
        this.slots--;
        this.loops.delete(loop);
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
          return;
        }
        if (!this.timer && this.slots === 0) {
          this.timer = setTimeout(() => {
            this.timer = null;
            this.wake();
          }, this.o.pollMs);
          this.timer.unref?.();
        }
      });
    this.loops.add(loop);
    // another free slot looks too: several jobs may be due
    if (this.slots < this.o.concurrency)
      setImmediate(() => {
        if (this.slots < this.o.concurrency) this.wake();
      });
  }

  /** Takes and runs jobs until none is due. Answers how many ran. */
  async drain(): Promise<number> {
    let n = 0;
    for (;;) {
      if (this.halted) return n;
      const job = await this.claim();
      if (!job) return n;
      await this.run(job);
      n++;
    }
  }

  /** Takes the oldest due job of a kind this process knows, under a fresh lease and run token. */
  async claim(): Promise<JobRow | null> {
    const kinds = jobKinds();
    if (!kinds.length) return null;
    const k = this.knex;
    for (;;) {
      const due = k('jobs')
        .select('id')
        .whereIn('kind', kinds)
        .where((w) => w.where('state', 'queued').orWhere((r) => r.where('state', 'running').where('lease_until', '<', k.fn.now())))
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked();
      const [job] = (await k('jobs')
        .whereIn('id', due)
        .update({
          state: 'running',
          run_token: randomUUID(),
          attempts: k.raw('attempts + 1'),
          started_at: k.fn.now(),
          lease_until: k.raw('now() + make_interval(secs => ?::float8 / 1000)', [this.o.leaseMs]),
        })
        .returning('*')) as JobRow[];
      if (!job) return null;
      if (job.attempts > this.o.maxAttempts) {
        // taken this many times, each time its worker died: it is not taken again
        await this.end(job, 'failed', { error: JSON.stringify({ kind: 'system', code: -201, key: 'errors.job_interrupted' }) });
        continue;
      }
      return job;
    }
  }

  /** Runs one taken job to its end. */
  async run(job: JobRow): Promise<void> {
    const k = this.knex;
    const id = Number(job.id);
    const ac = new AbortController();
    let settle!: () => void;
    this.runs.set(id, {
      ac,
      done: new Promise<void>((r) => {
        settle = r;
      }),
    });
    LOCAL_RUNS.set(id, ac);
    let done = Number(job.progress_done);
    let total = job.progress_total == null ? null : Number(job.progress_total);
    let beating: Promise<void> = Promise.resolve();
    const beat = () => {
      beating = beating
        .then(async () => {
          if (ac.signal.aborted) return;
          const rows = await k('jobs')
            .where({ id, run_token: job.run_token, state: 'running' })
            .update({
              progress_done: done,
              progress_total: total,
              lease_until: k.raw('now() + make_interval(secs => ?::float8 / 1000)', [this.o.leaseMs]),
            })
            .returning('cancel_requested');
          if (!rows.length) ac.abort(LOST);
          else if (rows[0].cancel_requested) ac.abort(CANCELLED);
        })
        .catch((err) => this.log(`jobs: job ${id}: heartbeat: ${(err as Error).message}`));
    };
    const heart = setInterval(beat, this.o.heartbeatMs);
    heart.unref?.();
    type File = { part: string; path: string; name: string; mime: string; stream: WriteStream };
    const held: { file: File | null } = { file: null };
    const dropFile = () => {
      const file = held.file;
      if (!file) return;
      if (!file.stream.destroyed) file.stream.destroy();
      for (const p of [file.part, file.path])
        if (existsSync(p))
          try {
            unlinkSync(p);
          } catch {
            /* gone */
          }
    };
    try {
      if (job.cancel_requested) throw CANCELLED;
      const run = jobKind(job.kind);
      if (!run) throw new Error(`no job kind "${job.kind}"`);
      // the owner as they stand now: a blocked user's job fails, a narrowed scope applies
      const principal = await principalForUser(k, Number(job.user_id));
      const result = await run({
        id,
        principal,
        params: job.params ?? {},
        lang: job.lang,
        knex: k,
        model: this.model(),
        signal: ac.signal,
        progress: (d, t) => {
          done = d;
          if (t !== undefined) total = t;
        },
        output: (name, mime) => {
          if (held.file) throw new Error('a job writes one file');
          mkdirSync(jobsDir(), { recursive: true });
          const ext = /\.[a-z0-9]{1,10}$/i.exec(name)?.[0] ?? '';
          const path = join(jobsDir(), `${id}-${job.run_token}${ext}`);
          held.file = {
            part: `${path}.part`,
            path,
            name: name.replace(/["\\\r\n/]/g, '_').slice(0, 255),
            mime,
            stream: createWriteStream(`${path}.part`),
          };
          // a writer that fails destroys the stream with its error: the kind's promise carries it, not an 'error' event nobody hears
          held.file.stream.on('error', () => undefined);
          return held.file.stream;
        },
      });
      if (ac.signal.aborted) throw ac.signal.reason;
      const f = held.file;
      if (f) {
        if (!f.stream.writableEnded) f.stream.end();
        await finished(f.stream);
        renameSync(f.part, f.path);
      }
      await beating;
      const hours = await jobSetting(k, 'jobs.keep_hours');
      const ended = await this.end(
        job,
        'done',
        {
          progress_done: done,
          progress_total: total === null ? null : Math.max(total, done),
          result: result ? JSON.stringify(result) : null,
          ...(f
            ? {
                result_path: f.path.slice(dataDir().length + 1),
                result_name: f.name,
                result_mime: f.mime,
                result_size: statSync(f.path).size,
              }
            : {}),
        },
        hours,
      );
      if (!ended) dropFile();
    } catch (err) {
      dropFile();
      const reason = ac.signal.aborted ? ac.signal.reason : null;
      await beating;
      if (reason === LOST) this.log(`jobs: job ${id} was taken by another worker`);
      else if (reason === STOPPING)
        await k('jobs')
          .where({ id, run_token: job.run_token, state: 'running' })
          .update({ state: 'queued', lease_until: null, run_token: null, attempts: k.raw('greatest(attempts - 1, 0)') });
      else if (reason === CANCELLED || err === CANCELLED)
        await this.end(job, 'cancelled', { progress_done: done }, await jobSetting(k, 'jobs.keep_hours'));
      else {
        if (!(err instanceof ApiError)) this.log(`jobs: job ${id} (${job.kind}) failed: ${(err as Error)?.stack ?? err}`);
        await this.end(
          job,
          'failed',
          { progress_done: done, error: JSON.stringify(storedError(err)) },
          await jobSetting(k, 'jobs.keep_hours'),
        );
      }
    } finally {
      clearInterval(heart);
      LOCAL_RUNS.delete(id);
      this.runs.delete(id);
      settle();
    }
  }

  /** Ends a job this worker holds (its run token): answers false when another worker holds it now. */
  private async end(job: JobRow, state: 'done' | 'failed' | 'cancelled', set: Record<string, unknown>, keepHours = 24): Promise<boolean> {
    const k = this.knex;
    const n = await k('jobs')
      .where({ id: job.id, run_token: job.run_token, state: 'running' })
      .update({
        ...set,
        state,
        finished_at: k.fn.now(),
        lease_until: null,
        expires_at: k.raw('now() + make_interval(secs => ?::float8)', [keepHours * 3600]),
      });
    return n > 0;
  }

  /**
   * Removes expired jobs — the file, then the row — and files of the jobs folder no job names
   * (a worker that died between the two) once they are older than a day. Answers the rows removed.
   */
  async cleanup(): Promise<number> {
    const k = this.knex;
    let n = 0;
    for (;;) {
      const gone = (await k('jobs')
        .whereIn('id', k('jobs').select('id').where('expires_at', '<=', k.fn.now()).limit(500).forUpdate().skipLocked())
        .delete()
        .returning(['id', 'result_path'])) as { id: number; result_path: string | null }[];
      for (const g of gone) {
        if (!g.result_path) continue;
        const p = join(dataDir(), g.result_path);
        if (existsSync(p))
          try {
            unlinkSync(p);
          } catch {
            /* already gone */
          }
      }
      n += gone.length;
      if (gone.length < 500) break;
    }
    // idempotency keys past their days (docs/field-app.md): a retry after that is a new create
    await removeExpiredKeys(k);
    // the audit trail's coming months, and the months past its retention (docs/operations.md)
    // (a failure here, a wrong setting among them, is logged and leaves the jobs' files cleanup to run)
    try {
      const made = await ensureAuditMonths(k);
      const dropped = await dropExpiredAuditMonths(k, auditRetentionMonths());
      if (made.length || dropped.length) this.log(`audit: partitions made ${made.join(', ') || '-'}, dropped ${dropped.join(', ') || '-'}`);
    } catch (err) {
      this.log(`audit: partitions: ${(err as Error).message}`);
    }
    const dir = jobsDir();
    if (existsSync(dir)) {
      const files = readdirSync(dir);
      const ids = [...new Set(files.map((f) => Number(/^(\d+)-/.exec(f)?.[1])).filter((x) => Number.isSafeInteger(x) && x > 0))];
      const known = new Set<number>();
      for (let i = 0; i < ids.length; i += 1000) {
        for (const r of await k('jobs')
          .whereIn('id', ids.slice(i, i + 1000))
          .select('id'))
          known.add(Number(r.id));
      }
      const old = Date.now() - 24 * 3600_000;
      for (const f of files) {
        const id = Number(/^(\d+)-/.exec(f)?.[1]);
        const p = join(dir, f);
        if (known.has(id) || this.runs.has(id)) continue;
        try {
          if (statSync(p).mtimeMs < old) unlinkSync(p);
        } catch {
          /* gone */
        }
      }
    }
    return n;
  }
}
