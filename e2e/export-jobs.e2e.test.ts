import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, shot } from './support';

/**
 * Background exports (docs/jobs.md): with the setting `exports.background_rows` lowered, a list's
 * Excel export becomes a job — the button shows its progress bar, then a download link, which
 * saves the file (read back whole); the app bar's "my exports" lists it. The setting is put back.
 */
const baseUrl = inject('baseUrl');
const LIST = 'ecofund-sprav/banks-mfo';
let session: AdminSession;
let page: Page;
interface Config {
  id: number;
  key: string;
  value: string;
  version: number;
}

async function setThreshold(p: Page, value: string): Promise<void> {
  const [c] = await api<Config[]>(
    p,
    `/api/admin/app-configs?filter=${encodeURIComponent(JSON.stringify({ q: 'exports.background_rows' }))}&range=[0,0]`,
  );
  await api(p, `/api/admin/app-configs/${c.id}`, 'uz', { method: 'PUT', body: { ...c, value } });
}

beforeAll(async () => {
  session = await adminSession(baseUrl, 'export-jobs');
  ({ page } = session);
  await setThreshold(page, '5');
});
afterAll(async () => {
  if (page) await setThreshold(page, '10000').catch(() => undefined);
  await session?.close();
});

describe('background exports', () => {
  it('a list over the threshold exports as a job: progress bar, then the download link, and the file whole', {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ecofond-jobs-'));
    try {
      const total = await api<unknown[]>(page, `/api/${LIST}?range=[0,99]`);
      expect(total.length).toBeGreaterThan(5);
      await page.goto(`${baseUrl}/admin/#/${LIST}`);
      await page.getByTestId('export-xlsx').waitFor();
      // the server keeps settings for up to 5 s: ask until the export is queued rather than streamed
      let queued = false;
      for (let i = 0; i < 20 && !queued; i++) {
        const answered = page.waitForResponse((r) => r.url().includes(`/api/${LIST}/export?`));
        await page.getByTestId('export-xlsx').click();
        queued = (await answered).status() === 202;
        if (!queued) {
          await page.waitForEvent('download').catch(() => undefined);
          await page.waitForTimeout(500);
        }
      }
      expect(queued).toBe(true);
      const progress = page.getByTestId('job-progress').first();
      await progress.waitFor();
      const bar = page.getByTestId('job-bar').first();
      await bar.waitFor();
      expect(await bar.getAttribute('role')).toBe('progressbar');
      expect(await bar.getAttribute('aria-label')).toBeTruthy();
      await shot(page, 'export-jobs-progress');
      const link = page.getByTestId('job-download').first();
      await link.waitFor({ timeout: 30_000 });
      expect(await progress.getAttribute('data-state')).toBe('done');
      await shot(page, 'export-jobs-done');
      const download = page.waitForEvent('download', { timeout: 30_000 });
      await link.click();
      const file = join(dir, (await download).suggestedFilename());
      expect(file).toMatch(/^.*banks-mfo-\d{4}-\d{2}-\d{2}\.xlsx$/);
      await (await download).saveAs(file);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(file);
      expect(wb.worksheets[0].rowCount).toBe(total.length + 1);
      // the app bar's "my exports" lists it, done, with its link
      await page.getByTestId('my-jobs').click();
      const mine = page.getByTestId('my-jobs-panel').getByTestId('job-progress').first();
      await mine.waitFor();
      expect(await mine.getAttribute('data-state')).toBe('done');
      await page.keyboard.press('Escape');
      await expectNoRawKeys(page);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
