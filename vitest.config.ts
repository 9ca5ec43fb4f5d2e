import { defineConfig } from 'vitest/config';

// passwords hashed at scrypt's N=2^8, not production's 2^15, in every process the tests start:
// honoured only under NODE_ENV=test, which vitest sets (api/auth/password.ts, decisions/0090)
process.env.ECOFOND_TEST_PASSWORD_COST ??= '8';

export default defineConfig({
  test: {
    include: ['api/**/*.test.ts', 'cli/**/*.test.ts', 'seeds/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // after vitest's summary: the tests that did not run here and why (a skip is never a pass)
    reporters: ['default', './test/support/skip-reporter.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // a worker's files share its process and modules: the API's modules load once a worker, not once
    // a file (the run's import time 161 s → 21 s, the suite 460 s → 342 s on the 2-core machine);
    // each file still gets a database of its own, and the environment as the worker began
    isolate: false,
    setupFiles: ['test/support/env-reset.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
