import type { TestOptions } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test cannot run here; test/support/skip-reporter.ts lists it after the summary. */
    skipReason?: string;
  }
}

/**
 * The options of a `describe` or `it` that cannot run everywhere: given a reason (a missing
 * PostgreSQL server, pgbouncer, openssl…) it is skipped and the reason goes with it to the run's
 * summary ("Skipped, and why"); given none it runs.
 *
 *   describe('two API processes …', skipBecause(url ? undefined : 'no PostgreSQL server'), () => { … });
 *
 * Inside a running test, `ctx.skip(reason)` does the same.
 */
export function skipBecause(reason: string | false | null | undefined): TestOptions {
  return reason ? { skip: true, meta: { skipReason: reason } } : {};
}

/** The reason for tests that need a PostgreSQL server (TEST_DATABASE_URL), not the embedded PGlite. */
export function needsPostgres(what: string): string | undefined {
  return process.env.TEST_DATABASE_URL ? undefined : `no PostgreSQL server: TEST_DATABASE_URL is not set (${what})`;
}
