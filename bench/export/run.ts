import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { cpus, totalmem, loadavg } from 'node:os';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { openDatabase } from '../../api/db/connection.ts';
import { ADMIN_PASSWORD, benchModel, benchUrl, prepare, ROWS } from './setup.ts';
import { translate } from '../../api/meta/captions.ts';
import { fieldCaption } from '../../api/meta/load.ts';
import { cpuSeconds } from '../support/proc.ts';
import { runTmpDir } from '../../test/support/run-tmp.mjs';

/**
 * bench/export: the generic Excel export of ROWS rows × 10 columns (text, money, date, reference
 * title, integer, decimal, date-time, text with XML specials) over HTTP from a server process of
 * its own, written to a file; prints rows/s, the server's peak RSS and the file's size, then reads
 * the file back with exceljs's streaming reader (row count, captions, a money cell, a date cell).
 * Needs a PostgreSQL server: BENCH_DATABASE_URL (default the local one); BENCH_ROWS, BENCH_DB.
 * Targets: ≥ 28 000 rows/s with a peak RSS ≤ 150 MB, together.
 */
const OUT = process.env.BENCH_OUT || '/tmp/xlsxstream-bench-export.xlsx';
const log = (s: string) => console.log(s);
// the run's temporary files (the metadata copies its processes load) in a folder of its own, removed at
// its end; one a failed run left is removed by the next (test/support/run-tmp.mjs)
const runTmp = runTmpDir('ecofond-bench-export-');

/** Node flags for the server and the export's process (BENCH_NODE_FLAGS, e.g. a V8 heap setting to compare). */
function nodeFlags(): string[] {
  return (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
}

function start(): Promise<{ child: ChildProcess; port: number; pid: number }> {
  const child = spawn(process.execPath, [...nodeFlags(), '--import', 'tsx', fileURLToPath(new URL('./serve.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => {
      const a = JSON.parse(d.toString());
      resolve({ child, port: a.port, pid: a.pid });
    });
    child.once('exit', (code) => reject(new Error(`serve.ts exited ${code}`)));
  });
}

/**
 * The CPU the bench database's PostgreSQL backends spent while `during` ran: the backends of the
 * database are looked up every second (pg_stat_activity) and each one's CPU taken from /proc at
 * first sight and last; a backend that ends between two looks is missed (none does here: the pools
 * keep theirs). Needs the server on this machine, as the bench's default.
 */
async function backendsCpu<T>(during: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const db = openDatabase({ url: benchUrl(), poolMax: 1 });
  const seen = new Map<number, { first: number; last: number }>();
  const look = async () => {
    const r = await db.knex.raw('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    for (const { pid } of r.rows as { pid: number }[]) {
      const now = cpuSeconds(pid) ?? 0;
      const s = seen.get(pid);
      if (s) s.last = Math.max(s.last, now);
      else seen.set(pid, { first: now, last: now });
    }
  };
  await look();
  let looking = Promise.resolve();
  const timer = setInterval(() => {
    looking = looking.then(look).catch(() => undefined);
  }, 1000);
  try {
    const result = await during();
    clearInterval(timer);
    await looking;
    await look();
    return { result, seconds: [...seen.values()].reduce((a, s) => a + s.last - s.first, 0) };
  } finally {
    clearInterval(timer);
    await db.close();
  }
}

/** A process's resident and peak resident memory in MB (Linux /proc). */
function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

function login(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/admin/auth/login', method: 'POST', headers: { 'Content-Type': 'application/json' } },
      (res) => {
        let data = '';
        res.on('data', (c) => {
          data += c;
        });
        res.on('end', () =>
          res.statusCode === 200 ? resolve(JSON.parse(data).token) : reject(new Error(`login: ${res.statusCode} ${data}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }));
  });
}

function download(port: number, path: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers: { Authorization: `Bearer ${token}`, Language: 'uz' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`export: ${res.statusCode}`));
        res.resume();
        return;
      }
      pipeline(res, createWriteStream(OUT)).then(resolve, reject);
    });
    req.on('error', reject);
  });
}

await prepare(log);
const server = await start();
let peak = 0;
try {
  const token = await login(server.port);
  const before = memory(server.pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, memory(server.pid).rss);
  }, 100);
  const load0 = loadavg();
  const cpu0 = cpuSeconds(server.pid) ?? 0;
  const t0 = process.hrtime.bigint();
  const { seconds: pgCpu } = await backendsCpu(() => download(server.port, '/api/bench/bench-exports/export?background=0', token));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const nodeCpu = (cpuSeconds(server.pid) ?? 0) - cpu0;
  clearInterval(sampler);
  const after = memory(server.pid);
  const rate = ROWS / seconds;
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB; load average before ${load0.map((l) => l.toFixed(2)).join(' ')}, after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  log(
    `over HTTP: ${ROWS} rows × 10 columns in ${seconds.toFixed(2)} s = ${Math.round(rate)} rows/s; file ${(statSync(OUT).size / 1024 ** 2).toFixed(1)} MB`,
  );
  log(
    `  CPU: server ${nodeCpu.toFixed(1)} s (${((nodeCpu / ROWS) * 1e5).toFixed(2)} s a 100 000 rows), PostgreSQL backends ${pgCpu.toFixed(1)} s; ${Math.round(ROWS / nodeCpu)} rows per server CPU-second, ${Math.round(ROWS / (nodeCpu + pgCpu))} per CPU-second of both`,
  );
  log(
    `  server RSS: ${before.rss.toFixed(0)} MB before, peak during ${peak.toFixed(0)} MB (+${(peak - before.rss).toFixed(0)} MB for the export; VmHWM ${after.hwm.toFixed(0)} MB since start)`,
  );
  log(
    `  together (the same run): ${Math.round(rate)} rows/s ${rate >= 28000 ? '≥' : '<'} 28000 and peak RSS ${peak.toFixed(0)} MB ${peak <= 150 ? '≤' : '>'} 150 MB: ${rate >= 28000 && peak <= 150 ? 'met' : 'MISSED'}`,
  );
} finally {
  server.child.kill();
}

// the export alone in a process of its own (writeExport, the seam a background job runs), to a file
{
  const load0 = loadavg();
  const { result: text, seconds: pgCpu } = await backendsCpu(async () => {
    const child = spawn(
      process.execPath,
      [...nodeFlags(), '--import', 'tsx', fileURLToPath(new URL('./write.ts', import.meta.url)), `${OUT}.alone`],
      { stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
    );
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
    });
    await new Promise((resolve) => child.once('exit', resolve));
    return out;
  });
  const r = JSON.parse(text.trim().split('\n').pop()!);
  const rate = r.rows / r.seconds;
  log(
    `export alone (writeExport to a file, one process${nodeFlags().length ? ` with ${nodeFlags().join(' ')}` : ''}): ${r.rows} rows in ${r.seconds.toFixed(2)} s = ${Math.round(rate)} rows/s; load average before ${load0.map((l) => l.toFixed(2)).join(' ')}, after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  log(
    `  CPU: the export's process ${r.cpu.toFixed(1)} s (${((r.cpu / r.rows) * 1e5).toFixed(2)} s a 100 000 rows), PostgreSQL backend ${pgCpu.toFixed(1)} s; ${Math.round(r.rows / r.cpu)} rows per process CPU-second, ${Math.round(r.rows / (r.cpu + pgCpu))} per CPU-second of both`,
  );
  log(
    `  RSS: ${r.rssBefore.toFixed(0)} MB before (tsx and its loader thread, the API's code, the metadata), peak ${r.peak.toFixed(0)} MB (VmHWM): +${(r.peak - r.rssBefore).toFixed(0)} MB for the export`,
  );
  log(
    `  together (the same run): ${Math.round(rate)} rows/s ${rate >= 28000 ? '≥' : '<'} 28000 and peak RSS ${r.peak.toFixed(0)} MB ${r.peak <= 150 ? '≤' : '>'} 150 MB: ${rate >= 28000 && r.peak <= 150 ? 'met' : 'MISSED'}`,
  );
  rmSync(`${OUT}.alone`, { force: true });
}

// read it back: the streaming reader (the whole workbook in memory would take gigabytes at a million rows)
const db = openDatabase({ url: benchUrl(), poolMax: 1 });
const [first] = await db.knex('bench_exports').orderBy('id').limit(1).select('id', 'amount', 'paid_on');
const last = await db.knex('bench_exports').max('id as id').first();
await db.close();
const t1 = Date.now();
const reader = new ExcelJS.stream.xlsx.WorkbookReader(OUT, {
  worksheets: 'emit',
  sharedStrings: 'cache',
  styles: 'cache',
  hyperlinks: 'ignore',
  entries: 'ignore',
});
let rows = 0;
let header: unknown[] = [];
let money: ExcelJS.Cell | null = null;
let date: ExcelJS.Cell | null = null;
let lastId: unknown = null;
for await (const sheet of reader) {
  for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
    rows++;
    if (row.number === 1) header = (row.values as unknown[]).slice(1);
    if (row.number === 2) {
      money = row.getCell(3);
      date = row.getCell(4);
    }
    lastId = row.getCell(1).value;
  }
}
const problems: string[] = [];
if (rows !== ROWS + 1) problems.push(`rows ${rows}, expected ${ROWS + 1}`);
const model = benchModel();
const e = model.entities.get('bench-exports')!;
const captions = e.list.columns.map((c) => translate(model, 'uz', e.fields[c] ? fieldCaption(c, e.fields[c]) : `fields.${c}`));
if (header.join('|') !== captions.join('|')) problems.push(`captions ${header.join('|')}, expected ${captions.join('|')}`);
if (Number(money?.value) !== Number(first.amount) || money?.numFmt !== '#,##0.00')
  problems.push(`money cell ${money?.value} ${money?.numFmt}, expected ${first.amount}`);
const d = date?.value as Date | undefined;
if (!(d instanceof Date) || d.toISOString().slice(0, 10) !== first.paid_on || date?.numFmt !== 'dd.mm.yyyy')
  problems.push(`date cell ${date?.value} ${date?.numFmt}, expected ${first.paid_on}`);
if (Number(lastId) !== Number(last?.id)) problems.push(`last id ${lastId}, expected ${last?.id}`);
log(
  `read back with exceljs in ${((Date.now() - t1) / 1000).toFixed(1)} s: ${rows} rows; captions ${header.join(' | ')}; B2 money ${money?.value} (${money?.numFmt}); D2 date ${d?.toISOString().slice(0, 10)} (${date?.numFmt})`,
);
if (process.env.BENCH_KEEP_FILE !== '1') rmSync(OUT, { force: true });
runTmp.remove();
if (problems.length) {
  console.error(`READ-BACK FAILED: ${problems.join('; ')}`);
  process.exit(1);
}
log('read-back: ok');
