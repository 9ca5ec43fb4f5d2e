import { rmSync } from 'node:fs';
import { prepareDemo } from './global-setup';
import { ensureTemplate, freshEnvironment, testServerUrl } from './server';

/**
 * `E2E_RUN_ID=<id> node --import tsx e2e/prepare.ts`: makes the run's template database of the
 * browser tests (migrated, the demo data, the test users — e2e/global-setup.ts) ahead of them, so
 * that a runner started later with the same E2E_RUN_ID (`node e2e/run.mjs`) copies it at once.
 * .ci/run does it beside `npm test`, whose processor is not all used. Needs TEST_DATABASE_URL.
 */
const url = testServerUrl();
if (!url || !process.env.E2E_RUN_ID) {
  console.error('e2e/prepare.ts: needs TEST_DATABASE_URL and E2E_RUN_ID');
  process.exit(2);
}
const t0 = Date.now();
const { dataDir, env } = freshEnvironment('ecofond-e2e-prepare-');
try {
  const template = await ensureTemplate(url, env, prepareDemo);
  console.log(`${template} ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
