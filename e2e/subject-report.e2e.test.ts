import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, launch, shot, signedIn as signedInAs, typeDate } from './support';
import { noOpenssl, trustedKeyFile } from './pki';
import { skipBecause } from '../test/support/skip';

/**
 * A subject's work with the demo users, end to end: the enterprise's user (`subject`) signs in,
 * sees only its own subject, fills a compensation report on its form, signs it with its PKCS#12
 * key file and sends it; the region's fund user (`fund`) opens it in their region's list and
 * accepts it; the report's History tab shows both changes, each with who made it.
 */

const baseUrl = inject('baseUrl');
const today = new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10);
const year = Number(today.slice(0, 4));

interface Subject {
  id: number;
  inn: string;
  name: string;
  region_id: number;
}
interface User {
  id: number;
  username: string;
  fio: string;
  subject_id: number | null;
  region_id: number | null;
}

let admin: AdminSession;
let browser: Browser;
let subject: Subject;
let subjectUser: User;
let fundUser: User;
let reportId = 0;
let dir: string;
let signedAt: Date;
// loaded at run time so that the e2e type check does not take in the API's sources
const TIMESTAMP = '../api/esign/timestamp.ts';

const signedIn = (username: string) => signedInAs(browser, baseUrl, username);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ecofond-subject-report-'));
  admin = await adminSession(baseUrl, 'subject-report');
  const users = await api<User[]>(
    admin.page,
    `/api/managing/users?filter=${encodeURIComponent(JSON.stringify({ q: 'subject' }))}&range=[0,24]`,
  );
  subjectUser = users.find((u) => u.username === 'subject')!;
  fundUser = (
    await api<User[]>(admin.page, `/api/managing/users?filter=${encodeURIComponent(JSON.stringify({ q: 'fund' }))}&range=[0,24]`)
  ).find((u) => u.username === 'fund')!;
  subject = await api<Subject>(admin.page, `/api/ecofund/subject/${subjectUser.subject_id}`);
  expect(fundUser.region_id).toBe(subject.region_id);
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await admin?.close();
});

describe("a subject's compensation report, from its user to the region's fund", () => {
  it('the subject user fills a report, signs it with the key file and sends it', skipBecause(noOpenssl), async () => {
    // the subject's key file, issued by a CA the server trusts (added beside any the deployment has)
    const p12 = await trustedKeyFile(admin.page, dir, {
      ca: 'Demo CA',
      cn: 'Direktor Demo',
      org: subject.name,
      inn: subject.inn,
      file: 'kalit.p12',
      password: 'maxfiy12',
    });

    const { page, problems, close } = await signedIn('subject');
    // its lists hold its own subject only
    await page.goto(`${baseUrl}/admin/#/ecofund/subject`);
    await expect.poll(() => page.getByTestId('entity-list').locator('tbody tr').count()).toBe(1);
    expect(await page.getByTestId('entity-list').innerText()).toContain(subject.inn);

    // the report, filled on its form
    await page.goto(`${baseUrl}/admin/#/ecofund/subject-report-yearly/create`);
    await page.getByTestId('save-button').waitFor();
    await page.locator('.ra-input-subject_id input').fill(subject.inn);
    await page.getByRole('option', { name: subject.name }).click();
    await page.locator('input[name=year]').fill(String(year));
    await page.locator('.ra-input-period [role=combobox]').click();
    await page.locator('[role=listbox] [data-value=year]').click();
    await typeDate(page.locator('input[name=report_date]'), today);
    await page.locator('.ra-input-ingredients .button-add').first().click();
    await page.locator('input[name="ingredients.0.pollutant"]').fill('Chang (PM10)');
    await page.locator('input[name="ingredients.0.mass"]').fill('12.5');
    await page.locator('input[name="ingredients.0.norm"]').fill('0.12');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/ecofund/subject-report-yearly') && r.request().method() === 'POST');
    await page.getByTestId('save-button').click();
    // no file attached: the form asks whether to go on without one
    await expect.poll(() => page.getByTestId('file-missing-question').innerText()).toContain('Fayl biriktirilmagan');
    await page.getByTestId('file-missing-continue').click();
    const answer = await created;
    expect(answer.status(), await answer.text()).toBe(201);
    reportId = ((await answer.json()) as { id: number }).id;

    // signed with the key file in the browser, verified by the server against the trusted CA and the subject's INN
    await page.goto(`${baseUrl}/admin/#/ecofund/subject-report-yearly/${reportId}/show`);
    await page.getByTestId('entity-show').waitFor();
    await page.getByTestId('workflow-send').click();
    const dialog = page.getByTestId('sign-dialog');
    await dialog.getByTestId('sign-document').waitFor();
    await dialog.getByTestId('sign-provider-pkcs12').click();
    await dialog.getByTestId('sign-pfx-file').setInputFiles(p12);
    await dialog.getByTestId('sign-pfx-password').fill('maxfiy12');
    await dialog.getByTestId('sign-pfx-open').click();
    await expect.poll(() => dialog.getByTestId('sign-certificate').innerText()).toContain(subject.inn);
    // the screen says plainly whose keys count: a test CA is trusted here, this is not a real one
    const trust = await dialog.getByTestId('sign-trust').innerText();
    expect(trust).toContain('Sinov rejimi');
    expect(trust).toContain('Demo CA');
    expect(trust).toContain('vaqt belgisi serveridan');
    await dialog.getByTestId('sign-submit').click();
    await expect.poll(() => page.locator('.ra-field-status').innerText()).toContain('Yuborilgan');
    await expect.poll(() => page.locator('.ra-field-signer').innerText()).toContain('Direktor Demo');
    // sent: its actions move it now, its form is closed
    expect(await page.getByTestId('edit-button').count()).toBe(0);
    // the server kept the signature's RFC 3161 time-stamp token; the signing time is the token's
    const stored = await api<{ signed_at: string; signature_timestamp: string; signature_verified_by: string }>(
      admin.page,
      `/api/ecofund/subject-report-yearly/${reportId}`,
    );
    const token = (await import(/* @vite-ignore */ TIMESTAMP)).parseTimestampToken(stored.signature_timestamp) as {
      genTime: Date;
      tsa: string;
    };
    expect(token.tsa).toContain('ecofond local TSA');
    expect(new Date(stored.signed_at).getTime()).toBe(token.genTime.getTime());
    expect(stored.signature_verified_by).toBe('local');
    signedAt = token.genTime;
    await shot(page, 'subject-report-sent', { quiet: true });
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
    await close();
  });

  it("the region's fund user finds it in the region's list and accepts it", skipBecause(noOpenssl), async () => {
    const { page, problems, close } = await signedIn('fund');
    await page.goto(`${baseUrl}/admin/#/ecofund/subject-report-yearly/${reportId}/show`);
    await page.getByTestId('entity-show').waitFor();
    await expect.poll(() => page.locator('.ra-field-status').innerText()).toContain('Yuborilgan');
    // the signature verified, by this server, at the time-stamp's time (Tashkent)
    expect(await page.locator('.ra-field-signed').innerText()).not.toBe('');
    expect(await page.locator('.ra-field-signature_verified_by').innerText()).toContain('Ushbu tizim');
    const t = new Date(signedAt.getTime() + 5 * 3600_000).toISOString();
    expect(await page.locator('.ra-field-signed_at').innerText()).toContain(`${t.slice(8, 10)}.${t.slice(5, 7)}.${t.slice(0, 4)}`);
    await shot(page, 'subject-report-signature-verified', { quiet: true });
    await page.getByTestId('workflow-accept').click();
    await page.getByTestId('workflow-dialog').getByTestId('workflow-confirm').click();
    await expect.poll(() => page.locator('.ra-field-status').innerText()).toContain('Qabul qilingan');
    expect(problems.errors).toEqual([]);
    await close();
  });

  it('the History tab shows both changes with who made each', skipBecause(noOpenssl), async () => {
    const { page, problems, close } = await signedIn('fund');
    await page.goto(`${baseUrl}/admin/#/ecofund/subject-report-yearly/${reportId}/show`);
    await page.getByTestId('show-tab-history').click();
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    // newest first: accepted by the fund user, sent (signed) by the subject's user, made by the subject's user
    expect(await rows.nth(0).innerText()).toMatch(new RegExp(`${fundUser.fio}[\\s\\S]*Qabul qilish`));
    const sent = await rows.nth(1).innerText();
    expect(sent).toMatch(/Yuborish/);
    expect(sent).toContain(subjectUser.fio || 'subject');
    expect(sent).toMatch(/Yuborilgan/);
    expect(sent).toContain('Direktor Demo');
    expect(await rows.nth(2).getAttribute('data-op')).toBe('create');
    await shot(page, 'subject-report-history', { quiet: true });
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
    await close();
  });
});
