#!/usr/bin/env node
/**
 * `npm run test:e2e` after the builds: the browser tests in four vitest processes side by side, each
 * with its own server and database — the back-office's first half with the public site's and the
 * unit tests of the faces, its second half (`e2e-more`, vitest.e2e.config.ts), and the sweep of
 * every screen in uz and in uk and ru. Each process tests one after another, as the
 * tests share their server; together they wait on the browser and the servers rather than the
 * processor, so side by side they take the time of the longest, not the sum. The others' output is
 * held back and printed after the first's, so none is interleaved. Extra arguments (file
 * filters, `-t`) go to every process; a process given only filters it has no file for finds none and
 * passes.
 */
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const vitest = (projects, capture, env = {}) => new Promise((resolve) => {
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.e2e.config.ts', '--passWithNoTests',
    ...projects.flatMap((p) => ['--project', p]), ...args], { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
  const out = [];
  if (capture) { child.stdout.on('data', (d) => out.push(d)); child.stderr.on('data', (d) => out.push(d)); }
  child.on('close', (code) => resolve({ code: code ?? 1, out: Buffer.concat(out) }));
});

// each process migrates and seeds an embedded database of its own at its start: they start
// E2E_STAGGER seconds apart (default 30) so that no two seed at once on two cores
const stagger = Number(process.env.E2E_STAGGER ?? 30) * 1000;
const later = (n, run) => new Promise((r) => setTimeout(r, n * stagger)).then(run);
const runs = await Promise.all([
  vitest(['admin-unit', 'e2e', 'public-site'], false),
  later(1, () => vitest(['e2e-more'], true)),
  later(2, () => vitest(['sweep'], true, { SWEEP_LANGS: 'uz' })),
  later(3, () => vitest(['sweep'], true, { SWEEP_LANGS: 'uk,ru' })),
]);
const titles = ['', 'more of the back-office', 'the sweep of every screen in uz', 'the sweep of every screen in uk and ru'];
for (let i = 1; i < runs.length; i++) {
  process.stdout.write(`\n== ${titles[i]} (run beside the tests above)\n`);
  process.stdout.write(runs[i].out);
}
process.exit(runs.find((r) => r.code)?.code ?? 0);
