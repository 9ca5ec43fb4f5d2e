import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, newContext, type PageProblems, shot } from './support';

/**
 * Documents anyone can verify (issue 28, decision 0075), in a browser: an act printed in the
 * back-office carries a QR code and a short code; the QR code's address opens the public site's
 * check of it, which says the act stands; once the act is withdrawn (deleted) the same page says
 * "withdrawn". Screenshots of the check at 1400 and 360 px in uz, uk and ru.
 */
const baseUrl = inject('baseUrl');
const uid = `${Date.now() % 100000}`.padStart(5, '0');

interface Akt {
  id: number;
  stack_id: number;
  subject_id: number;
  akt_type_id: number;
}
let session: AdminSession;
let page: Page;
let problems: PageProblems;
let dir: string;
let aktId = 0;
let templateId = 0;

beforeAll(async () => {
  session = await adminSession(baseUrl, 'verify');
  ({ page, problems, dir } = session);
  // an act of its own, copied from a demo act's stack, subject and type (it is deleted below)
  const [demo] = await api<Akt[]>(page, `/api/ecofund/subject-akts?range=${encodeURIComponent('[0,0]')}`);
  const made = await api<{ id: number }>(page, '/api/ecofund/subject-akts', 'uz', {
    method: 'POST',
    body: {
      stack_id: demo.stack_id,
      subject_id: demo.subject_id,
      akt_type_id: demo.akt_type_id,
      number: `V-${uid}`,
      akt_date: '2026-11-02',
    },
  });
  aktId = made.id;
  const [type] = await api<{ id: number }[]>(
    page,
    `/api/ecoinspection-dictionaries/template-document-types?filter=${encodeURIComponent('{"q":"ACT"}')}`,
  );
  const templates = await api<{ id: number; language: string; is_active: boolean }[]>(
    page,
    `/api/ecoinspection-dictionaries/template-documents?filter=${encodeURIComponent(JSON.stringify({ type_id: type.id }))}`,
  );
  templateId = templates.find((t) => t.language === 'uz' && t.is_active)!.id;
});

afterAll(async () => {
  await session?.close();
});

const CAPTIONS = {
  uz: { valid: 'Hujjat haqiqiy va kuchda', withdrawn: 'Hujjat bekor qilingan' },
  uk: { valid: 'Ҳужжат ҳақиқий ва кучда', withdrawn: 'Ҳужжат бекор қилинган' },
  ru: { valid: 'Документ подлинный и действует', withdrawn: 'Документ отозван' },
} as const;

async function inLanguage(p: Page, lang: string) {
  await p.evaluate((l) => localStorage.setItem('ecofond.lang', l), lang);
  await p.reload();
}

describe('a printed act checked by whoever holds it', () => {
  let verifyUrl = '';
  let code = '';

  it('prints the act with a QR code and a short code of its public check', async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund/subject-akts/${aktId}/show`);
    await page.getByTestId('entity-show').waitFor({ timeout: 60_000 });
    await page.getByTestId('print-document').click();
    const dialog = page.getByTestId('print-document-dialog');
    await dialog.waitFor();
    await dialog.getByTestId(`template-${templateId}`).click();
    const issued = page.waitForResponse((r) => r.url().includes(`/subject-akts/${aktId}/documents`) && r.request().method() === 'POST', {
      timeout: 90_000,
    });
    await page.getByTestId('issue-document').click();
    const answer = await issued;
    expect(answer.status(), await answer.text()).toBe(201);
    await page.getByTestId('issued-document').waitFor({ timeout: 60_000 });
    const mark = page.getByTestId('document-verify');
    await mark.waitFor({ timeout: 30_000 });
    const qr = mark.getByTestId('qr-code');
    await expect.poll(() => qr.getAttribute('data-ready')).toBe('true');
    verifyUrl = (await qr.getAttribute('data-url'))!;
    expect(verifyUrl).toMatch(new RegExp(`^${baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/#/verify/[2-9A-HJKMNP-TV-Z]{10}$`));
    code = verifyUrl.slice(-10);
    expect(await mark.getByTestId('verify-code').innerText()).toBe(`${code.slice(0, 5)}-${code.slice(5)}`);
    await shot(page, 'verify-issued-act');

    // the PDF made on the server prints the same code and address
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByTestId('download-pdf').click();
    const file = join(dir, (await download).suggestedFilename());
    await (await download).saveAs(file);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(readFileSync(file))), { mergePages: true });
    const flat = String(text).replace(/[\s\u200b]+/g, '');
    expect(flat).toContain(`${code.slice(0, 5)}-${code.slice(5)}`);
    expect(flat).toContain(`/#/verify/${code}`);
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });

  it("opens the QR code's page on the public site: the act stands", async () => {
    // a visitor: a context of its own, not signed in
    const ctx = await newContext(session.browser, baseUrl);
    const pub = await ctx.newPage();
    try {
      await pub.goto(verifyUrl);
      const result = pub.getByTestId('verify-result');
      await result.waitFor({ timeout: 60_000 });
      expect(await result.getAttribute('data-status')).toBe('valid');
      for (const lang of ['uz', 'uk', 'ru'] as const) {
        await inLanguage(pub, lang);
        await expect.poll(() => pub.getByTestId('verify-status').innerText()).toContain(CAPTIONS[lang].valid);
        // no name of a person, the time in Tashkent's
        const shown = await result.innerText();
        expect(shown).toMatch(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/);
        expect(shown).toContain(`${code.slice(0, 5)}-${code.slice(5)}`);
        expect(await pub.getByTestId('verify-sha256').innerText()).toMatch(/^[0-9a-f]{64}$/);
        await expectNoRawKeys(pub);
        for (const width of [1400, 360]) {
          await pub.setViewportSize({ width, height: width < 500 ? 800 : 900 });
          await shot(pub, `verify-valid-${lang}-${width}`);
        }
        await pub.setViewportSize({ width: 1400, height: 900 });
      }
      // a code typed by hand in the form, lower case with its hyphen
      await inLanguage(pub, 'uz');
      await pub.goto(`${baseUrl}/#/verify`);
      await pub
        .getByTestId('verify-form')
        .locator('input[name="code"]')
        .fill(`${code.slice(0, 5).toLowerCase()}-${code.slice(5).toLowerCase()}`);
      await pub.getByTestId('verify-submit').click();
      await expect.poll(() => pub.getByTestId('verify-result').getAttribute('data-status')).toBe('valid');
      // a code nobody was given
      await pub.goto(`${baseUrl}/#/verify/ZZZZZZZZZZ`);
      await pub.getByTestId('verify-not-found').waitFor();
      await shot(pub, 'verify-not-found-uz-1400');
    } finally {
      await ctx.close();
    }
  });

  it('says "withdrawn" once the act is withdrawn', async () => {
    const status = await page.evaluate(async (id) => {
      const s = JSON.parse(localStorage.getItem('ecofond.session') ?? '{}') as { token?: string };
      return (await fetch(`/api/ecofund/subject-akts/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${s.token}` } })).status;
    }, aktId);
    expect(status).toBeLessThan(300);
    const ctx = await newContext(session.browser, baseUrl);
    const pub = await ctx.newPage();
    try {
      await pub.goto(verifyUrl);
      const result = pub.getByTestId('verify-result');
      await result.waitFor({ timeout: 60_000 });
      expect(await result.getAttribute('data-status')).toBe('withdrawn');
      for (const lang of ['uz', 'uk', 'ru'] as const) {
        await inLanguage(pub, lang);
        await expect.poll(() => pub.getByTestId('verify-status').innerText()).toContain(CAPTIONS[lang].withdrawn);
        await expectNoRawKeys(pub);
        for (const width of [1400, 360]) {
          await pub.setViewportSize({ width, height: width < 500 ? 800 : 900 });
          await shot(pub, `verify-withdrawn-${lang}-${width}`);
        }
        await pub.setViewportSize({ width: 1400, height: 900 });
      }
    } finally {
      await ctx.close();
    }
  });
});
