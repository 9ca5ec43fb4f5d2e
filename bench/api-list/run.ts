import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { ADMIN_PASSWORD, benchUrl, prepare, ROWS, SCOPED_PASSWORD } from './setup.ts';
import { bouncerUnavailable, startBouncer, type Bouncer } from '../../test/support/pgbouncer.ts';
import { cpuSeconds } from '../support/proc.ts';
import { runTmpDir } from '../../test/support/run-tmp.mjs';

/**
 * bench/api-list: 25 payments read by id, and one page of 25 out of ROWS payments, filtered by a date
 * range and sorted by date, over HTTP — the generic API (as the administrator and as a region-scoped user) against a minimal
 * node:http + pg floor running the same SQL. Prints requests/s, p50 and p99 of each and the ratios.
 * Needs a PostgreSQL server: BENCH_DATABASE_URL (default the local one). With BENCH_BOUNCER=n both
 * servers' pools go through a PgBouncer in transaction mode with n server connections (Debian's
 * pgbouncer, started and stopped here): what a pool in front costs a request.
 */
const DURATION_MS = Number(process.env.BENCH_SECONDS || 10) * 1000;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16);
/** Rounds of each floor/generic pair, taken in turn: on a machine others load, each ratio then compares like minutes with like. */
const ROUNDS = Number(process.env.BENCH_ROUNDS || 1);
const QUERY = 'from_paid_on=2025-01-01&to_paid_on=2025-12-31';
const log = (s: string) => console.log(s);
// the run's temporary files (the metadata copies its servers load) in a folder of its own, removed at
// its end; one a killed run left is removed by the next (test/support/run-tmp.mjs)
const runTmp = runTmpDir('ecofond-bench-api-list-');

function start(script: string): Promise<{ child: ChildProcess; port: number }> {
  // BENCH_PROF=<folder>: each server writes a V8 CPU profile there when it ends (where a request's time goes)
  const prof = process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', fileURLToPath(new URL(script, import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ child, port: JSON.parse(d.toString()).port }));
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
      let data = '';
      res.on('data', (c) => {
        data += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

async function login(port: number, username: string, password: string): Promise<string> {
  const r = await request(
    port,
    '/api/admin/auth/login',
    { 'Content-Type': 'application/json' },
    'POST',
    JSON.stringify({ username, password }),
  );
  if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${r.body}`);
  return JSON.parse(r.body).token;
}

type Run = { name: string; port: number; pid: number; path: string; headers: Record<string, string> };

/** Each run of a pair in turn, ROUNDS times; the figures of a run are over all its rounds. */
async function pair(a: Run, b: Run) {
  const [ra, rb] = [
    { latencies: [] as number[], seconds: 0, cpu: 0 },
    { latencies: [] as number[], seconds: 0, cpu: 0 },
  ];
  for (let i = 0; i < ROUNDS; i++) {
    for (const [run, acc] of [
      [a, ra],
      [b, rb],
    ] as const) {
      const r = await load(run, i === 0);
      acc.latencies.push(...r.latencies);
      acc.seconds += r.seconds;
      acc.cpu += r.cpu;
    }
  }
  return [summary(a.name, ra), summary(b.name, rb)];
}

function summary(name: string, { latencies, seconds, cpu }: { latencies: number[]; seconds: number; cpu: number }) {
  latencies.sort((x, y) => x - y);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  // the serving process's processor time a request: what the code costs, less moved by the load
  // generator and other work on the same cores than requests/s
  return {
    name,
    rps: latencies.length / seconds,
    p50: pct(0.5),
    p99: pct(0.99),
    n: latencies.length,
    cpuUs: (cpu / latencies.length) * 1e6,
  };
}

async function load({ name, port, pid, path, headers }: Run, warm: boolean) {
  if (warm) {
    const check = await request(port, path, headers);
    if (check.status !== 200 || JSON.parse(check.body).length !== 25)
      throw new Error(`${name}: ${check.status} ${check.body.slice(0, 200)}`);
    const until = Date.now() + 1500; // warm-up
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < until) await request(port, path, headers);
      }),
    );
  }
  const latencies: number[] = [];
  const end = Date.now() + DURATION_MS;
  const cpu0 = cpuSeconds(pid) ?? 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        const s = process.hrtime.bigint();
        const r = await request(port, path, headers);
        if (r.status !== 200) throw new Error(`${name}: ${r.status}`);
        latencies.push(Number(process.hrtime.bigint() - s) / 1e6);
      }
    }),
  );
  return { latencies, seconds: Number(process.hrtime.bigint() - t0) / 1e9, cpu: (cpuSeconds(pid) ?? 0) - cpu0 };
}

const { scopedRegion } = await prepare(log);
let bouncer: Bouncer | undefined;
if (Number(process.env.BENCH_BOUNCER) > 0) {
  const why = await bouncerUnavailable(benchUrl());
  if (why) throw new Error(`BENCH_BOUNCER: ${why}`);
  bouncer = await startBouncer(benchUrl(), Number(process.env.BENCH_BOUNCER));
  process.env.BENCH_SERVE_URL = bouncer.url;
  log(`both servers through a PgBouncer in transaction mode, ${process.env.BENCH_BOUNCER} server connections (port ${bouncer.port})`);
}
let ours: Awaited<ReturnType<typeof start>> | undefined;
let floor: Awaited<ReturnType<typeof start>> | undefined;
try {
  ours = await start('./serve-ours.ts');
  floor = await start('./serve-floor.ts');
  const adminToken = await login(ours.port, 'admin', ADMIN_PASSWORD);
  const scopedToken = await login(ours.port, 'bench_scoped', SCOPED_PASSWORD);
  const path = `/api/bench/bench-payments?${QUERY}&range=${encodeURIComponent('[0,24]')}`;
  // a by-id read of 25 rows spread over the table (react-admin's getMany: `?id=1,2,…`)
  const ids = Array.from({ length: 25 }, (_, i) => 1 + Math.floor((i * ROWS) / 25)).join(',');
  const admin = { Authorization: `Bearer ${adminToken}`, Language: 'uz' };
  const results = [
    ...(await pair(
      { name: 'floor, by id', port: floor.port, pid: floor.child.pid!, path: `/?id=${ids}`, headers: {} },
      {
        name: 'generic API, by id, administrator',
        port: ours.port,
        pid: ours.child.pid!,
        path: `/api/bench/bench-payments?id=${ids}`,
        headers: admin,
      },
    )),
    ...(await pair(
      { name: 'floor (all rows)', port: floor.port, pid: floor.child.pid!, path: `/?${QUERY}`, headers: {} },
      { name: 'generic API, administrator', port: ours.port, pid: ours.child.pid!, path, headers: admin },
    )),
    ...(await pair(
      { name: 'floor (one region)', port: floor.port, pid: floor.child.pid!, path: `/?${QUERY}&region=${scopedRegion}`, headers: {} },
      {
        name: 'generic API, region-scoped user',
        port: ours.port,
        pid: ours.child.pid!,
        path,
        headers: { Authorization: `Bearer ${scopedToken}`, Language: 'uz' },
      },
    )),
  ];
  log(
    `\nbench/api-list: ${ROWS.toLocaleString('en')} rows, ${CONCURRENCY} concurrent, ${ROUNDS} × ${DURATION_MS / 1000} s each in turn with its floor, page of 25 filtered by a year and sorted by date`,
  );
  log('| run | requests/s | p50 ms | p99 ms | requests | server CPU µs/request |');
  log('|---|---:|---:|---:|---:|---:|');
  for (const r of results)
    log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.n} | ${r.cpuUs.toFixed(0)} |`);
  const [fi, oi, fa, oa, fs, os] = results;
  log(
    `\ngeneric/floor throughput: by id ${(oi.rps / fi.rps).toFixed(2)} (target ≥ 0.50), filtered list: administrator ${(oa.rps / fa.rps).toFixed(2)}, scoped ${(os.rps / fs.rps).toFixed(2)} (target ≥ 0.85)`,
  );
  log(`scoped/administrator throughput: ${(os.rps / oa.rps).toFixed(2)} (target ≥ 0.80)`);
  log(
    `floor/generic server CPU a request: by id ${(fi.cpuUs / oi.cpuUs).toFixed(2)}, filtered list: administrator ${(fa.cpuUs / oa.cpuUs).toFixed(2)}, scoped ${(fs.cpuUs / os.cpuUs).toFixed(2)}`,
  );
} finally {
  ours?.child.kill();
  floor?.child.kill();
  agent.destroy();
  await bouncer?.stop();
  runTmp.remove();
}
