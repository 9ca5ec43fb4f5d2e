import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, type PageProblems, shot, typeDate } from './support';
import { noOpenssl, trustedKeyFile } from './pki';
import { skipBecause } from '../test/support/skip';

/**
 * Compensation reports: one made on its form (with files uploaded as they are chosen), not signed;
 * the signing dialog's "save without signature" saves it unsigned and sends nothing (the E-IMZO
 * provider says it cannot reach the signing program, which test machines do not run); sending it
 * signed with a PKCS#12 key file in the browser, which the server verifies against a trusted CA
 * and the subject's INN, records its signer and time; a rejection asks for its comment (the signed
 * steps are skipped without `openssl`, which writes the key file).
 */

const baseUrl = inject('baseUrl');
const notification = (page: Page) => page.getByTestId('notification');
const uid = `${Date.now() % 100000}`.padStart(5, '0');
const today = new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10);
const year = Number(today.slice(0, 4));

interface Subject {
  id: number;
  inn: string;
  name: string;
}
interface Report {
  id: number;
  status: string;
  version: number;
  signed: boolean;
  signer: string | null;
  signed_at: string | null;
  files: number[];
}

/** a 1×1 PNG and the smallest PDF header: the server types files by their first bytes */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PDF = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n';

let session: AdminSession;
let page: Page;
let problems: PageProblems;
let dir: string;
let subject: Subject;
let report: Report;

beforeAll(async () => {
  session = await adminSession(baseUrl, 'reports');
  ({ page, problems, dir } = session);
  const [region] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/regions?range=[0,0]');
  const [category] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/subject-categories?range=[0,0]');
  subject = await api<Subject>(page, '/api/ecofund/subject', 'uz', {
    method: 'POST',
    body: { inn: `8${uid}001`, name: `“Hisobot ${uid}” AJ`, region_id: region.id, category_id: category.id },
  });
});

afterAll(async () => {
  await session?.close();
});

async function openReport() {
  await page.goto(`${baseUrl}/admin/#/ecofund/subject-report-yearly/${report.id}/show`);
  await page.getByTestId('entity-show').waitFor();
  await expect.poll(() => page.locator('.ra-field-id').innerText()).toContain(String(report.id));
}

const statusText = () => page.locator('.ra-field-status').innerText();
/** the "signed" flag as shown: a check mark, or a cross */
const signedFlag = () => page.locator('.ra-field-signed [data-value]').getAttribute('data-value');

describe('a compensation report, sent from the signing dialog', () => {
  it('is made on its form with an ingredient line', async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund/subject-report-yearly/create`);
    await page.getByTestId('save-button').waitFor();
    await page.locator('.ra-input-subject_id input').fill(subject.inn);
    await page.getByRole('option', { name: subject.name }).click();
    await page.locator('input[name=year]').fill(String(year));
    await page.locator('.ra-input-period [role=combobox]').click();
    await page.locator('[role=listbox] [data-value=year]').click();
    await typeDate(page.locator('input[name=report_date]'), today);
    // files: uploaded as they are chosen; a type the field does not accept is refused first
    const files = page.getByTestId('file-input-files');
    await page.getByTestId('file-picker-files').setInputFiles({ name: 'izoh.txt', mimeType: 'text/plain', buffer: Buffer.from('matn') });
    await expect
      .poll(() => page.getByTestId('file-error-files').innerText())
      .toBe('«izoh.txt» turidagi fayl qabul qilinmaydi (PDF yoki rasm)');
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/resources/upload?'))
        uploads.push(`${r.headers()['content-type']} ${decodeURIComponent(new URL(r.url()).searchParams.get('name')!)}`);
    });
    await page.getByTestId('file-picker-files').setInputFiles([
      { name: 'nuqta.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') },
      { name: 'dalolatnoma.pdf', mimeType: 'application/pdf', buffer: Buffer.from(PDF) },
    ]);
    await expect.poll(() => files.locator('[data-testid^="file-remove-"]').count()).toBe(2);
    await expect.poll(() => files.innerText()).toMatch(/nuqta\.png[\s\S]*dalolatnoma\.pdf/);
    await files.locator('img[data-testid^=image-preview-]').waitFor();
    expect(uploads).toEqual(['image/png nuqta.png', 'application/pdf dalolatnoma.pdf']);
    await page.locator('.ra-input-ingredients .button-add').first().click();
    await page.locator('input[name="ingredients.0.pollutant"]').fill('Chang (PM10)');
    await page.locator('input[name="ingredients.0.mass"]').fill('10');
    await page.locator('input[name="ingredients.0.norm"]').fill('0.12');
    await page.getByTestId('save-button').click();
    await expect.poll(() => notification(page).innerText()).toContain('Yozuv qoʻshildi');
    [report] = await api<Report[]>(
      page,
      `/api/ecofund/subject-report-yearly?filter=${encodeURIComponent(JSON.stringify({ subject_id: subject.id }))}`,
    );
    expect(report.status).toBe('new');
    await openReport();
    expect(await statusText()).toContain('Yangi');
    // the files by name, the image with its preview, fetched with the session's token
    await expect.poll(() => page.locator('.ra-field-files').innerText()).toMatch(/nuqta\.png[\s\S]*dalolatnoma\.pdf/);
    await page.locator('.ra-field-files img[data-testid^=image-preview-]').waitFor();
    expect(report).toMatchObject({ files: [expect.any(Number), expect.any(Number)] });
    await expect.poll(() => page.getByTestId('flows-empty').innerText()).toBe('Harakatlar tarixi yoʻq');
    // a new report is not signed: no check mark, no signer, no time
    expect(await signedFlag()).toBe('false');
    expect(report).toMatchObject({ signed: false, signer: null, signed_at: null });
    await expectNoRawKeys(page);
  });

  it('shows the document to sign; E-IMZO says it cannot reach the signing program', async () => {
    await page.getByTestId('workflow-send').click();
    const dialog = page.getByTestId('sign-dialog');
    const doc = dialog.getByTestId('sign-document');
    await expect.poll(() => doc.innerText()).toContain(`Hisobot raqami\t${report.id}`);
    expect(await doc.innerText()).toContain(`Subyekt STIR\t${subject.inn}`);
    expect(await doc.innerText()).toContain('Davr\tYillik');
    expect(await doc.innerText()).toMatch(/Chang \(PM10\)\s+10\.000000\s+0\.120000/);
    const error = dialog.getByTestId('sign-error');
    await expect.poll(() => error.innerText(), { timeout: 15_000 }).toContain('Imzolash dasturiga ulanib boʻlmadi');
    expect(await error.innerText()).toContain('Imzolash dasturi oʻrnatilmagan yoki uning versiyasi eskirgan');
    expect(await dialog.getByTestId('sign-submit').isEnabled()).toBe(false);
    await shot(page, 'signing-dialog', { quiet: true });
    await expectNoRawKeys(page);
  });

  it('saves without signature: the report stays new and unsigned, and nothing is sent', async () => {
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/actions/')) requests.push(r.url().replace(/^.*\/actions\//, ''));
    });
    const saved = page.waitForRequest((r) => r.url().endsWith('/actions/save-unsigned') && r.method() === 'POST');
    await page.getByTestId('sign-skip').click();
    expect((await saved).postDataJSON()).toEqual({ version: report.version });
    await expect.poll(() => notification(page).innerText()).toContain('«Imzosiz saqlash» bajarildi');
    await page.getByTestId('sign-dialog').waitFor({ state: 'detached' });
    expect(requests).toEqual(['save-unsigned']);
    expect(await statusText()).toContain('Yangi');
    await expect.poll(signedFlag).toBe('false');
    const after = await api<Report>(page, `/api/ecofund/subject-report-yearly/${report.id}`);
    expect(after).toMatchObject({ status: 'new', signed: false, signer: null, signed_at: null });
    // "save without signature" is the signing dialog's: no button of its own beside "send"
    expect(await page.getByTestId('workflow-save-unsigned').count()).toBe(0);
    await page.getByTestId('workflow-send').waitFor();
    report = after;
    await shot(page, 'report-saved-unsigned', { quiet: true });
  });

  it(
    'is sent signed with a PKCS#12 key file, which the server verifies: signed, with its signer and time',
    skipBecause(noOpenssl),
    async () => {
      const p12 = await trustedKeyFile(page, dir, {
        ca: `Sinov CA ${uid}`,
        cn: 'Direktor Sinov',
        org: subject.name,
        inn: subject.inn,
        file: 'direktor.p12',
        password: 'maxfiy12',
      });
      await openReport();
      await page.getByTestId('workflow-send').click();
      const dialog = page.getByTestId('sign-dialog');
      await dialog.getByTestId('sign-document').waitFor();
      await dialog.getByTestId('sign-provider-pkcs12').click();
      await dialog.getByTestId('sign-pfx-file').setInputFiles(p12);
      await dialog.getByTestId('sign-pfx-password').fill('notogri');
      await dialog.getByTestId('sign-pfx-open').click();
      await expect.poll(() => dialog.getByTestId('sign-error').innerText()).toContain('Kalit paroli notoʻgʻri');
      await dialog.getByTestId('sign-pfx-password').fill('maxfiy12');
      await dialog.getByTestId('sign-pfx-open').click();
      await expect.poll(() => dialog.getByTestId('sign-certificate').innerText()).toContain(subject.inn);
      expect(await dialog.getByTestId('sign-certificate').innerText()).toContain('Direktor Sinov');
      await shot(page, 'signing-dialog-key-file', { quiet: true });
      const sent = page.waitForRequest((r) => r.url().endsWith(`/actions/send`) && r.method() === 'POST');
      await dialog.getByTestId('sign-submit').click();
      const body = (await sent).postDataJSON() as { signature: string };
      expect(body.signature).toMatch(/^MI[A-Za-z0-9+/]+=*$/);
      await expect.poll(statusText).toContain('Yuborilgan');
      const saved = await api<Report>(page, `/api/ecofund/subject-report-yearly/${report.id}`);
      expect(saved).toMatchObject({ status: 'sent', signed: true, signed_at: expect.any(String) });
      expect(saved.signer).toContain('Direktor Sinov');
      await expect.poll(signedFlag).toBe('true');
      await expect.poll(() => page.locator('.ra-field-signer').innerText()).toContain('Direktor Sinov');
      expect(await page.locator('.ra-field-signed_at').innerText()).toMatch(/\d{2}\.\d{2}\.\d{4}/);
      // the flows: saved unsigned (staying new), then sent
      await expect
        .poll(() => page.getByTestId('flow-history').innerText())
        .toMatch(/Imzosiz saqlash\s+Yangi\s+Tizim administratori[\s\S]*Yuborish\s+Yangi → Yuborilgan\s+Tizim administratori/);
      await shot(page, 'report-sent', { quiet: true });
      await expectNoRawKeys(page);
    },
  );

  it('asks for the comment a rejection needs, beside its box', skipBecause(noOpenssl), async () => {
    await page.getByTestId('workflow-reject').click();
    const dialog = page.getByTestId('workflow-dialog');
    await expect.poll(() => dialog.innerText()).toContain(`${report.id} raqamli yozuv holatini oʻzgartirasizmi?`);
    await dialog.getByTestId('workflow-confirm').click();
    await expect.poll(() => dialog.locator('.ra-input-comment .MuiFormHelperText-root').innerText()).toBe('Ushbu kiritma majburiy');
    await dialog.locator('textarea[name=comment]').fill('Normativlar eskirgan');
    await dialog.getByTestId('workflow-confirm').click();
    await expect.poll(statusText).toContain('Rad etilgan');
    await expect
      .poll(() => page.getByTestId('flow-history').innerText())
      .toMatch(/Rad etish\s+Yuborilgan → Rad etilgan\s+Tizim administratori\s+Normativlar eskirgan/);
    await expectNoRawKeys(page);
  });

  it('shows no page error', () => {
    expect(problems.errors).toEqual([]);
  });
});
