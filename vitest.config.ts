import { defineConfig } from 'vitest/config';

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
