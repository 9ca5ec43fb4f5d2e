import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import knexFactory from 'knex';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { migrate } from '../../api/db/migrator.ts';
import { seed, DEMO_ADMIN_PASSWORD } from '../../seeds/index.ts';
import { benchUrl, viewport } from '../support/http.ts';
import { cpuSeconds } from '../support/proc.ts';

/**
 * bench/load (issue 16): a mixed load of BENCH_CLIENTS (200) concurrent clients for BENCH_SECONDS
 * (60) on loopback against the API in BENCH_PROCESSES (2) server processes behind one port (a Node
 * cluster of `startServer`, bench/load/cluster.ts), which share sessions, rate limits and sign-in
 * lockout through PostgreSQL. Each client loops: it picks a request kind by weight (MIX below, three
 * quarters public), makes the request on a keep-alive connection and times it. Staff kinds run as
 * the client's demo user (admin, the region-scoped fund user or the inspector, in turn): lists with
 * filters and sorts, reads by id, updates (read, then PUT with the row's version), workflow actions
 * (a payment's attachment cancelled and made again, a report recalculated) and small filtered
 * exports. A row being updated or moved is checked out to one client at a time, so a 409 is a fault.
 *
 * Database: BENCH_DB (default `ecofond_national`, bench/national) on BENCH_DATABASE_URL's server.
 * Any other name that does not exist is made, migrated and seeded with the demo. Prints throughput,
 * p50 / p99 / max per kind, errors per kind with their first statuses and bodies, the server
 * processes' and PostgreSQL's CPU, and the load average before and after; BENCH_STRICT=1 exits 1
 * on any error or missed target (staff lists p99 < 300 ms, map p99 < 100 ms).
 */
const DB = process.env.BENCH_DB || 'ecofond_national';
const CLIENTS = Number(process.env.BENCH_CLIENTS || 200);
const SECONDS = Number(process.env.BENCH_SECONDS || 60);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const PROCESSES = Number(process.env.BENCH_PROCESSES || 2);
const PASSWORD = process.env.BENCH_PASSWORD || DEMO_ADMIN_PASSWORD;
const STRICT = process.env.BENCH_STRICT === '1';
const log = (s: string) => console.log(s);

type Kind = 'landing' | 'map' | 'stats' | 'staff-list' | 'staff-read' | 'staff-update' | 'staff-action' | 'staff-export';
/** Weights of the kinds (per cent of a client's picks): 75 public, 25 staff. */
const MIX: [Kind, number][] = [
  ['landing', 30],
  ['map', 30],
  ['stats', 15],
  ['staff-list', 10],
  ['staff-read', 7],
  ['staff-update', 3],
  ['staff-action', 3],
  ['staff-export', 2],
];
/** BENCH_ONLY=map,stats: only those kinds (each kind's cost measured alone). */
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',') : null;
if (ONLY) for (const m of MIX) if (!ONLY.includes(m[0])) m[1] = 0;
/** BENCH_THINK_MS: a client's pause after each answer (exponential, this mean); 0 — the default — is a closed loop at saturation. */
const THINK = Number(process.env.BENCH_THINK_MS || 0);
const TARGETS: Partial<Record<Kind, number>> = { 'staff-list': 300, map: 100 };

// ---------------------------------------------------------------- the database

async function prepare(): Promise<void> {
  const admin = knexFactory({ client: 'pg', connection: benchUrl('postgres'), pool: { min: 0, max: 1 } });
  const exists = (await admin.raw('select 1 from pg_database where datname = ?', [DB])).rows.length > 0;
  if (!exists && DB === 'ecofond_national') {
    await admin.destroy();
    throw new Error(
      'ecofond_national does not exist: build it with bench/national/generate.ts, or name another database in BENCH_DB (made and seeded with the demo when missing)',
    );
  }
  if (!exists) await admin.raw(`create database "${DB}"`);
  await admin.destroy();
  const db = openDatabase({ url: benchUrl(DB), poolMax: 2 });
  try {
    if (!exists) {
      log(`making ${DB}: migrate, seed with the demo…`);
      const model = loadMetadata();
      await migrate(db.knex, model);
      await seed(db.knex, model, { demo: true });
    }
    const marker = await db.knex.raw('select * from bench_national').then(
      (r) => r.rows,
      () => null,
    );
    if (marker) {
      log(`bench_national: ${JSON.stringify(marker)}`);
      // bench/national writes finished_at when the whole database is built
      if (marker.some((m: { finished_at?: unknown }) => !m.finished_at) && process.env.BENCH_UNFINISHED !== '1') {
        throw new Error(`${DB} is still being built (bench_national.finished_at is empty); BENCH_UNFINISHED=1 runs on it anyway`);
      }
    }
    const counts = await db.knex.raw(`select (select reltuples::bigint from pg_class where relname = 'plantings') as plantings_est,
      (select count(*) from payments) as payments, (select count(*) from subjects) as subjects,
      (select count(*) from subject_reports) as reports, (select count(*) from offences) as offences`);
    const c = counts.rows[0];
    const plantings =
      Number(c.plantings_est) > 1_000_000 ? Number(c.plantings_est) : Number((await db.knex('plantings').count({ n: '*' }))[0].n);
    log(
      `database ${DB}: ${plantings.toLocaleString('en')} plantings${Number(c.plantings_est) > 1_000_000 ? ' (estimate)' : ''}, ${Number(c.payments).toLocaleString('en')} payments, ${Number(c.subjects).toLocaleString('en')} subjects, ${Number(c.reports).toLocaleString('en')} reports, ${Number(c.offences).toLocaleString('en')} offences`,
    );
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------- the servers

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The workers' event-loop lines (bench/load/cluster.ts answers SIGUSR2 with one). */
const loopLines: string[] = [];

async function startCluster(): Promise<{ child: ChildProcess; port: number; workers: number[]; primary: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./cluster.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: benchUrl(DB), PORT: String(port), BENCH_PROCESSES: String(PROCESSES) },
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-20_000);
    for (const m of d.toString().matchAll(/event-loop (\{[^\n]*\})/g)) loopLines.push(m[1]);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"port"'));
      if (line) resolve({ child, ...JSON.parse(line) });
    });
    child.once('exit', (code) => reject(new Error(`cluster exited ${code}: ${err.slice(-3000)}`)));
  });
}

/** CPU seconds of every `postgres` process now, by pid (the server's backends, other databases' too). */
function postgresCpu(): Map<number, number> {
  const m = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() !== 'postgres') continue;
      const s = cpuSeconds(Number(d));
      if (s !== null) m.set(Number(d), s);
    } catch {
      /* gone */
    }
  }
  return m;
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

// ---------------------------------------------------------------- HTTP

let PORT = 0;
// FIFO: the free connection used longest ago goes next, so the requests spread over every open
// connection — and so over both workers, as 200 browsers' own connections would; the default (LIFO)
// kept a paced load on the few most recent sockets, mostly one worker's (measured: 14.1 + 0.4 s of CPU)
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS + 10, scheduling: 'fifo' });

interface Answer {
  status: number;
  body: Buffer;
}

function request(method: string, path: string, o: { token?: string; body?: unknown; lang?: string } = {}): Promise<Answer> {
  const body = o.body === undefined ? undefined : JSON.stringify(o.body);
  const headers: Record<string, string> = { Language: o.lang ?? 'uz' };
  if (o.token) headers.Authorization = `Bearer ${o.token}`;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: PORT, method, path, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', (e) => resolve({ status: 0, body: Buffer.from(String(e)) }));
    });
    req.on('error', (e) => resolve({ status: 0, body: Buffer.from(String(e)) }));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const json = (a: Answer) => JSON.parse(a.body.toString());

// ---------------------------------------------------------------- what is measured

interface Tally {
  ms: number[];
  errors: number;
  statuses: Map<number, number>;
  first: string[];
  slowest: [number, string][];
}
const tallies = new Map<Kind, Tally>(MIX.map(([k]) => [k, { ms: [], errors: 0, statuses: new Map(), first: [], slowest: [] }]));
/** BENCH_SLOWEST: how many of each kind's slowest requests to print (default 0). */
const SLOWEST = Number(process.env.BENCH_SLOWEST || 0);
let measuring = false;
/** BENCH_SLOW_MS: requests slower than this are counted per second of the run, to see whether they come together (default 200) */
const SLOW_MS = Number(process.env.BENCH_SLOW_MS || 200);
const slowAt = new Map<number, number>();
let runStart = 0;
let warmupErrors = 0;
const warmupFirst: string[] = [];

/** Makes a request, times it and counts it under its kind; a status other than 2xx is an error (202 for an export's job is not). */
async function timed(kind: Kind, method: string, path: string, o: { token?: string; body?: unknown; lang?: string } = {}): Promise<Answer> {
  const t0 = process.hrtime.bigint();
  // a request counts when it started in the measured run
  const counted = measuring;
  const a = await request(method, path, o);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const ok = a.status >= 200 && a.status < 300;
  if (!ok) {
    const line = `${a.status} ${method} ${path} ${a.body.toString().slice(0, 240)}`;
    if (!counted) {
      warmupErrors++;
      if (warmupFirst.length < 5) warmupFirst.push(line);
      return a;
    }
  }
  if (!counted) return a;
  const t = tallies.get(kind)!;
  t.ms.push(ms);
  if (ms > SLOW_MS) {
    const sec = Math.floor((Date.now() - ms - runStart) / 1000);
    slowAt.set(sec, (slowAt.get(sec) ?? 0) + 1);
  }
  if (SLOWEST && (t.slowest.length < SLOWEST || ms > t.slowest[t.slowest.length - 1][0])) {
    t.slowest.push([ms, `${method} ${path}`]);
    t.slowest.sort((a, b) => b[0] - a[0]);
    t.slowest.length = Math.min(t.slowest.length, SLOWEST);
  }
  if (!ok) {
    t.errors++;
    t.statuses.set(a.status, (t.statuses.get(a.status) ?? 0) + 1);
    if (t.first.length < 4) t.first.push(`${a.status} ${method} ${path} ${a.body.toString().slice(0, 240)}`);
  }
  return a;
}

// ---------------------------------------------------------------- the requests

const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];
const LANGS = ['uz', 'uz', 'ru', 'uk'];
const thisYear = Number(new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 4));
const years = [thisYear, thisYear - 1];

interface Region {
  id: number;
  lng: number;
  lat: number;
}
let regions: Region[] = [];

/** What the public site's first screen fetches (public-site/src/pages/Landing.tsx, components/Layout.tsx), one of them. */
const landing = () =>
  pick([
    `/api/public/stats/summary?year=${thisYear}`,
    '/api/public/entities/publications?page=1&perPage=3',
    '/api/public/entities/site-content?section_code=landing&perPage=20',
    '/api/public/entities/menu?perPage=100',
  ]);

/** A 1280 × 800 px viewport at a random zoom (5 … 17) around a random region's centre, as MapView asks on every moveend. */
function mapViewport(): string {
  const zoom = 5 + Math.floor(Math.random() * 13);
  const r = pick(regions);
  const spread = zoom <= 6 ? 0 : 0.5;
  const lng = zoom <= 5 ? 64.5 : r.lng + (Math.random() - 0.5) * spread;
  const lat = zoom <= 5 ? 41.3 : r.lat + (Math.random() - 0.5) * spread;
  return `/api/public/map/plantings?bbox=${viewport(zoom, lng, lat)}&zoom=${zoom}${Math.random() < 0.2 ? '&irrigation=1' : ''}`;
}

/** A statistics page's report (public-site/src/pages/stats), for the country or a region. */
function stats(): string {
  const name = pick(['region-plantings', 'species-trees', 'eco-info-by-regions', 'irrigation']);
  return `/api/public/reports/${name}?year=${pick(years)}${Math.random() < 0.3 ? `&region_id=${pick(regions).id}` : ''}`;
}

const ENTITY = {
  payments: '/api/ecofund/payments',
  subject: '/api/ecofund/subject',
  offences: '/api/ecofund-offences/offences',
  plantings: '/api/ecofund-plantings/plantings',
  reports: '/api/ecofund/subject-report-yearly',
} as const;
type Entity = keyof typeof ENTITY;

/** A list as the back-office asks it: one of the list's filters (declared in its metadata) and one of its sorts, a page of 25. */
function listQuery(e: Entity): string {
  const r = () => pick(regions).id;
  const y = pick(years);
  const filters: Record<Entity, string[]> = {
    payments: [
      'status=defined,confirmed',
      `region_id=${r()}`,
      `from_paid_on=${y}-01-01&to_paid_on=${y}-06-30`,
      `region_id=${r()}&status=undefined,defined`,
      'q=300001',
    ],
    subject: [`region_id=${r()}`, 'status=active', `region_id=${r()}&status=active`, 'q=Bog'],
    offences: [
      'status=draft,review',
      `region_id=${r()}`,
      `from_offence_date=${y}-01-01&to_offence_date=${y}-12-31`,
      `region_id=${r()}&status=mvd,closed`,
    ],
    plantings: [
      `region_id=${r()}`,
      `region_id=${r()}&from_planted_on=${y}-03-01&to_planted_on=${y}-04-30`,
      `region_id=${r()}&irrigation=true`,
      'place_type=street',
    ],
    reports: ['status=new,sent', `year=${y}`, `region_id=${r()}&year=${y}`, 'status=accepted'],
  };
  const sorts: Record<Entity, string[]> = {
    payments: ['', 'sortBy=amount&descending=true', 'sortBy=number&descending=false'],
    subject: ['', 'sortBy=name&descending=false', 'sortBy=inn&descending=false', 'sortBy=start_date&descending=true'],
    offences: ['', 'sortBy=fine_amount&descending=true', 'sortBy=number&descending=false'],
    plantings: ['', 'sortBy=planted_on&descending=true', 'sortBy=count&descending=true'],
    reports: ['', 'sortBy=amount&descending=true', 'sortBy=report_date&descending=true'],
  };
  const page = Math.random() < 0.8 ? 1 : 2 + Math.floor(Math.random() * 3);
  return `${ENTITY[e]}?${[pick(filters[e]), pick(sorts[e]), `page=${page}&perPage=25`].filter(Boolean).join('&')}`;
}

/** A payment checked out to one client at a time: its attachment is cancelled and made again; its purpose edited back and forth. */
interface PaymentRow {
  id: number;
  subject_id: number;
  attached: boolean;
}
interface Staff {
  username: string;
  token: string;
  entities: Entity[];
  ids: Map<Entity, number[]>;
  payments: PaymentRow[];
  reports: number[];
  exports: string[];
}
const staff: Staff[] = [];

async function signIn(username: string): Promise<string> {
  const a = await request('POST', '/api/admin/auth/login', { body: { username, password: PASSWORD } });
  if (a.status !== 200) throw new Error(`sign-in of ${username}: ${a.status} ${a.body.toString().slice(0, 300)}`);
  return json(a).token;
}

async function listRows(token: string, path: string): Promise<Record<string, unknown>[]> {
  const a = await request('GET', path, { token });
  if (a.status !== 200) throw new Error(`${path}: ${a.status} ${a.body.toString().slice(0, 300)}`);
  return json(a);
}

/** Signs the staff users in and gathers, per user, ids to read and the rows it alone will change. */
async function gatherStaff(): Promise<void> {
  const users: { username: string; entities: Entity[]; changesPayments: boolean }[] = [
    // the inspector first: its reports to recalculate are its region's, which the fund user sees too
    { username: 'inspector', entities: ['offences', 'plantings', 'subject', 'payments'], changesPayments: false },
    { username: 'fund', entities: ['payments', 'subject', 'offences', 'reports'], changesPayments: true },
    { username: 'admin', entities: ['payments', 'subject', 'offences', 'plantings', 'reports'], changesPayments: true },
  ];
  const taken = new Set<string>();
  for (const u of users) {
    const token = await signIn(u.username);
    const ids = new Map<Entity, number[]>();
    for (const e of u.entities)
      ids.set(
        e,
        (await listRows(token, `${ENTITY[e]}?perPage=100`)).map((r) => Number(r.id)),
      );
    const payments: PaymentRow[] = [];
    if (u.changesPayments) {
      for (let page = 1; page <= 3; page++) {
        for (const r of await listRows(token, `${ENTITY.payments}?status=defined&perPage=100&page=${page}`)) {
          if (r.subject_id == null || taken.has(`p${r.id}`)) continue;
          taken.add(`p${r.id}`);
          payments.push({ id: Number(r.id), subject_id: Number(r.subject_id), attached: true });
        }
      }
    }
    const reports: number[] = [];
    for (const r of await listRows(token, `${ENTITY.reports}?status=new&perPage=100`)) {
      if (taken.has(`r${r.id}`)) continue;
      taken.add(`r${r.id}`);
      reports.push(Number(r.id));
    }
    // small filtered exports: one subject's payments, one subject's reports, one region's offences of a fortnight
    const subjects = [...new Set(payments.map((p) => p.subject_id))].slice(0, 20);
    const exports: string[] = [];
    if (u.entities.includes('payments')) for (const s of subjects) exports.push(`${ENTITY.payments}/export?subject_id=${s}`);
    if (u.entities.includes('reports')) for (const s of subjects) exports.push(`${ENTITY.reports}/export?subject_id=${s}`);
    exports.push(
      `${ENTITY.offences}/export?region_id=${regions[0].id}&from_offence_date=${thisYear - 1}-03-01&to_offence_date=${thisYear - 1}-03-14`,
    );
    staff.push({ username: u.username, token, entities: u.entities, ids, payments, reports, exports });
  }
  for (const s of staff)
    log(`  ${s.username}: ${s.payments.length} payments and ${s.reports.length} reports to change, ${s.exports.length} exports`);
}

/** A client's staff request of a kind, as its user; false when the user has nothing of that kind free just now. */
async function staffRequest(kind: Kind, s: Staff): Promise<boolean> {
  switch (kind) {
    case 'staff-list':
      await timed(kind, 'GET', listQuery(pick(s.entities)), { token: s.token });
      return true;
    case 'staff-read': {
      const e = pick(s.entities);
      const ids = s.ids.get(e)!;
      if (!ids.length) return false;
      await timed(kind, 'GET', `${ENTITY[e]}/${pick(ids)}`, { token: s.token });
      return true;
    }
    case 'staff-update': {
      const p = s.payments.shift();
      if (!p) return false;
      try {
        const read = await timed('staff-read', 'GET', `${ENTITY.payments}/${p.id}`, { token: s.token });
        if (read.status !== 200) return true;
        const row = json(read);
        const purpose = String(row.purpose ?? '');
        const next = purpose.endsWith(' ·') ? purpose.slice(0, -2) : `${purpose} ·`;
        await timed(kind, 'PUT', `${ENTITY.payments}/${p.id}`, { token: s.token, body: { version: row.version, purpose: next } });
      } finally {
        s.payments.push(p);
      }
      return true;
    }
    case 'staff-action': {
      if (s.payments.length && Math.random() < 0.5) {
        const p = s.payments.shift()!;
        try {
          const a = p.attached
            ? await timed(kind, 'POST', `${ENTITY.payments}/${p.id}/actions/cancel-attachment`, { token: s.token, body: {} })
            : await timed(kind, 'POST', `${ENTITY.payments}/${p.id}/actions/attach`, {
                token: s.token,
                body: { subject_id: p.subject_id },
              });
          if (a.status === 200) p.attached = !p.attached;
        } finally {
          s.payments.push(p);
        }
        return true;
      }
      const r = s.reports.shift();
      if (r === undefined) return false;
      try {
        await timed(kind, 'POST', `${ENTITY.reports}/${r}/actions/recalculate`, { token: s.token, body: {} });
      } finally {
        s.reports.push(r);
      }
      return true;
    }
    case 'staff-export':
      await timed(kind, 'GET', pick(s.exports), { token: s.token });
      return true;
    default:
      return false;
  }
}

const totalWeight = MIX.reduce((n, [, w]) => n + w, 0);
function pickKind(): Kind {
  let x = Math.random() * totalWeight;
  for (const [k, w] of MIX) {
    if ((x -= w) < 0) return k;
  }
  return MIX[0][0];
}

async function client(i: number, until: () => boolean): Promise<void> {
  const s = staff[i % staff.length];
  while (!until()) {
    const kind = pickKind();
    const lang = pick(LANGS);
    if (kind === 'landing') await timed(kind, 'GET', landing(), { lang });
    else if (kind === 'map') await timed(kind, 'GET', mapViewport(), { lang });
    else if (kind === 'stats') await timed(kind, 'GET', stats(), { lang });
    else if (!(await staffRequest(kind, s))) await timed('staff-list', 'GET', listQuery(pick(s.entities)), { token: s.token });
    if (THINK > 0) await new Promise((r) => setTimeout(r, -Math.log(1 - Math.random()) * THINK));
  }
}

/** Puts back the attachments the run left cancelled, so the database is as it was (but for versions and the audit). */
async function restore(): Promise<number> {
  let n = 0;
  for (const s of staff) {
    for (const p of s.payments.filter((x) => !x.attached)) {
      const a = await request('POST', `${ENTITY.payments}/${p.id}/actions/attach`, { token: s.token, body: { subject_id: p.subject_id } });
      if (a.status === 200) {
        p.attached = true;
        n++;
      } else log(`  could not attach payment ${p.id} again: ${a.status} ${a.body.toString().slice(0, 200)}`);
    }
  }
  return n;
}

// ---------------------------------------------------------------- the run

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : NaN);

await prepare();
const loadBefore = loadavg();
log(`load average before start: ${loadBefore}`);
const cluster = await startCluster();
PORT = cluster.port;
try {
  regions = (json(await request('GET', '/api/public/regions')) as { id: number; centre: { lng: number; lat: number } }[]).map((r) => ({
    id: Number(r.id),
    lng: r.centre.lng,
    lat: r.centre.lat,
  }));
  await gatherStaff();
  // one run of the clients from the warm-up's start to the end: measuring starts WARMUP seconds in,
  // while they are spread out by their pauses (clients started afresh after a warm-up all asked at
  // once: a burst of 200 requests no browser makes, which was the run's slowest second)
  const procs = [cluster.primary, ...cluster.workers];
  const ownLoop = monitorEventLoopDelay({ resolution: 5 });
  let loadStart = loadavg();
  let cpu0 = procs.map((p) => cpuSeconds(p) ?? 0);
  let pg0 = postgresCpu();
  let self0 = process.cpuUsage();
  let t0 = Date.now();
  const startMeasuring = () => {
    if (WARMUP > 0) log(`warm-up: ${WARMUP} s${warmupErrors ? `, ${warmupErrors} errors: ${warmupFirst.join(' | ')}` : ''}`);
    loadStart = loadavg();
    cpu0 = procs.map((p) => cpuSeconds(p) ?? 0);
    pg0 = postgresCpu();
    self0 = process.cpuUsage();
    // the event loops' delays over the run: the workers' (SIGUSR2 resets, then reports) and this process's own
    for (const w of cluster.workers) {
      try {
        process.kill(w, 'SIGUSR2');
      } catch {
        /* gone */
      }
    }
    ownLoop.enable();
    measuring = true;
    t0 = Date.now();
    runStart = t0;
  };
  const end = Date.now() + (WARMUP + SECONDS) * 1000;
  if (WARMUP > 0) setTimeout(startMeasuring, WARMUP * 1000);
  else startMeasuring();
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i, () => Date.now() >= end)));
  measuring = false;
  ownLoop.disable();
  loopLines.length = 0;
  for (const w of cluster.workers) {
    try {
      process.kill(w, 'SIGUSR2');
    } catch {
      /* gone */
    }
  }
  const wall = (Date.now() - t0) / 1000;
  const cpu1 = procs.map((p) => cpuSeconds(p) ?? 0);
  const pg1 = postgresCpu();
  const self = process.cpuUsage(self0);
  const loadEnd = loadavg();
  // the backends of this database at the end (a backend started during the run counts from zero)
  const ours = new Set<number>();
  {
    const k = knexFactory({ client: 'pg', connection: benchUrl('postgres'), pool: { min: 0, max: 1 } });
    // the API's pools and LISTEN connections name themselves (api/db/connection.ts); a generator's or another bench's do not
    for (const r of (await k.raw("select pid from pg_stat_activity where datname = ? and application_name like 'ecofond%'", [DB])).rows)
      ours.add(Number(r.pid));
    await k.destroy();
  }
  let pgOurs = 0;
  let pgAll = 0;
  for (const [pid, s] of pg1) {
    const d = s - (pg0.get(pid) ?? 0);
    pgAll += d;
    if (ours.has(pid)) pgOurs += d;
  }
  const restored = await restore();

  let total = 0;
  let errors = 0;
  log(
    `\nbench/load: ${CLIENTS} clients for ${SECONDS} s (after ${WARMUP} s of warm-up) on ${DB}, ${PROCESSES} server processes (Node cluster, round-robin), ${os.cpus().length} cores`,
  );
  if (THINK > 0) log(`each client pauses ${THINK} ms on average (exponential) after each answer`);
  log(
    `mix: ${MIX.map(([k, w]) => `${k} ${w}`).join(', ')} (per cent of picks); staff as ${staff.map((s) => s.username).join(', ')} in turn`,
  );
  log('| kind | requests | share | p50 ms | p99 ms | max ms | errors | target |');
  log('|---|---:|---:|---:|---:|---:|---:|---|');
  const all: number[] = [];
  for (const t of tallies.values()) {
    total += t.ms.length;
    all.push(...t.ms);
  }
  const missed: string[] = [];
  for (const [k, t] of tallies) {
    if (!t.ms.length) continue;
    const ms = [...t.ms].sort((a, b) => a - b);
    errors += t.errors;
    const target = TARGETS[k];
    const p99 = pct(ms, 0.99);
    const met = target === undefined ? '' : p99 < target ? `p99 < ${target}: met` : `p99 < ${target}: **NOT met**`;
    if (target !== undefined && !(p99 < target)) missed.push(k);
    log(
      `| ${k} | ${ms.length} | ${((ms.length / total) * 100).toFixed(1)} % | ${pct(ms, 0.5).toFixed(1)} | ${p99.toFixed(1)} | ${(ms[ms.length - 1] ?? NaN).toFixed(1)} | ${t.errors} | ${met} |`,
    );
  }
  all.sort((a, b) => a - b);
  log(
    `| all | ${total} | 100 % | ${pct(all, 0.5).toFixed(1)} | ${pct(all, 0.99).toFixed(1)} | ${(all[all.length - 1] ?? NaN).toFixed(1)} | ${errors} | |`,
  );
  log(`\nthroughput: ${(total / wall).toFixed(0)} requests/s (${total} in ${wall.toFixed(1)} s)`);
  for (const [k, t] of tallies) {
    if (!t.errors) continue;
    log(`errors of ${k}: ${[...t.statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}`);
    for (const f of t.first) log(`  ${f}`);
  }
  log(`errors: ${errors}`);
  for (const [k, t] of tallies)
    if (t.slowest.length) log(`slowest ${k}:\n${t.slowest.map(([ms, p]) => `  ${ms.toFixed(0)} ms ${p}`).join('\n')}`);
  const cpu = procs.map((p, i) => cpu1[i] - cpu0[i]);
  log(
    `CPU during the run (s of ${wall.toFixed(0)} s wall): server workers ${cpu
      .slice(1)
      .map((c) => c.toFixed(1))
      .join(' + ')} (${cpu
      .slice(1)
      .reduce((a, b) => a + b, 0)
      .toFixed(
        1,
      )} s, ${((cpu.slice(1).reduce((a, b) => a + b, 0) / wall) * 100).toFixed(0)} % of a core), cluster primary ${cpu[0].toFixed(1)}, PostgreSQL backends of ${DB} ${pgOurs.toFixed(1)} (all postgres processes ${pgAll.toFixed(1)}), the load clients (this process) ${((self.user + self.system) / 1e6).toFixed(1)}`,
  );
  const serverCpu = cpu.reduce((a, b) => a + b, 0);
  log(
    `CPU a request: server processes ${((serverCpu / total) * 1000).toFixed(2)} ms, PostgreSQL (this database's backends) ${((pgOurs / total) * 1000).toFixed(2)} ms`,
  );
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  const slowTotal = [...slowAt.values()].reduce((a, b) => a + b, 0);
  log(
    `requests over ${SLOW_MS} ms by the second they started in (second: count): ${
      [...slowAt]
        .sort((a, b) => a[0] - b[0])
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ') || 'none'
    } — ${slowTotal} in ${slowAt.size} of ${Math.ceil(wall)} seconds`,
  );
  await new Promise((r) => setTimeout(r, 200));
  log(
    `event-loop delay (ms, p50 / p99 / max): server workers ${
      loopLines
        .map((l) => {
          const x = JSON.parse(l);
          return `${x.p50} / ${x.p99} / ${x.max}`;
        })
        .join(', ') || 'not reported'
    }; the load clients ${ms(ownLoop.percentile(50))} / ${ms(ownLoop.percentile(99))} / ${ms(ownLoop.max)}`,
  );
  log(`load average: before start ${loadBefore}, at the run's start ${loadStart}, at its end ${loadEnd}`);
  log(`payments' attachments put back after the run: ${restored}`);
  log(
    `targets (staff lists p99 < 300 ms, map p99 < 100 ms, 0 errors): ${!missed.length && !errors ? 'met' : `NOT met${missed.length ? ` (${missed.join(', ')})` : ''}${errors ? ` (${errors} errors)` : ''}`}`,
  );
  if (STRICT && (errors || missed.length)) process.exitCode = 1;
} finally {
  agent.destroy();
  cluster.child.kill('SIGTERM');
  await new Promise((r) => {
    cluster.child.once('exit', r);
    setTimeout(r, 12_000).unref();
  });
}
