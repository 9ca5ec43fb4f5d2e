import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, type PageProblems, shot } from './support';

/**
 * Template documents in the browser (docs/template-documents.md): a protocol template edited in
 * the TipTap editor — a placeholder inserted from the keyboard and saved —, then a demo protocol
 * printed from it: the printable page shows the offender's name where the placeholder was, and
 * the PDF made on the server downloads and holds it.
 */
const baseUrl = inject('baseUrl');
const uid = `${Date.now() % 100000}`.padStart(5, '0');

interface Protocol {
  id: number;
  number: string;
  offender: string;
}
let session: AdminSession;
let page: Page;
let problems: PageProblems;
let dir: string;
let templateId = 0;
let protocol: Protocol;

beforeAll(async () => {
  session = await adminSession(baseUrl, 'templates');
  ({ page, problems, dir } = session);
  const [type] = await api<{ id: number }[]>(
    page,
    `/api/ecoinspection-dictionaries/template-document-types?filter=${encodeURIComponent('{"q":"PROTOCOL"}')}`,
  );
  const t = await api<{ id: number }>(page, '/api/ecoinspection-dictionaries/template-documents', 'uz', {
    method: 'POST',
    body: {
      type_id: type.id,
      name: `Sinov bayonnomasi ${uid}`,
      language: 'uz',
      is_active: true,
      body: '<h1>BAYONNOMA</h1><p>Huquqbuzar:</p>',
      fields: [],
    },
  });
  templateId = t.id;
  // a demo protocol whose offender is written in Cyrillic
  const list = await api<Protocol[]>(page, `/api/ecofund/subject-protocols?range=${encodeURIComponent('[0,49]')}`);
  protocol = list.find((p) => /[ЁА-яўқғҳЎҚҒҲ]/.test(p.offender ?? ''))!;
  expect(protocol, 'a demo protocol with a Cyrillic offender').toBeTruthy();
});

afterAll(async () => {
  await session?.close();
});

describe('template documents', () => {
  it('inserts a placeholder into a template from the keyboard and saves it', async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund-offences/template-document-editor/${templateId}`);
    const body = page.getByTestId('template-body');
    await body.waitFor();
    await page.getByTestId('insert-OFFENDER').waitFor();
    // the cursor at the end of "Huquqbuzar: "
    await body.locator('p').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' ');
    // from the editor to the "insert field" buttons with Tab, then Enter on the offender's
    const target = page.getByTestId('insert-OFFENDER');
    for (let i = 0; i < 40 && !(await target.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect.poll(() => target.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => body.locator('span[data-field="OFFENDER"]').count()).toBe(1);
    // the cursor is back in the text, after the placeholder
    await expect.poll(() => body.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('bilan tuzildi.');
    await shot(page, 'template-editor');
    await page.getByTestId('template-save').click();
    await expect
      .poll(async () =>
        (await api<{ body: string }>(page, `/api/ecoinspection-dictionaries/template-documents/${templateId}`)).body.replace(
          /&nbsp;/g,
          ' ',
        ),
      )
      .toMatch(/Huquqbuzar: <span[^>]*data-field="OFFENDER"[^>]*>.*<\/span> ?bilan tuzildi\./);
    await expectNoRawKeys(page);
  });

  it('prints a document from a protocol: the page holds the offender, the PDF downloads', async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund/subject-protocols/${protocol.id}/show`);
    await page.getByTestId('entity-show').waitFor();
    await page.getByTestId('print-document').click();
    const dialog = page.getByTestId('print-document-dialog');
    await dialog.waitFor();
    await dialog.getByTestId(`template-${templateId}`).click();
    await shot(page, 'print-document-dialog');
    await page.getByTestId('issue-document').click();
    const doc = page.getByTestId('issued-document');
    await doc.waitFor();
    expect((await doc.innerText()).replace(/\u00a0/g, ' ')).toContain(`Huquqbuzar: ${protocol.offender} bilan tuzildi.`);
    await shot(page, 'issued-document');

    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByTestId('download-pdf').click();
    const file = join(dir, (await download).suggestedFilename());
    await (await download).saveAs(file);
    expect(file).toMatch(/\.pdf$/);
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    expect(String(text).replace(/\s+/g, ' ')).toContain(protocol.offender);
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });
});
