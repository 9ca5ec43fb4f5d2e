import { createWriteStream, readFileSync } from 'node:fs';
import { openDatabase } from '../../api/db/connection.ts';
import { writeExport } from '../../api/engine/export.ts';
import type { Principal } from '../../api/auth/ability.ts';
import { benchModel, benchUrl } from './setup.ts';

/**
 * The export alone, in a process of its own: the seam a background job runs (writeExport), the
 * export of the whole bench table by a caller holding its read and export actions, written to a
 * file. Prints one JSON line: rows, seconds, the CPU seconds the export took (user + system, every
 * thread of the process: the deflate's too), the process's RSS before and its peak (VmHWM).
 */
const mb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
const db = openDatabase({ url: benchUrl(), poolMax: 2 });
const model = benchModel();
const e = model.entities.get('bench-exports')!;
const principal: Principal = {
  id: 1,
  username: 'admin',
  actions: new Set([e.access.read, e.access.export!]),
  region_id: null,
  branch_id: null,
  subject_id: null,
};
await db.knex.raw('select 1');
const before = mb('VmRSS');
const t0 = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
const query = process.argv[3] ? JSON.parse(process.argv[3]) : {};
const { rows } = await writeExport(
  { knex: db.knex, model, principal, lang: 'uz' },
  'bench-exports',
  'xlsx',
  query,
  createWriteStream(process.argv[2]),
);
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ rows, seconds, cpu: (cpu.user + cpu.system) / 1e6, rssBefore: before, peak: mb('VmHWM') }));
await db.close();
