import { rmSync } from 'node:fs';
import pg from 'pg';
import { prepareDemo } from './global-setup';
import { ensureTemplate, freshEnvironment, templateName, testServerUrl } from './server';

/**
 * `node --import tsx e2e/prepare.ts`: the browser tests' template database of the run named by
 * E2E_RUN_ID, made now on TEST_DATABASE_URL's server (e2e/server.ts `ensureTemplate`). `.ci/run`
 * runs it beside `npm test`, where the two cores have room, and the browser step's lanes then only
 * copy it; were it not there yet, they would wait for it or make it themselves. e2e/run.mjs drops
 * it with the run's other databases at its end; `--drop` drops it now (a CI run that stops before).
 */
const url = testServerUrl();
if (!url || !process.env.E2E_RUN_ID) {
  console.log('e2e/prepare.ts: nothing to do without TEST_DATABASE_URL and E2E_RUN_ID');
  process.exit(0);
}
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  if (process.argv.includes('--drop')) await client.query(`drop database if exists ${templateName()} with (force)`);
  else {
    const t0 = Date.now();
    const { dataDir, env } = freshEnvironment('ecofond-e2e-prepare-');
    try {
      await ensureTemplate(client, url, env, prepareDemo);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    console.log(`e2e/prepare.ts: ${templateName()} ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
} finally {
  await client.end();
}
