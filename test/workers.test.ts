import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { startWorkProcess } from '../api/workers.ts';
import { buildRegistry } from '../api/registry.ts';
import { execFileSync } from 'node:child_process';

/**
 * `ecofond work` (api/workers.ts): the background workers without HTTP, beside API processes that
 * leave the jobs to it (`ECOFOND_JOBS_WORKER=off`). A staff export queued through the API is run
 * there as its owner stands and downloaded through the API; without a PostgreSQL server it refuses
 * to start (the embedded database belongs to one process).
 */
process.env.ECOFOND_DATA_DIR = mkdtempSync(join(tmpdir(), 'ecofond-workers-'));
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
}, 120_000);
afterAll(async () => {
  await api?.close();
});

describe('ecofond work', () => {
  it('runs a background export queued by an API process and its owner downloads it', { timeout: 60_000 }, async () => {
    const queued = await api.get('/api/ecofund/payments/export?background=1');
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    const id = queued.body.id as number;
    process.env.ECOFOND_JOBS_POLL_MS = '50';
    const lines: string[] = [];
    const working = await startWorkProcess({ db: api.db, log: (l) => lines.push(l) });
    try {
      expect(lines.join('\n')).toMatch(/jobs on/);
      const end = Date.now() + 30_000;
      let job = (await api.get(`/api/jobs/${id}`)).body;
      while (job.state !== 'done' && job.state !== 'failed' && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 100));
        job = (await api.get(`/api/jobs/${id}`)).body;
      }
      expect(job.state, JSON.stringify(job)).toBe('done');
    } finally {
      await working.stop();
      delete process.env.ECOFOND_JOBS_POLL_MS;
    }
    const file = await api.get(`/api/jobs/${id}/file`);
    expect(file.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.raw);
    expect(wb.worksheets[0].rowCount).toBeGreaterThanOrEqual(1);
  });

  it('registers, without the HTTP stack, every job kind the API queues', () => {
    // a process of its own that builds the workers' registry alone (api/registry.ts), as `ecofond work` does
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "await import('./api/workers.ts'); (await import('./api/registry.ts')).buildRegistry(); const q = await import('./api/jobs/queue.ts'); console.log(JSON.stringify(q.jobKinds()));",
      ],
      { encoding: 'utf8' },
    );
    const alone: string[] = JSON.parse(out.trim().split('\n').at(-1)!);
    // the system's registry, as the API's start-up builds it (this process's own may hold a test's kinds too)
    expect([...alone].sort()).toEqual(Object.keys(buildRegistry().jobs).sort());
    expect(alone).toEqual(expect.arrayContaining(['export', 'report-export', 'entity-import', 'statement-import']));
  }, 60_000);

  it('refuses to start on the embedded database', async () => {
    const url = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      await expect(startWorkProcess({ log: () => undefined })).rejects.toThrow(/DATABASE_URL/);
    } finally {
      if (url !== undefined) process.env.DATABASE_URL = url;
    }
  });
});
