import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  adminSession,
  type AdminSession,
  api,
  expectNoRawKeys,
  launch,
  login,
  newContext,
  type PageProblems,
  shot,
  watch,
  typeDate,
} from './support';

/**
 * Control zones and given permits in the browser: the administrator defines two fields for a
 * folder; the inspector fills a zone's values in the form generated from them (react-jsonschema-form),
 * a value outside its field's interval shows the field's error — as one types and, when sent, the
 * server's 400 naming the field — and a good value saves and shows under the fields' captions; an
 * inspector extends a permit's validity, with its flow row.
 */
const baseUrl = inject('baseUrl');
const uid = `${Date.now() % 100000}`.padStart(5, '0');
const today = new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10);
const R = '/admin/#/ecoinspection-dictionaries';

let session: AdminSession;
let page: Page;
let problems: PageProblems;
let inspector: Page;
let inspectorProblems: PageProblems;
let closeInspector: () => Promise<void>;
let folderId: number;

beforeAll(async () => {
  session = await adminSession(baseUrl, 'zones');
  ({ page, problems } = session);
  const browser = await launch();
  const ctx = await newContext(browser, baseUrl);
  inspector = await ctx.newPage();
  inspectorProblems = watch(inspector);
  closeInspector = () => browser.close();
  await login(inspector, baseUrl, 'inspector', 'ecofond-demo');
  // the names below are read in Uzbek, whatever language an earlier test left these users in
  for (const p of [page, inspector]) await p.getByTestId('lang-uz').click();
  // a zone of the inspector's region, in a folder of its own (made through the API as the administrator)
  const [seen] = await api<{ region_id: number }[]>(inspector, '/api/ecoinspection-dictionaries/control-zone?range=[0,0]');
  const folder = await api<{ id: number }>(page, '/api/ecoinspection-dictionaries/control-zones-folders', 'uz', {
    method: 'POST',
    body: { code: `E2E-${uid}`, name: { uz: `Sinov papkasi ${uid}`, uk: `Синов папкаси ${uid}`, ru: `Тестовая папка ${uid}` } },
  });
  folderId = folder.id;
  await api(page, '/api/ecoinspection-dictionaries/control-zone', 'uz', {
    method: 'POST',
    body: {
      folder_id: folderId,
      code: `E2E-Z-${uid}`,
      name: { uz: `Sinov koʻli ${uid}`, ru: `Тестовое озеро ${uid}` },
      region_id: seen.region_id,
      outline: [
        [69.2, 41.3],
        [69.21, 41.3],
        [69.21, 41.31],
        [69.2, 41.31],
      ],
    },
  });
  // the back-office keeps the books it has read: it reads them again with the new folder in them
  await page.reload();
  await page.getByTestId('page-dashboard').waitFor();
});

afterAll(async () => {
  await closeInspector?.();
  await session?.close();
});

async function chooseOption(p: Page, inputId: string, text: string, option: string | RegExp): Promise<void> {
  const input = p.locator(`input[name=${inputId}]`);
  await input.click();
  // the first choices arrive before the search is typed, so that they do not replace its answer
  await p.getByRole('option').first().waitFor();
  await input.fill(text);
  try {
    await p.getByRole('option', { name: option }).first().click({ timeout: 8000 });
  } catch (e) {
    throw new Error(
      `no option ${String(option)} among ${JSON.stringify(await p.getByRole('option').allInnerTexts())} (typed ${JSON.stringify(await input.inputValue())})`,
      { cause: e },
    );
  }
}

async function defineField(f: {
  code: string;
  uz: string;
  uk: string;
  ru: string;
  kind: string;
  required?: boolean;
  min?: string;
  max?: string;
}): Promise<void> {
  // opened for the folder (as from the folder's fields), the folder chosen already
  await page.goto(`${baseUrl}${R}/control-zone-fields/create?source=${encodeURIComponent(JSON.stringify({ folder_id: folderId }))}`);
  // a fresh form, not the last one's inputs
  await page.reload();
  await page.getByTestId('entity-form').waitFor();
  await expect.poll(() => page.locator('input[name=folder_id]').inputValue()).toBe(`Sinov papkasi ${uid}`);
  await page.locator('input[name=code]').fill(f.code);
  await page.locator('textarea[name="caption.uz"]').fill(f.uz);
  await page.locator('textarea[name="caption.uk"]').fill(f.uk);
  await page.locator('textarea[name="caption.ru"]').fill(f.ru);
  await page.getByRole('combobox', { name: /Maydon turi/ }).click();
  await page.getByRole('option', { name: f.kind, exact: true }).click();
  if (f.required) await page.locator('input[name=required]').check();
  if (f.min) await page.locator('input[name=min]').fill(f.min);
  if (f.max) await page.locator('input[name=max]').fill(f.max);
  const saved = page.waitForResponse(
    (r) => r.url().endsWith('/api/ecoinspection-dictionaries/control-zone-fields') && r.request().method() === 'POST',
  );
  await page.getByTestId('save-button').click();
  const answer = await saved;
  expect(answer.status(), await answer.text()).toBe(201);
  // saved, the back-office goes to the list
  await page.waitForURL((u) => !u.hash.includes('/create'));
}

describe('control zones', () => {
  it('the administrator defines two fields for a folder', async () => {
    await defineField({
      code: 'depth',
      uz: 'Chuqurligi (m)',
      uk: 'Чуқурлиги (м)',
      ru: 'Глубина (м)',
      kind: 'Butun son',
      min: '0',
      max: '50',
    });
    await defineField({ code: 'state', uz: 'Suv holati', uk: 'Сув ҳолати', ru: 'Состояние воды', kind: 'Qator', required: true });
    const fields = await api<{ code: string; field_kind: string; required: boolean; min: string | null; max: string | null }[]>(
      page,
      `/api/ecoinspection-dictionaries/control-zone-fields?filter=${encodeURIComponent(JSON.stringify({ folder_id: folderId }))}`,
    );
    expect(fields.map((f) => [f.code, f.field_kind, f.required, f.min, f.max]).sort()).toEqual([
      ['depth', 'integer', false, '0.0000', '50.0000'],
      ['state', 'string', true, null, null],
    ]);
    await page.goto(`${baseUrl}${R}/control-zone-fields?filter=${encodeURIComponent(JSON.stringify({ folder_id: folderId }))}`);
    await expect.poll(() => page.getByTestId('entity-list').innerText()).toContain('Chuqurligi (m)');
    await shot(page, 'control-zone-fields-list');
    await expectNoRawKeys(page);
  });

  it("the inspector fills the zone's values in the generated form; a bad value shows the field's error", async () => {
    const p = inspector;
    await p.goto(`${baseUrl}${R}/control-zone-field-values/create`);
    await p.getByTestId('entity-form').waitFor();
    await expect.poll(() => p.getByTestId('entity-form').innerText()).toContain('Avval «Nazorat zonasi» ni tanlang');
    await chooseOption(p, 'zone_id', `Sinov koʻli ${uid}`, `Sinov koʻli ${uid}`);
    await typeDate(p.locator('input[name=filled_on]'), today);
    const form = p.getByTestId('form-values-values');
    await form.waitFor();
    expect(await form.innerText()).toContain('Chuqurligi (m)');
    await p.locator('#root_depth').fill('80');
    await p.locator('#root_state').fill('Toza');
    // the same schema checks it as one types
    await expect.poll(() => form.innerText()).toContain('Qiymat belgilangan oraliqda boʻlishi kerak (0 – 50)');
    // and the server refuses it, naming the field
    const refused = p.waitForResponse(
      (r) => r.url().endsWith('/api/ecoinspection-dictionaries/control-zone-field-values') && r.request().method() === 'POST',
    );
    await p.getByTestId('save-button').click();
    const answer = await refused;
    expect(answer.status()).toBe(400);
    expect((await answer.json()).errors).toEqual({
      'values.depth': '«Chuqurligi (m)»: Qiymat belgilangan oraliqda boʻlishi kerak (0 – 50)',
    });
    await expect.poll(() => form.innerText()).toContain('«Chuqurligi (m)»: Qiymat belgilangan oraliqda boʻlishi kerak (0 – 50)');
    await shot(p, 'control-zone-values-error', { quiet: true });

    await p.locator('#root_depth').fill('7');
    await expect.poll(() => form.innerText()).not.toContain('oraliqda');
    const saved = p.waitForResponse(
      (r) => r.url().endsWith('/api/ecoinspection-dictionaries/control-zone-field-values') && r.request().method() === 'POST',
    );
    await p.getByTestId('save-button').click();
    const ok = await saved;
    expect(ok.status()).toBe(201);
    const row = await ok.json();
    expect(row.values).toEqual({ depth: 7, state: 'Toza' });
    await p.goto(`${baseUrl}${R}/control-zone-field-values/${row.id}/show`);
    const show = p.getByTestId('entity-show');
    await expect.poll(() => show.innerText()).toMatch(/Chuqurligi \(m\)\s+7/);
    expect(await show.innerText()).toMatch(/Suv holati\s+Toza/);
    await shot(p, 'control-zone-values-show');
    await expectNoRawKeys(p);
  });
});

describe('given permits', () => {
  it("the inspector extends a permit's validity, and the flow shows it", async () => {
    const p = inspector;
    const [permit] = await api<{ id: number; number: string; valid_to: string }[]>(
      p,
      `/api/ecoinspection-dictionaries/given-permits?filter=${encodeURIComponent(JSON.stringify({ status: 'active' }))}&range=[0,0]`,
    );
    await p.goto(`${baseUrl}${R}/given-permits/${permit.id}/show`);
    await p.getByTestId('workflow-extend-validity').click();
    const dialog = p.getByTestId('workflow-dialog');
    await dialog.waitFor();
    const next = `${Number(permit.valid_to.slice(0, 4)) + 2}${permit.valid_to.slice(4)}`;
    await typeDate(dialog.locator('input[name=valid_to]'), next);
    await dialog
      .locator('textarea')
      .first()
      .fill('Egasining arizasi')
      .catch(() => undefined);
    await shot(p, 'given-permit-extend-dialog');
    const sent = p.waitForResponse((r) => r.url().endsWith(`/given-permits/${permit.id}/actions/extend-validity`));
    await dialog.getByTestId('workflow-confirm').click();
    expect((await sent).status()).toBe(200);
    const after = await api<{ valid_to: string; status: string }>(p, `/api/ecoinspection-dictionaries/given-permits/${permit.id}`);
    expect(after).toMatchObject({ valid_to: next, status: 'active' });
    const flows = p.getByTestId('flow-history');
    await expect.poll(() => flows.innerText()).toContain('Amal qilish muddatini uzaytirish');
    await shot(p, 'given-permit-extended', { quiet: true });
    await expectNoRawKeys(p);
    expect(problems.errors).toEqual([]);
    expect(inspectorProblems.errors).toEqual([]);
  });
});
