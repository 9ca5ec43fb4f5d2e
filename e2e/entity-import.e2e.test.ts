import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, shot, writeSheet } from './support';

/**
 * The generic import of a reference book (docs/reference-books.md, "Importing a book"): on the
 * districts' list, "Import (.xlsx)" takes a file laid out as the export (the captions of its
 * columns, the region by its name); a file with a bad row is refused with the row named in the
 * errors dialog and nothing written; a good one runs as a job with its progress bar and the list
 * shows the new rows.
 */
const baseUrl = inject('baseUrl');
const LIST = 'ecofund-sprav/areas';
const uid = `${Date.now() % 100000}`.padStart(5, '0');
const soato = (n: number) => `000${uid}${n}`;
const rows = (page: Page) => page.locator('tbody tr.RaDatagrid-row');
let session: AdminSession;
let page: Page;
let dir: string;
let region: { id: number; name: string };

// the header as the export writes it (the list's captions in Uzbek)
const xlsx = (name: string, data: unknown[][]) => writeSheet(dir, name, 'Tumanlar', ['Viloyat', 'MHOBT (SOATO)', 'Nomi', 'Faol'], data);

beforeAll(async () => {
  session = await adminSession(baseUrl, 'entity-import');
  ({ page, dir } = session);
  const [r] = await api<{ id: number; name: string | { uz: string } }[]>(page, '/api/ecofund-sprav/regions?range=[0,0]');
  region = { id: r.id, name: typeof r.name === 'string' ? r.name : r.name.uz };
});
afterAll(async () => {
  await session?.close();
});

describe('importing a reference book from .xlsx', () => {
  it('the list has the button; a bad row is refused by its number, nothing written', { timeout: 60_000 }, async () => {
    await page.goto(`${baseUrl}/admin/#/${LIST}`);
    await page.getByTestId('import-xlsx').waitFor();
    const bad = await xlsx('areas-bad.xlsx', [
      [region.name, soato(1), `Tuman ${uid} A`, '✓'],
      [region.name, 'abc', `Tuman ${uid} B`, '✓'],
      ['Yoʻq viloyat', soato(3), `Tuman ${uid} C`, ''],
    ]);
    await page.getByTestId('import-xlsx-file').setInputFiles(bad);
    await page.getByTestId('job-progress').waitFor();
    const dialog = page.getByTestId('import-errors');
    await dialog.waitFor({ timeout: 20_000 });
    expect(await dialog.innerText()).toContain('Faylda xatolar bor, hech narsa yuklanmadi');
    const errors = await dialog.getByTestId('import-error-row').allInnerTexts();
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^3\s+MHOBT \(SOATO\)\s+MHOBT kodi 4–10 raqamdan iborat/);
    expect(errors[1]).toMatch(/^4\s+Viloyat\s+Tanlangan yozuv topilmadi/);
    await shot(page, 'entity-import-errors');
    await dialog.getByRole('button', { name: 'Yopish' }).click();
    expect(await page.getByTestId('import-xlsx').isEnabled()).toBe(true);
    expect(await api<unknown[]>(page, `/api/${LIST}?filter=${encodeURIComponent(JSON.stringify({ q: `000${uid}` }))}`)).toEqual([]);
  });

  it('a good file runs as a job with its progress bar, and the list shows the rows', { timeout: 60_000 }, async () => {
    const good = await xlsx('areas.xlsx', [
      [region.name, soato(1), `Tuman ${uid} A`, '✓'],
      [region.name, soato(2), `Tuman ${uid} B`, ''],
      [region.id, soato(3), `Tuman ${uid} C`, '✓'],
    ]);
    const sent = page.waitForResponse((r) => r.url().endsWith(`/api/${LIST}/import`));
    await page.getByTestId('import-xlsx-file').setInputFiles(good);
    expect((await sent).status()).toBe(202);
    const progress = page.getByTestId('job-progress');
    await expect.poll(() => progress.getAttribute('data-state')).toMatch(/queued|running|done/);
    await shot(page, 'entity-import-progress');
    await expect.poll(() => progress.getAttribute('data-state'), { timeout: 20_000 }).toBe('done');
    await expect.poll(() => page.getByTestId('notification').innerText()).toContain('Yuklandi: 3 ta yozuv');
    // the list refreshed: the new districts (their SOATO codes sort first)
    await expect.poll(async () => (await rows(page).allInnerTexts()).filter((t) => t.includes(`Tuman ${uid}`)).length).toBe(3);
    // the button is free again for the next file, and the job says it is done
    expect(await page.getByTestId('import-xlsx').isEnabled()).toBe(true);
    expect(await progress.innerText()).toContain('Tayyor · 100 %');
    await shot(page, 'entity-import-done');
    await expectNoRawKeys(page);
    const made = await api<{ soato: string; region_id: number; is_active: boolean }[]>(
      page,
      `/api/${LIST}?filter=${encodeURIComponent(JSON.stringify({ q: `000${uid}` }))}`,
    );
    expect(made.map((m) => [m.soato, m.region_id, m.is_active]).sort()).toEqual([
      [soato(1), region.id, true],
      [soato(2), region.id, false],
      [soato(3), region.id, true],
    ]);
  });
});
