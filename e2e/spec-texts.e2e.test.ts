import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, type PageProblems, ROOT, SHOTS, typeDate } from './support';

/**
 * The spec's own texts where the spec puts them, in each language: "Enter the data fully" as the
 * summary of a form sent with required parts missing (the field errors stay); the block-user
 * question; the subject INN search's "fill the form first" and "no such INN in the system"; the
 * "file not attached — continue?" prompt of a document that expects a file; the "no norms" empty
 * state of a subject's norms; "Select the needed row" for a one-row action chosen from a list
 * with other than one row selected.
 */

const baseUrl = inject('baseUrl');
const uid = `${Date.now() % 100000}`.padStart(5, '0');
type Lang = 'uz' | 'uk' | 'ru';
const LANGS: Lang[] = ['uz', 'uk', 'ru'];
const flat = (o: Record<string, unknown>, p = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(o).flatMap(([k, v]) =>
      v && typeof v === 'object' ? Object.entries(flat(v as Record<string, unknown>, `${p}${k}.`)) : [[`${p}${k}`, String(v)]],
    ),
  );
const catalogue = (lang: Lang) => ({
  ...flat(JSON.parse(readFileSync(join(ROOT, 'metadata/i18n', `${lang}.json`), 'utf8'))),
  ...flat({ admin: JSON.parse(readFileSync(join(ROOT, 'admin/src/i18n', `${lang}.json`), 'utf8')).admin }),
});
const T = Object.fromEntries(LANGS.map((l) => [l, catalogue(l)])) as Record<Lang, Record<string, string>>;
const notification = (page: Page) => page.getByTestId('notification');

let session: AdminSession;
let page: Page;
let problems: PageProblems;
let subjectId: number;

beforeAll(async () => {
  session = await adminSession(baseUrl, 'spec-texts');
  ({ page, problems } = session);
  const [region] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/regions?range=[0,0]');
  const [category] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/subject-categories?range=[0,0]');
  subjectId = (
    await api<{ id: number }>(page, '/api/ecofund/subject', 'uz', {
      method: 'POST',
      body: { inn: `6${uid}003`, name: `“Matnlar ${uid}” MChJ`, region_id: region.id, category_id: category.id },
    })
  ).id;
});
afterAll(async () => {
  await page
    .getByTestId('lang-uz')
    .click()
    .catch(() => undefined);
  await session?.close();
});

/** Switches the back-office's language (kept by the session) and waits for it. */
async function switchTo(lang: Lang) {
  await page.getByTestId('lang-switcher').waitFor();
  if ((await page.getByTestId(`lang-${lang}`).getAttribute('aria-pressed')) === 'true') return;
  await page.getByTestId(`lang-${lang}`).click();
  await expect.poll(() => page.getByTestId(`lang-${lang}`).getAttribute('aria-pressed')).toBe('true');
}

async function open(hash: string, testId: string) {
  await page.goto(`${baseUrl}/admin/#${hash}`);
  await page.reload();
  await page.getByTestId(testId).first().waitFor();
}

describe("the spec's own texts", () => {
  it('a form with only a wrong format says "check the marked fields", not "enter the data fully"', async () => {
    await open('/ecofund-sprav/banks-mfo/create', 'save-button');
    await switchTo('uz');
    for (const l of LANGS) {
      if (await page.locator(`[name="name.${l}"]`).count()) await page.locator(`[name="name.${l}"]`).fill('Sinov');
    }
    await page.locator('[name=mfo]').fill('12');
    await page.getByTestId('save-button').click();
    await expect.poll(() => notification(page).innerText()).toContain('Belgilangan maydonlarni tekshiring');
    expect(await notification(page).innerText()).not.toContain(T.uz['validation.fill_fully']);
  });

  for (const lang of LANGS) {
    it(`[${lang}] a form sent with required parts missing says "Enter the data fully", its fields say which`, async () => {
      await open('/ecofund-sprav/banks-mfo/create', 'save-button');
      await switchTo(lang);
      // one part given, the others (the MFO, the other languages' names) left out
      await page.locator('[name="name.uz"]').fill('Sinov');
      await page.getByTestId('save-button').click();
      await expect.poll(() => notification(page).innerText()).toContain(T[lang]['validation.fill_fully']);
      expect(await page.locator('.MuiFormHelperText-root.Mui-error').first().innerText()).toBe(T[lang]['validation.required']);
      if (lang === 'ru') await page.screenshot({ path: join(SHOTS, 'fill-fully-ru-1400.png') });
      await expectNoRawKeys(page);
    });

    it(`[${lang}] blocking a user asks the spec's question`, async () => {
      const [fund] = (
        await api<{ id: number; username: string }[]>(
          page,
          `/api/managing/users?filter=${encodeURIComponent(JSON.stringify({ q: 'fund' }))}&range=[0,24]`,
        )
      ).filter((u) => u.username === 'fund');
      await open(`/managing/users/${fund.id}/show`, 'workflow-block');
      await switchTo(lang);
      await page.getByTestId('workflow-block').click();
      const dialog = page.getByTestId('workflow-dialog');
      await expect.poll(() => dialog.getByTestId('workflow-question').innerText()).toBe(T[lang]['prompts.block_user']);
      if (lang === 'uk') await page.screenshot({ path: join(SHOTS, 'block-question-uk-1400.png') });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect((await api<{ status: string }>(page, `/api/managing/users/${fund.id}`)).status).toBe('active');
    });

    it(`[${lang}] a one-row action from the list asks for exactly one row: "Select the needed row"`, async () => {
      await open('/managing/users', 'entity-list');
      await switchTo(lang);
      const boxes = page.locator('[data-testid=entity-list] tbody input[type=checkbox]');
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await page.getByTestId('row-block').click();
      await expect.poll(() => notification(page).innerText()).toContain(T[lang]['errors.select_row']);
      await expect(page.getByTestId('workflow-dialog').count()).resolves.toBe(0);
      await boxes.nth(1).uncheck();
      await page.getByTestId('row-block').click();
      const dialog = page.getByTestId('workflow-dialog');
      await expect.poll(() => dialog.getByTestId('workflow-question').innerText()).toBe(T[lang]['prompts.block_user']);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await boxes.nth(0).uncheck();
    });

    it(`[${lang}] the INN search asks for the form first, then says there is no such INN`, async () => {
      await open('/ecofund/subject', 'inn-search');
      await switchTo(lang);
      await page.getByTestId('inn-search').fill('');
      await page.getByTestId('inn-search-button').click();
      await expect
        .poll(() => page.locator('.MuiFormHelperText-root.Mui-error').first().innerText())
        .toBe(T[lang]['admin.subject.fill_first']);
      await page.getByTestId('inn-search').fill('599999998');
      await page.getByTestId('inn-search-button').click();
      await expect.poll(() => notification(page).innerText()).toContain(T[lang]['errors.inn_not_in_system']);
      if (lang === 'uz') await page.screenshot({ path: join(SHOTS, 'inn-search-uz-1400.png') });
    });

    it(`[${lang}] a subject with no norms says so`, async () => {
      await open(`/ecofund/subject/${subjectId}/show`, 'entity-show');
      await switchTo(lang);
      await expect.poll(() => page.getByTestId('children-empty-norms').innerText()).toBe(T[lang]['empty.no_norms']);
      await expectNoRawKeys(page);
    });
  }

  it("blocking oneself is refused, said in the user's language in the dialog", async () => {
    const [me] = (
      await api<{ id: number; username: string }[]>(
        page,
        `/api/managing/users?filter=${encodeURIComponent(JSON.stringify({ q: 'admin' }))}&range=[0,24]`,
      )
    ).filter((u) => u.username === 'admin');
    await open(`/managing/users/${me.id}/show`, 'workflow-block');
    await switchTo('ru');
    await page.getByTestId('workflow-block').click();
    const dialog = page.getByTestId('workflow-dialog');
    await expect.poll(() => dialog.getByTestId('workflow-question').innerText()).toBe(T.ru['prompts.block_user']);
    await dialog.getByTestId('workflow-confirm').click();
    await expect.poll(() => dialog.getByTestId('workflow-refusal').innerText()).toContain(T.ru['errors.self_block']);
    await page.screenshot({ path: join(SHOTS, 'self-block-ru-1400.png') });
    await page.keyboard.press('Escape');
    expect((await api<{ status: string }>(page, `/api/managing/users/${me.id}`)).status).toBe('active');
    await switchTo('uz');
  });

  it('a report saved without its file asks whether to continue; cancelling stays, continuing saves', async () => {
    await open('/ecofund/subject-report-yearly/create', 'save-button');
    await switchTo('uz');
    const year = new Date().getFullYear();
    await page.locator('.ra-input-subject_id input').fill(`6${uid}003`);
    await page.getByRole('option', { name: `“Matnlar ${uid}” MChJ` }).click();
    await page.locator('input[name=year]').fill(String(year));
    await page.locator('.ra-input-period [role=combobox]').click();
    await page.locator('[role=listbox] [data-value=year]').click();
    await typeDate(page.locator('input[name=report_date]'), new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10));
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/ecofund/subject-report-yearly')) posts.push(r.url());
    });
    await page.getByTestId('save-button').click();
    const question = page.getByTestId('file-missing-question');
    await expect.poll(() => question.innerText()).toContain(T.uz['admin.file.missing_continue'].replace(/ \(.*$/, ''));
    expect(await question.innerText()).toContain(T.uz['fields.files']);
    await page.screenshot({ path: join(SHOTS, 'file-missing-uz-1400.png') });
    await page.getByTestId('file-missing-cancel').click();
    await page.getByTestId('file-missing-dialog').waitFor({ state: 'detached' });
    expect(posts).toEqual([]);
    await page.setViewportSize({ width: 360, height: 800 });
    await page.getByTestId('save-button').click();
    await page.getByTestId('file-missing-continue').waitFor();
    await page.screenshot({ path: join(SHOTS, 'file-missing-uz-360.png') });
    await page.getByTestId('file-missing-continue').click();
    await expect.poll(() => posts.length).toBe(1);
    await page.setViewportSize({ width: 1400, height: 900 });
    expect(problems.errors).toEqual([]);
  });
});
