import type { Knex } from 'knex';

/**
 * What this process's queue workers share (the notifications' and the jobs'): being woken when a
 * transaction that queued work for them commits, and their settings read from the environment.
 */

/** Callbacks to wake a worker: each queue has one set; `afterCommit` runs them once the writer's transaction commits (at once, next tick, outside one; never on a rollback). */
export class Wakers {
  private readonly fns = new Set<() => void>();

  /** A worker asks to be woken; the answer stops that. */
  on(fn: () => void): () => void {
    this.fns.add(fn);
    return () => {
      this.fns.delete(fn);
    };
  }

  afterCommit(db: Knex | Knex.Transaction): void {
    const done = (db as Knex.Transaction).executionPromise;
    const all = () => {
      for (const f of this.fns) f();
    };
    if ((db as Knex.Transaction).isTransaction && done) done.then(all, () => undefined);
    else setImmediate(all);
  }
}

/** A number from the environment, or the default when it is unset or not a number. */
export const envNumber = (v: string | undefined, d: number): number => (v && Number.isFinite(Number(v)) ? Number(v) : d);
