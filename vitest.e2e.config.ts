import { defineConfig } from 'vitest/config';

// passwords hashed at scrypt's N=2^8, not production's 2^15, in every process the tests start:
// honoured only under NODE_ENV=test, which vitest sets (api/auth/password.ts, decisions/0090)
process.env.ECOFOND_TEST_PASSWORD_COST ??= '8';

/**
 * The back-office's tests, apart from the API's (vitest.config.ts): unit tests of admin/src, and
 * the browser tests of e2e/ against a real server on a fresh embedded database, in headless
 * Debian Chromium (its headless shell where installed: e2e/server.ts `CHROMIUM`). `npm run test:e2e` builds admin/dist first and runs the
 * files in lanes side by side (e2e/run.mjs).
 */
export default defineConfig({
  test: {
    // after vitest's summary: the tests that did not run here and why (a skip is never a pass)
    reporters: ['default', './test/support/skip-reporter.ts'],
    projects: [
      {
        test: {
          name: 'admin-unit',
          // the unit tests of the faces and of the shared formatter (no server, no browser)
          include: ['admin/src/**/*.test.ts', 'shared/**/*.test.ts', 'public-site/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        // the back-office's browser tests, the sweep of every screen among them (one file a language);
        // e2e/run.mjs runs them in lanes, each lane a process with a server and database of its own
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          pool: 'forks',
          fileParallelism: false,
          // a lane's files share one process and the modules they import (playwright-core, exceljs):
          // loaded once a lane, not once a file; the files keep no state in shared modules
          isolate: false,
          testTimeout: 120_000,
          expect: { poll: { timeout: 10_000, interval: 100 } },
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          name: 'public-site',
          include: ['public-site/e2e/**/*.test.ts'],
          globalSetup: ['public-site/e2e/global-setup.ts'],
          pool: 'forks',
          fileParallelism: false,
          // a lane's files share one process and the modules they import (playwright-core, exceljs):
          // loaded once a lane, not once a file; the files keep no state in shared modules
          isolate: false,
          testTimeout: 120_000,
          expect: { poll: { timeout: 10_000, interval: 100 } },
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
