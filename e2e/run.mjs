#!/usr/bin/env node
/**
 * `npm run test:e2e` after the builds: the browser tests in lanes side by side. A lane is one vitest
 * process with a server of its own (a copy of one demo database on a PostgreSQL server, e2e/server.ts
 * `testDatabase`); within a lane the files run one after another, as they share that server. The
 * lanes wait on the browser and the servers more than on the processor, so side by side they take
 * the time of the longest, not the sum.
 *
 * Files go to lanes by their last measured time (e2e/timings.json, seconds a file; a file not in it
 * counts as the median), the longest first into the lane with the least so far. The public site's
 * files stay together in one lane: they share one embedded server whose set-up is a minute of
 * processor, timed by itself and counted with them (`public-site/e2e/global-setup.ts` in the
 * timings). The sweep of every screen is one file a language, so it spreads over the lanes too.
 * After the run it prints each lane's time and the slowest files, and writes the times measured to
 * artifacts/e2e/timings.json (E2E_RECORD=1 writes them to e2e/timings.json, to commit).
 *
 * E2E_LANES sets the number of lanes (default 2: three crowded two cores past what they saved; on embedded databases
 * where each lane migrates and seeds its own and the lanes after the first start E2E_LANE_DELAY
 * seconds apart, default 90). Extra arguments (file filters, `-t`) run those files in one process,
 * as by hand. With TEST_DATABASE_URL (CI) the run's databases are dropped at the end.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runTmpDir } from '../test/support/run-tmp.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'artifacts', 'e2e');
const args = process.argv.slice(2);
const onServer = process.env.E2E_EMBEDDED !== '1' && !!process.env.TEST_DATABASE_URL;
// the run's name in its databases' names: .ci/run's own, whose template e2e/prepare.ts made beside npm test
process.env.E2E_RUN_ID ??= `${process.pid}${Date.now().toString(36)}`;

// the run's temporary files (the servers' data folders, the tests' downloads, the browsers' profiles:
// all under os.tmpdir()) in one folder of the run's own, removed at its end
const runTmp = runTmpDir('ecofond-e2e-run-');

/** The run's end: its databases dropped, its temporary folder removed. */
async function cleanUp() {
  await dropDatabases();
  runTmp.remove();
}

/** Files under dir (relative to the root) whose name matches. */
function files(dir, re) {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && re.test(d.name))
    .map((d) => relative(ROOT, join(d.parentPath ?? d.path, d.name)))
    .filter((f) => !f.includes('node_modules'))
    .sort();
}

const vitest = (lane, filters, capture, projects = []) =>
  new Promise((resolvePromise) => {
    const report =
      lane == null
        ? []
        : [
            '--reporter=default',
            '--reporter=./test/support/skip-reporter.ts',
            '--reporter=json',
            `--outputFile.json=${join(OUT, `lane-${lane}.json`)}`,
          ];
    const child = spawn(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--config',
        'vitest.e2e.config.ts',
        '--passWithNoTests',
        ...projects.flatMap((p) => ['--project', p]),
        ...report,
        ...filters,
      ],
      {
        cwd: ROOT,
        stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
        env: process.env,
      },
    );
    const out = [];
    if (capture) {
      child.stdout.on('data', (d) => out.push(d));
      child.stderr.on('data', (d) => out.push(d));
    }
    child.on('close', (code) => resolvePromise({ code: code ?? 1, out: Buffer.concat(out) }));
  });

/** The run's databases (each server's copy, then the template), several at a time: drops that wait together share a checkpoint. */
async function dropDatabases() {
  if (!onServer) return;
  const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 8 });
  try {
    const left = await pool.query('select datname from pg_database where datname like $1', [`ecofond\\_e2e\\_%${process.env.E2E_RUN_ID}%`]);
    const names = left.rows.map((r) => r.datname);
    const drop = (name) => pool.query(`drop database if exists "${name}" with (force)`);
    await Promise.all(names.filter((n) => !n.includes('_tpl_')).map(drop));
    await Promise.all(names.filter((n) => n.includes('_tpl_')).map(drop));
  } catch (err) {
    process.stdout.write(`could not drop the run's databases: ${err.message}\n`);
  } finally {
    await pool.end().catch(() => undefined);
  }
}

if (args.length) {
  // by hand: these files (or tests) in one process
  const { code } = await vitest(null, args, false);
  await cleanUp();
  process.exit(code);
}

const units = [...files('admin/src', /\.test\.tsx?$/), ...files('shared', /\.test\.ts$/), ...files('public-site/src', /\.test\.tsx?$/)];
const backOffice = files('e2e', /\.e2e\.test\.ts$/);
const publicSite = files('public-site/e2e', /\.test\.ts$/);
const timingsFile = join(ROOT, 'e2e', 'timings.json');
/** the public site's global set-up, timed by itself (artifacts/e2e/setup-times.json) */
const PUBLIC_SETUP = 'public-site/e2e/global-setup.ts';
const known = existsSync(timingsFile) ? JSON.parse(readFileSync(timingsFile, 'utf8')) : {};
const measured = Object.entries(known)
  .filter(([f, v]) => typeof v === 'number' && f !== PUBLIC_SETUP)
  .map(([, v]) => v)
  .sort((a, b) => a - b);
const median = measured.length ? measured[Math.floor(measured.length / 2)] : 30;
const weight = (f) => (typeof known[f] === 'number' ? known[f] : median);

// the items to place: each back-office file alone, the public site's files as one
const items = [
  ...backOffice.map((f) => ({ files: [f], seconds: weight(f) })),
  // with the set-up of the server they share (public-site/e2e/global-setup.ts), which no file's time holds
  ...(publicSite.length
    ? [{ files: publicSite, seconds: publicSite.reduce((s, f) => s + weight(f), 0) + (known[PUBLIC_SETUP] ?? 0) }]
    : []),
].sort((a, b) => b.seconds - a.seconds);
const laneCount = Math.max(1, Math.min(items.length, Number(process.env.E2E_LANES ?? 2)));
const lanes = Array.from({ length: laneCount }, () => ({ files: [], seconds: 0 }));
for (const item of items) {
  const lane = lanes.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  lane.files.push(...item.files);
  lane.seconds += item.seconds;
}
lanes[0].files.push(...units);

mkdirSync(OUT, { recursive: true });
// this run's set-up times only (a file of an earlier run would be taken for this one's)
rmSync(join(OUT, 'setup-times.json'), { force: true });
const delay = Number(process.env.E2E_LANE_DELAY ?? (onServer ? 0 : 90)) * 1000;
process.stdout.write(
  `== browser tests in ${laneCount} lanes (planned from e2e/timings.json):\n${lanes.map((l, i) => `   lane ${i + 1}: ${l.files.length} files, ~${Math.round(l.seconds)} s`).join('\n')}\n`,
);
const started = Date.now();
const results = await Promise.all(
  lanes.map(async (lane, i) => {
    if (i > 0 && delay) await new Promise((r) => setTimeout(r, i * delay));
    const t0 = Date.now();
    // vitest matches a filter as a part of a path (e2e/numbers.e2e.test.ts is a part of the public
    // site's): a lane without the public site's files leaves its project out
    const projects = lane.files.some((f) => publicSite.includes(f)) ? [] : ['admin-unit', 'e2e'];
    const r = await vitest(
      i,
      lane.files.map((f) => join(ROOT, f)),
      i > 0,
      projects,
    );
    return { ...r, seconds: (Date.now() - t0) / 1000 };
  }),
);
for (const [i, r] of results.entries()) {
  if (i === 0) continue;
  process.stdout.write(`\n== lane ${i + 1} of ${laneCount} (ran beside the tests above)\n`);
  process.stdout.write(r.out);
}

// where the time went: each file's time from the lanes' JSON reports
const times = {};
for (let i = 0; i < laneCount; i++) {
  const file = join(OUT, `lane-${i}.json`);
  if (!existsSync(file)) continue;
  for (const t of JSON.parse(readFileSync(file, 'utf8')).testResults ?? []) {
    const name = relative(ROOT, t.name);
    if (units.includes(name) || !(t.endTime > t.startTime)) continue;
    times[name] = Math.round((t.endTime - t.startTime) / 100) / 10;
  }
}
const setups = join(OUT, 'setup-times.json');
if (existsSync(setups)) Object.assign(times, JSON.parse(readFileSync(setups, 'utf8')));
const sorted = Object.fromEntries(Object.entries(times).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(OUT, 'timings.json'), `${JSON.stringify(sorted, null, 2)}\n`);
if (process.env.E2E_RECORD === '1') writeFileSync(timingsFile, `${JSON.stringify(sorted, null, 2)}\n`);
const slowest = Object.entries(times)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 8);
process.stdout.write(`\n== where the time went: ${Math.round((Date.now() - started) / 1000)} s in all\n`);
for (const [i, r] of results.entries())
  process.stdout.write(
    `   lane ${i + 1}: ${Math.round(r.seconds)} s (planned ~${Math.round(lanes[i].seconds)} s), ${r.code ? 'FAILED' : 'passed'}\n`,
  );
process.stdout.write(`   slowest files: ${slowest.map(([f, s]) => `${f} ${s} s`).join(', ')}\n`);

// what failed, last, where a log's tail shows it: each failed test (or file that did not run) with
// the first lines of its error; a lane's own output above says the rest
const failures = [];
for (let i = 0; i < laneCount; i++) {
  const file = join(OUT, `lane-${i}.json`);
  if (!existsSync(file)) {
    if (results[i].code) failures.push(`lane ${i + 1}: no report (exit ${results[i].code}); its output is above`);
    continue;
  }
  for (const t of JSON.parse(readFileSync(file, 'utf8')).testResults ?? []) {
    const name = relative(ROOT, t.name);
    const failed = (t.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) failures.push(`lane ${i + 1} ${name} › ${a.fullName}\n      ${firstLines(a.failureMessages?.join('\n'))}`);
    if (!failed.length && t.status === 'failed') failures.push(`lane ${i + 1} ${name}: the file failed\n      ${firstLines(t.message)}`);
  }
}
function firstLines(text = '') {
  const lines = String(text)
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((l) => l.trim());
  // the message and its diff, and the first place in the tests (not vitest's own frames)
  const where = lines.find((l) => /^\s*at /.test(l) && !l.includes('node_modules'));
  return [...lines.filter((l) => !/^\s*at /.test(l)).slice(0, 10), ...(where ? [where.trim()] : [])].join('\n      ');
}
if (failures.length) process.stdout.write(`\n== what failed (${failures.length})\n${failures.map((f) => `   ${f}`).join('\n')}\n`);

await cleanUp();
process.exit(results.reduce((c, r) => c || r.code, 0));
