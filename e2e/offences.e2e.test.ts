import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, expectNoRawKeys, launch, shot, signedIn as signedInAs, typeDate } from './support';

/**
 * An offence end to end with the demo users (docs/offences.md): the inspector writes it on the
 * form with two offenders (a person with a passport copy, an organisation found by its INN) and a
 * witness, attaches a typed file and sends it for review; the region's reviewer (`confirming`)
 * sends it to the interior ministry; the region's police officer (`police`) closes it with the
 * fine enforced. Each sees the flow rows of the others.
 */

const baseUrl = inject('baseUrl');
const NUMBER = `E2E-${Date.now() % 100000}`;
/** a 1×1 PNG */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

interface Named {
  id: number;
  name: string | { uz: string };
  inn?: string;
}
let browser: Browser;
let dir: string;
let offenceId = 0;

const signedIn = (username: string) => signedInAs(browser, baseUrl, username);

/** Types into a reference's autocomplete and picks the option. */
async function pick(page: Page, id: string, text: string, option: string | RegExp = text): Promise<void> {
  const input = page.locator(`input[name="${id}"]`);
  await input.click();
  await input.fill(text);
  await page.getByRole('option', { name: option }).first().click();
}

/** Opens an enum's select (the combobox beside its hidden input). */
async function select(scope: ReturnType<Page['locator']>, name: string): Promise<void> {
  await scope.locator(`input[name="${name}"]`).locator('..').getByRole('combobox').click();
}

async function runAction(
  page: Page,
  action: string,
  params: (dialog: ReturnType<Page['getByTestId']>) => Promise<void> = async () => undefined,
): Promise<void> {
  await page.getByTestId(`workflow-${action}`).click();
  const dialog = page.getByTestId('workflow-dialog');
  await dialog.waitFor();
  await params(dialog);
  await dialog.getByTestId('workflow-confirm').click();
  await dialog.waitFor({ state: 'detached' });
}

const status = (page: Page) => page.locator('.ra-field-status').innerText();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ecofond-offences-'));
  writeFileSync(join(dir, 'joy.png'), PNG);
  writeFileSync(join(dir, 'pasport.png'), PNG);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('an offence from the inspector to the police', () => {
  it('the inspector writes it with two offenders and a witness, attaches a file and sends it for review', async () => {
    const { page, problems, close } = await signedIn('inspector');
    // the inspector's region and one of its subjects, as the inspector sees them
    const [own] = await api<{ region_id: number }[]>(page, '/api/ecofund-offences/offences?perPage=1');
    const region = await api<Named>(page, `/api/ecofund-sprav/regions/${own.region_id}`);
    const [subject] = await api<Named[]>(page, `/api/ecofund/subject?perPage=1&region_id=${own.region_id}`);
    const [article] = await api<(Named & { code: string })[]>(page, '/api/ecofund-sprav/fine?perPage=1&q=MJtK-91');

    await page.goto(`${baseUrl}/admin/#/ecofund-offences/offences`);
    await page.getByTestId('entity-list').waitFor();
    await page.getByTestId('create-button').click();
    await page.getByTestId('save-button').waitFor();
    await page.locator('input[name=number]').fill(NUMBER);
    await typeDate(page.locator('input[name=offence_date]'), '2025-09-01');
    await pick(page, 'region_id', (region.name as { uz: string }).uz.slice(0, 6), (region.name as { uz: string }).uz);
    await page.locator('input[name=address]').fill('Navroʻz mahallasi, 12-uy');
    await pick(page, 'fine_id', 'Chiqindilarni', /Chiqindilarni/);
    await page.locator('input[name=fine_multiple]').fill('2');
    expect(article.code).toBe('MJtK-91-1');

    // two offenders: a person with a passport copy, and an organisation by its INN
    await page.locator('.button-add-offenders').click();
    await page.locator('input[name="offenders.0.full_name"]').fill('Aliyev Vali');
    await page.locator('input[name="offenders.0.passport"]').fill('AA 1234567');
    await page.getByTestId('file-picker-passport_copy').first().setInputFiles(join(dir, 'pasport.png'));
    await page.locator('.button-add-offenders').click();
    await select(page.locator('body'), 'offenders.1.offender_kind');
    await page.getByRole('option', { name: 'Tashkilot' }).click();
    await page.locator('input[name="offenders.1.inn"]').fill(subject.inn!);
    // a witness
    await page.locator('.button-add-witnesses').click();
    await page.locator('input[name="witnesses.0.full_name"]').fill('Saidova Gulnora');
    // a photo of the place
    await page.locator('.button-add-files').click();
    await pick(page, 'files.0.type_id', 'Foto', /Fotosurat/);
    await page.getByTestId('file-picker-file').setInputFiles(join(dir, 'joy.png'));
    await expect
      .poll(() => page.locator('[data-testid^="file-"][data-testid$="0"], [data-testid^="file-remove-"]').count())
      .toBeGreaterThan(0);
    await shot(page, 'offence-form');
    // outside the article's interval the form warns with the interval, and nothing is saved
    await page.locator('input[name=fine_multiple]').fill('25');
    await page.getByTestId('save-button').click();
    await expect
      .poll(() => page.locator('.ra-input-fine_multiple').innerText())
      .toContain('Qiymat belgilangan oraliqda boʻlishi kerak (1 – 3)');
    await page.locator('input[name=fine_multiple]').fill('2');
    await page.getByTestId('save-button').click();

    await page.getByTestId('entity-list').waitFor();
    const created = await api<
      {
        id: number;
        status: string;
        fine_amount: string;
        offenders: { subject_id: number | null; passport_copy: number | null }[];
        witnesses: unknown[];
        files: unknown[];
      }[]
    >(page, `/api/ecofund-offences/offences?q=${NUMBER}`);
    expect(created).toHaveLength(1);
    offenceId = created[0].id;
    expect(created[0].status).toBe('draft');
    await page.goto(`${baseUrl}/admin/#/ecofund-offences/offences/${offenceId}/show`);
    await page.getByTestId('entity-show').waitFor();
    const full = await api<{
      offenders: { subject_id: number | null; passport_copy: number | null; full_name: string }[];
      witnesses: unknown[];
      files: unknown[];
      fine_amount: string;
    }>(page, `/api/ecofund-offences/offences/${offenceId}`);
    expect(full.offenders).toHaveLength(2);
    expect(full.offenders[0].passport_copy).not.toBeNull();
    expect(full.offenders[1].subject_id).toBe(subject.id);
    expect(full.witnesses).toHaveLength(1);
    expect(full.files).toHaveLength(1);
    expect(Number(full.fine_amount)).toBeGreaterThan(0);
    expect(await page.locator('.ra-field-offenders').innerText()).toContain('AA 1234567');

    await runAction(page, 'send-for-review');
    await expect.poll(() => status(page)).toContain('Koʻrib chiqishga yuborilgan');
    // sent: no longer the inspector's to edit
    expect(await page.getByTestId('edit-button').count()).toBe(0);
    await shot(page, 'offence-sent-for-review', { quiet: true });
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
    await close();
  });

  it('the reviewer sends it to the interior ministry', async () => {
    const { page, problems, close } = await signedIn('confirming');
    await page.goto(`${baseUrl}/admin/#/ecofund-offences/offences/${offenceId}/show`);
    await page.getByTestId('entity-show').waitFor();
    await page.getByTestId('workflow-send-to-mvd').waitFor();
    // the reviewer's three actions from review, and none of the inspector's or the police's
    for (const a of ['return-to-inspector', 'close']) expect(await page.getByTestId(`workflow-${a}`).count()).toBe(1);
    for (const a of ['send-for-review', 'mvd-close']) expect(await page.getByTestId(`workflow-${a}`).count()).toBe(0);
    await runAction(page, 'send-to-mvd');
    await expect.poll(() => status(page)).toContain('IIVga yuborilgan');
    expect(await page.getByTestId('flow-history').innerText()).toContain('Karimov Jasur Akmalovich');
    expect(problems.errors).toEqual([]);
    await close();
  });

  it('the police officer sees it among the offences sent to the ministry and closes it', async () => {
    const { page, problems, close } = await signedIn('police');
    await page.goto(`${baseUrl}/admin/#/ecofund-offences/offences`);
    await page.getByTestId('entity-list').waitFor();
    const listed = await api<{ id: number; mvd_sent: boolean }[]>(page, '/api/ecofund-offences/offences?perPage=100');
    expect(listed.map((o) => o.id)).toContain(offenceId);
    expect(listed.every((o) => o.mvd_sent)).toBe(true);
    await page.goto(`${baseUrl}/admin/#/ecofund-offences/offences/${offenceId}/show`);
    await page.getByTestId('entity-show').waitFor();
    await runAction(page, 'mvd-close', async (dialog) => {
      await select(dialog, 'mvd_result');
      await page.getByRole('option', { name: 'Jarima undirildi' }).click();
    });
    await expect.poll(() => status(page)).toContain('Yopilgan');
    expect(await page.locator('.ra-field-mvd_result').innerText()).toContain('Jarima undirildi');
    // the flow list reloads after the move: wait for its new row
    await expect.poll(() => page.getByTestId('flow-history').innerText()).toContain('IIV: yopish');
    const flows = await page.getByTestId('flow-history').innerText();
    for (const step of ['Koʻrib chiqishga yuborish', 'IIVga yuborish']) expect(flows).toContain(step);
    await shot(page, 'offence-closed-by-police', { quiet: true });
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
    await close();
  });
});
