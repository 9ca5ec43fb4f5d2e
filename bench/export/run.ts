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

function start(): Promise<{ child: ChildProcess; port: number; pid: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./serve.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => { const a = JSON.parse(d.toString()); resolve({ child, port: a.port, pid: a.pid }); });
    child.once('exit', (code) => reject(new Error(`serve.ts exited ${code}`)));
  });
}

/** A process's resident and peak resident memory in MB (Linux /proc). */
function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

function login(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/api/admin/auth/login', method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
      let data = '';
      res.on('data', (c) => { data += c; });
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(data).token) : reject(new Error(`login: ${res.statusCode} ${data}`))));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }));
  });
}

function download(port: number, path: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers: { Authorization: `Bearer ${token}`, Language: 'uz' } }, (res) => {
      if (res.statusCode !== 200) { reject(new Error(`export: ${res.statusCode}`)); res.resume(); return; }
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
  const sampler = setInterval(() => { peak = Math.max(peak, memory(server.pid).rss); }, 100);
  const load0 = loadavg()[0];
  const t0 = process.hrtime.bigint();
  await download(server.port, '/api/bench/bench-exports/export?background=0', token);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  clearInterval(sampler);
  const after = memory(server.pid);
  log(`machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB; load average before ${load0.toFixed(2)}, after ${loadavg()[0].toFixed(2)}`);
  log(`export: ${ROWS} rows × 10 columns in ${seconds.toFixed(2)} s = ${Math.round(ROWS / seconds)} rows/s; file ${(statSync(OUT).size / 1024 ** 2).toFixed(1)} MB`);
  log(`server RSS: ${before.rss.toFixed(0)} MB before, peak during ${peak.toFixed(0)} MB (VmHWM ${after.hwm.toFixed(0)} MB since start)`);
  log(`targets: rows/s ≥ 28000 ${ROWS / seconds >= 28000 ? 'met' : 'MISSED'}; the export's memory (peak − before) ${(peak - before.rss).toFixed(0)} MB ≤ 150 MB ${peak - before.rss <= 150 ? 'met' : 'MISSED'}; whole server process peak ≤ 150 MB ${after.hwm <= 150 ? 'met' : 'MISSED'}`);
} finally {
  server.child.kill();
}

// the export alone in a process of its own (writeExport, the seam a background job runs), to a file
{
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./write.ts', import.meta.url)), `${OUT}.alone`], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  let text = '';
  child.stdout!.on('data', (d: Buffer) => { text += d; });
  await new Promise((resolve) => child.once('exit', resolve));
  const r = JSON.parse(text.trim().split('\n').pop()!);
  log(`export alone (writeExport to a file, one process): ${r.rows} rows in ${r.seconds.toFixed(2)} s = ${Math.round(r.rows / r.seconds)} rows/s; RSS ${r.rssBefore.toFixed(0)} MB before (tsx, the API's code, the metadata), peak ${r.peak.toFixed(0)} MB: +${(r.peak - r.rssBefore).toFixed(0)} MB for the export`);
  rmSync(`${OUT}.alone`, { force: true });
}

// read it back: the streaming reader (the whole workbook in memory would take gigabytes at a million rows)
const db = openDatabase({ url: benchUrl(), poolMax: 1 });
const [first] = await db.knex('bench_exports').orderBy('id').limit(1).select('id', 'amount', 'paid_on');
const last = await db.knex('bench_exports').max('id as id').first();
await db.close();
const t1 = Date.now();
const reader = new ExcelJS.stream.xlsx.WorkbookReader(OUT, { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
let rows = 0;
let header: unknown[] = [];
let money: ExcelJS.Cell | null = null;
let date: ExcelJS.Cell | null = null;
let lastId: unknown = null;
for await (const sheet of reader) {
  for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
    rows++;
    if (row.number === 1) header = (row.values as unknown[]).slice(1);
    if (row.number === 2) { money = row.getCell(3); date = row.getCell(4); }
    lastId = row.getCell(1).value;
  }
}
const problems: string[] = [];
if (rows !== ROWS + 1) problems.push(`rows ${rows}, expected ${ROWS + 1}`);
const model = benchModel();
const e = model.entities.get('bench-exports')!;
const captions = e.list.columns.map((c) => translate(model, 'uz', e.fields[c] ? fieldCaption(c, e.fields[c]) : `fields.${c}`));
if (header.join('|') !== captions.join('|')) problems.push(`captions ${header.join('|')}, expected ${captions.join('|')}`);
if (Number(money?.value) !== Number(first.amount) || money?.numFmt !== '#,##0.00') problems.push(`money cell ${money?.value} ${money?.numFmt}, expected ${first.amount}`);
const d = date?.value as Date | undefined;
if (!(d instanceof Date) || d.toISOString().slice(0, 10) !== first.paid_on || date?.numFmt !== 'dd.mm.yyyy') problems.push(`date cell ${date?.value} ${date?.numFmt}, expected ${first.paid_on}`);
if (Number(lastId) !== Number(last?.id)) problems.push(`last id ${lastId}, expected ${last?.id}`);
log(`read back with exceljs in ${((Date.now() - t1) / 1000).toFixed(1)} s: ${rows} rows; captions ${header.join(' | ')}; B2 money ${money?.value} (${money?.numFmt}); D2 date ${d?.toISOString().slice(0, 10)} (${date?.numFmt})`);
if (process.env.BENCH_KEEP_FILE !== '1') rmSync(OUT, { force: true });
if (problems.length) { console.error(`READ-BACK FAILED: ${problems.join('; ')}`); process.exit(1); }
log('read-back: ok');
