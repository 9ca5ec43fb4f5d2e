import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { ADMIN_PASSWORD, prepare, ROWS, SCOPED_PASSWORD } from './setup.ts';

/**
 * bench/api-list: 25 payments read by id, and one page of 25 out of ROWS payments, filtered by a date
 * range and sorted by date, over HTTP — the generic API (as the administrator and as a region-scoped user) against a minimal
 * node:http + pg floor running the same SQL. Prints requests/s, p50 and p99 of each and the ratios.
 * Needs a PostgreSQL server: BENCH_DATABASE_URL (default the local one).
 */
const DURATION_MS = Number(process.env.BENCH_SECONDS || 10) * 1000;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16);
const QUERY = 'from_paid_on=2025-01-01&to_paid_on=2025-12-31';
const log = (s: string) => console.log(s);

function start(script: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ child, port: JSON.parse(d.toString()).port }));
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
      let data = '';
      res.on('data', (c) => { data += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

async function login(port: number, username: string, password: string): Promise<string> {
  const r = await request(port, '/api/admin/auth/login', { 'Content-Type': 'application/json' }, 'POST', JSON.stringify({ username, password }));
  if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${r.body}`);
  return JSON.parse(r.body).token;
}

async function load(name: string, port: number, path: string, headers: Record<string, string>) {
  const check = await request(port, path, headers);
  if (check.status !== 200 || JSON.parse(check.body).length !== 25) throw new Error(`${name}: ${check.status} ${check.body.slice(0, 200)}`);
  const until = Date.now() + 1500; // warm-up
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (Date.now() < until) await request(port, path, headers); }));
  const latencies: number[] = [];
  const end = Date.now() + DURATION_MS;
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < end) {
      const s = process.hrtime.bigint();
      const r = await request(port, path, headers);
      if (r.status !== 200) throw new Error(`${name}: ${r.status}`);
      latencies.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
  }));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return { name, rps: latencies.length / seconds, p50: pct(0.5), p99: pct(0.99), n: latencies.length };
}

const { scopedRegion } = await prepare(log);
const ours = await start('./serve-ours.ts');
const floor = await start('./serve-floor.ts');
try {
  const adminToken = await login(ours.port, 'admin', ADMIN_PASSWORD);
  const scopedToken = await login(ours.port, 'bench_scoped', SCOPED_PASSWORD);
  const path = `/api/bench/bench-payments?${QUERY}&range=${encodeURIComponent('[0,24]')}`;
  // a by-id read of 25 rows spread over the table (react-admin's getMany: `?id=1,2,…`)
  const ids = Array.from({ length: 25 }, (_, i) => 1 + Math.floor((i * ROWS) / 25)).join(',');
  const admin = { Authorization: `Bearer ${adminToken}`, Language: 'uz' };
  const results = [
    await load('floor, by id', floor.port, `/?id=${ids}`, {}),
    await load('generic API, by id, administrator', ours.port, `/api/bench/bench-payments?id=${ids}`, admin),
    await load('floor (all rows)', floor.port, `/?${QUERY}`, {}),
    await load('generic API, administrator', ours.port, path, admin),
    await load('floor (one region)', floor.port, `/?${QUERY}&region=${scopedRegion}`, {}),
    await load('generic API, region-scoped user', ours.port, path, { Authorization: `Bearer ${scopedToken}`, Language: 'uz' }),
  ];
  log(`\nbench/api-list: ${ROWS.toLocaleString('en')} rows, ${CONCURRENCY} concurrent, ${DURATION_MS / 1000} s each, page of 25 filtered by a year and sorted by date`);
  log('| run | requests/s | p50 ms | p99 ms | requests |');
  log('|---|---:|---:|---:|---:|');
  for (const r of results) log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.n} |`);
  const [fi, oi, fa, oa, fs, os] = results;
  log(`\ngeneric/floor throughput: by id ${(oi.rps / fi.rps).toFixed(2)} (target ≥ 0.50), filtered list: administrator ${(oa.rps / fa.rps).toFixed(2)}, scoped ${(os.rps / fs.rps).toFixed(2)} (target ≥ 0.85)`);
  log(`scoped/administrator throughput: ${(os.rps / oa.rps).toFixed(2)} (target ≥ 0.80)`);
} finally {
  ours.child.kill();
  floor.child.kill();
  agent.destroy();
}
