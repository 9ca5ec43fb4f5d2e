#!/usr/bin/env node
/**
 * `npm run test:e2e` after the builds: the browser tests in two vitest processes side by side —
 * the sweep of every screen (its own server and database) with the public site's tests (their own
 * server), and all the others (the back-office's, the unit tests of the faces). Each process tests
 * one after another, as the tests share their server; the two together wait on the browser and the
 * servers rather than the processor, so side by side they take the time of the longer one, not
 * the sum. The sweep's output
 * is held back and printed after the others', so neither is interleaved. Extra arguments (file
 * filters, `-t`) go to both; a process given only filters the other has no file for finds none and
 * passes. With TEST_DATABASE_URL (CI) the two servers' databases are copies of one demo database
 * the first of them prepares (e2e/server.ts `testDatabase`, named by E2E_RUN_ID); it is dropped here
 * at the end.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';

const args = process.argv.slice(2);
const onServer = process.env.E2E_EMBEDDED !== '1' && !!process.env.TEST_DATABASE_URL;
process.env.E2E_RUN_ID = `${process.pid}${Date.now().toString(36)}`;
const vitest = (projects, capture) => new Promise((resolve) => {
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.e2e.config.ts', '--passWithNoTests',
    ...projects.flatMap((p) => ['--project', p]), ...args], { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env });
  const out = [];
  if (capture) { child.stdout.on('data', (d) => out.push(d)); child.stderr.on('data', (d) => out.push(d)); }
  child.on('close', (code) => resolve({ code: code ?? 1, out: Buffer.concat(out) }));
});

// on embedded databases the sweep starts once the others' servers are up: three of them migrated and
// seeded at once crowd two cores (E2E_SWEEP_DELAY seconds, default 90); on a PostgreSQL server the
// demo database is prepared once and copied, so it starts at once
const delay = Number(process.env.E2E_SWEEP_DELAY ?? (onServer ? 0 : 90)) * 1000;
// the public site's tests go with the sweep: the back-office's alone are the longer process (on a
// 2-core machine where they took 1 268 s with the public site's 155 s among them, the sweep 917 s)
const [others, sweep] = await Promise.all([
  vitest(['admin-unit', 'e2e'], false),
  new Promise((r) => setTimeout(r, delay)).then(() => vitest(['sweep', 'public-site'], true)),
]);
process.stdout.write('\n== the sweep of every screen and the public site\'s tests (run beside the tests above)\n');
process.stdout.write(sweep.out);
if (onServer) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  try {
    await client.connect();
    const left = await client.query('select datname from pg_database where datname like $1', [`ecofond\\_e2e\\_%${process.env.E2E_RUN_ID}%`]);
    for (const { datname } of left.rows) await client.query(`drop database if exists "${datname}" with (force)`);
  } catch (err) {
    process.stdout.write(`could not drop the run's databases: ${err.message}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
process.exit(others.code || sweep.code);
