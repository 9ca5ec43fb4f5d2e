import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, type PageProblems, shot, signedIn, writeSheet } from './support';

/**
 * The fund's screens: a bank statement imported into a payment stack from an .xlsx as a background
 * job with its progress bar (refused with its errors by row first, then previewed — cancelled, then
 * confirmed — and accepted, its payer INN attaching a payment to a subject), two
 * payments attached to the subject with the bulk action, every payment of the stack confirmed with
 * "all", and the subject's page with its balance and the split by income code; a payment's split;
 * finding a subject by INN; the ecological calculator.
 */

const baseUrl = inject('baseUrl');
const rows = (page: Page) => page.locator('tbody tr.RaDatagrid-row');
const notification = (page: Page) => page.getByTestId('notification');
const uid = `${Date.now() % 100000}`.padStart(5, '0');
/** INNs no demo subject has (those start with 3) */
const innOf = (n: number) => `7${uid}${String(n).padStart(3, '0')}`;
const today = new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10);
const year = Number(today.slice(0, 4));
const dmy = (iso: string) => iso.split('-').reverse().join('.');

interface Subject {
  id: number;
  inn: string;
  name: string;
}
interface Payment {
  id: number;
  number: string;
  status: string;
  subject_id: number | null;
  amount: string;
  splits: { income_code: string; budget: string; fund: string; organisation: string }[];
}

let session: AdminSession;
let page: Page;
let problems: PageProblems;
let dir: string;
let subject: Subject;
let stackId: number;

const xlsx = (name: string, data: unknown[][]) =>
  writeSheet(
    dir,
    name,
    'Koʻchirma',
    ['Sana', 'Raqam', 'Summa', 'Toʻlovchi', 'STIR', 'Hisob raqami', 'Maqsad', 'Tushum kodi', 'Turi'],
    data,
  );

beforeAll(async () => {
  session = await adminSession(baseUrl, 'fund');
  ({ page, problems, dir } = session);
  // what the test needs, made through the API as the administrator
  const [region] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/regions?range=[0,0]');
  const [category] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/subject-categories?range=[0,0]');
  subject = await api<Subject>(page, '/api/ecofund/subject', 'uz', {
    method: 'POST',
    body: { inn: innOf(1), name: `“Sinov ${uid}” MChJ`, region_id: region.id, category_id: category.id },
  });
  const stack = await api<{ id: number }>(page, '/api/ecofund/stack-payments', 'uz', {
    method: 'POST',
    body: { number: `E2E-${uid}`, statement_date: today },
  });
  stackId = stack.id;
});

afterAll(async () => {
  await session?.close();
});

describe("payment stacks, payments and a subject's balance", () => {
  it('refuses a statement with bad rows, listing each error by row and column', async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund/stack-payments/${stackId}/show`);
    await page.getByTestId('import-statement').waitFor();
    const bad = await xlsx('bad.xlsx', [
      [dmy(today), `${uid}-1`, 'abc', 'Toʻlovchi', subject.inn, '', 'Kompensatsiya', '3450715', 'karta'],
      [dmy(today), `${uid}-2`, 100, 'Toʻlovchi', '12', '', 'Kompensatsiya', '3450715', 'karta'],
    ]);
    await page.getByTestId('import-statement-file').setInputFiles(bad);
    // the job fails with the rows' errors: the same dialog as a refused request's
    await page.getByTestId('job-progress').waitFor();
    const dialog = page.getByTestId('import-errors');
    await dialog.waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('job-progress').getAttribute('data-state')).toBe('failed');
    expect(await dialog.innerText()).toContain('Faylda xatolar bor, hech narsa yuklanmadi');
    const errors = await dialog.getByTestId('import-error-row').allInnerTexts();
    expect(
      errors.some((t) => /^2\s+C\s+Summa\s+\S/.test(t)),
      errors.join('\n'),
    ).toBe(true);
    expect(
      errors.some((t) => /^3\s+E\s+Toʻlovchi STIR\/JShShIR\s+\S/.test(t)),
      errors.join('\n'),
    ).toBe(true);
    await shot(page, 'fund-import-errors', { quiet: true });
    await dialog.getByRole('button', { name: 'Yopish' }).click();
    expect(await api<unknown[]>(page, `/api/ecofund/payments?filter=${encodeURIComponent(JSON.stringify({ stack_id: stackId }))}`)).toEqual(
      [],
    );
  });

  it("imports a statement: the payer INN attaches a payment, and the stack's payments open", async () => {
    const good = await xlsx('good.xlsx', [
      [dmy(today), `${uid}-1`, 1500000, 'Sinov MChJ', subject.inn, '20208000900000000001', 'Kompensatsiya toʻlovi', '3450715', 'karta'],
      [dmy(today), `${uid}-2`, '2 500,00', 'Nomaʼlum toʻlovchi', '', '', 'Daraxt kesish', '3422225', 'naqd'],
      [dmy(today), `${uid}-3`, 1000.5, 'Nomaʼlum toʻlovchi', '', '', 'Kompensatsiya', '3450715', ''],
    ]);
    // the file is previewed first (a background job, nothing kept): the counts and the subject to attach to
    const previewUrl = `/api/ecofund/stack-payments/${stackId}/import?background=1&preview=1`;
    const sent = page.waitForRequest((r) => r.url().endsWith(previewUrl));
    await page.getByTestId('import-statement-file').setInputFiles(good);
    const req = await sent;
    // the file itself is the body, not a multipart form
    expect(req.headers()['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const dialog = page.getByTestId('import-preview');
    await dialog.waitFor({ timeout: 30_000 });
    expect(await dialog.getByTestId('import-preview-rows').innerText()).toBe('3');
    expect(await dialog.getByTestId('import-preview-total').innerText()).toBe('1\u00a0503\u00a0500,50');
    expect(await dialog.getByTestId('import-preview-known').innerText()).toBe('1');
    expect(await dialog.getByTestId('import-preview-unknown').innerText()).toBe('2');
    expect(await dialog.getByTestId('import-preview-attach').innerText()).toContain('1 ta toʻlov 1 ta subyektga biriktiriladi');
    const payer = await dialog.getByTestId('import-preview-payer').allInnerTexts();
    expect(payer.length).toBe(1);
    expect(payer[0]).toContain(subject.name);
    expect(payer[0]).toContain(subject.inn);
    expect(payer[0]).toContain('1\u00a0500\u00a0000,00');
    await shot(page, 'fund-import-preview', { quiet: true });
    // cancelled: nothing written
    await dialog.getByTestId('import-preview-cancel').click();
    await expect.poll(() => notification(page).innerText()).toContain('Yuklash bekor qilindi, hech narsa yozilmadi');
    await dialog.waitFor({ state: 'detached' });
    expect(await api<unknown[]>(page, `/api/ecofund/payments?filter=${encodeURIComponent(JSON.stringify({ stack_id: stackId }))}`)).toEqual(
      [],
    );
    // chosen again and confirmed (once that notification is gone: the import's own is asserted below):
    // the same file is posted with the preview's token and imported
    await notification(page).waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByTestId('import-statement-file').setInputFiles(good);
    await dialog.waitFor({ timeout: 30_000 });
    const confirmed = page.waitForRequest((r) => /\/import\?background=1&expect=[A-Za-z0-9_-]{32}$/.test(r.url()));
    await dialog.getByTestId('import-preview-confirm').click();
    await confirmed;
    // imported by a background job: its progress bar (the exports' own) beside the button, with a cancel
    const progress = page.getByTestId('job-progress');
    await progress.waitFor();
    expect(await progress.getAttribute('data-state')).toMatch(/queued|running|done/);
    // shot at once, not `quiet`: waiting out a notification may wait out the import's own, asserted below
    await shot(page, 'fund-import-progress');
    await expect
      .poll(() => notification(page).innerText())
      .toContain('Yuklandi: 3 ta toʻlov, shundan 1 tasi subyektlarga biriktirildi. Jami: 1\u00a0503\u00a0500,50');
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/ecofund/payments/${stackId}`);
    await expect.poll(() => rows(page).count()).toBe(3);
    const attached = rows(page).filter({ hasText: `${uid}-1` });
    await expect.poll(() => attached.innerText()).toContain(subject.name);
    expect(await attached.innerText()).toContain('Aniqlangan');
    await expectNoRawKeys(page);
  });

  it('attaches two payments to the subject with the bulk action', async () => {
    for (const n of [2, 3])
      await rows(page)
        .filter({ hasText: `${uid}-${n}` })
        .locator('input[type=checkbox]')
        .check();
    const toolbar = page.locator('.RaBulkActionsToolbar-toolbar');
    await expect.poll(() => toolbar.innerText()).toContain('2 ta qator tanlandi');
    await shot(page, 'payments-bulk-toolbar', { quiet: true });
    await page.getByTestId('bulk-attach').click();
    const dialog = page.getByTestId('workflow-dialog');
    await expect.poll(() => dialog.innerText()).toContain('Tanlangan 2 ta yozuvga «Subyektga biriktirish» amalini qoʻllaysizmi?');
    // the subject is asked for, as an autocomplete
    const input = dialog.locator('input[type=text]').first();
    await input.fill(subject.inn);
    await page.getByRole('option', { name: subject.name }).click();
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/ecofund/payments/actions/attach'));
    await dialog.getByTestId('workflow-confirm').click();
    const body = (await sent).postDataJSON() as { ids: number[]; subject_id: number };
    expect(body.ids).toHaveLength(2);
    expect(body.subject_id).toBe(subject.id);
    await expect.poll(() => notification(page).innerText()).toContain('«Subyektga biriktirish»: 2 ta yozuv oʻzgartirildi');
    await expect.poll(async () => (await rows(page).allInnerTexts()).filter((t) => t.includes(subject.name)).length).toBe(3);
  });

  it('confirms every payment of the stack with "all"', async () => {
    await page.getByTestId('bulk-all-menu').click();
    await page.getByTestId('bulk-all-confirm').click();
    const dialog = page.getByTestId('workflow-dialog');
    await expect.poll(() => dialog.innerText()).toContain('Roʻyxatdagi barcha 3 ta yozuvga «Tasdiqlash» amalini qoʻllaysizmi?');
    const sent = page.waitForRequest((r) => r.url().includes('/api/ecofund/payments/actions/confirm?'));
    await dialog.getByTestId('workflow-confirm').click();
    const req = await sent;
    expect(JSON.parse(new URL(req.url()).searchParams.get('filter')!)).toEqual({ stack_id: stackId });
    expect(req.postDataJSON()).toEqual({ all: true });
    await expect.poll(() => notification(page).innerText()).toContain('3 ta yozuv oʻzgartirildi');
    await expect.poll(async () => (await rows(page).allInnerTexts()).filter((t) => t.includes('Tasdiqlangan')).length).toBe(3);
    const payments = await api<Payment[]>(
      page,
      `/api/ecofund/payments?filter=${encodeURIComponent(JSON.stringify({ stack_id: stackId }))}`,
    );
    expect(payments.map((p) => [p.status, p.subject_id])).toEqual(payments.map(() => ['confirmed', subject.id]));
  });

  it("shows a payment's split by income code on its page", async () => {
    const [p] = await api<Payment[]>(page, `/api/ecofund/payments?filter=${encodeURIComponent(JSON.stringify({ q: `${uid}-2` }))}`);
    await page.goto(`${baseUrl}/admin/#/ecofund/payments-all/${p.id}/show`);
    const split = page.locator('.ra-field-splits');
    await expect.poll(() => split.innerText()).toMatch(/3422225\s+650,00\s+1\s850,00\s+0,00/);
    await expect.poll(() => page.getByTestId('flow-history').innerText()).toMatch(/Tasdiqlash\s+Aniqlangan → Tasdiqlangan/);
    await shot(page, 'payment-split', { quiet: true });
    await expectNoRawKeys(page);
  });

  it("shows the subject's page: its payments and its balance by income code", async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund/subject/${subject.id}`);
    await page.getByTestId('entity-show').waitFor();
    await expect.poll(() => page.locator('.ra-field-inn').innerText()).toContain(subject.inn);
    await shot(page, 'subject-page', { quiet: true });
    await page.getByTestId('show-tab-rel-payments-subject_id').click();
    await expect.poll(() => page.getByTestId('show-panel-rel-payments-subject_id').locator('tbody tr.RaDatagrid-row').count()).toBe(3);
    await page.getByTestId('show-tab-balance').click();
    const balance = await api<{
      balance_start: string;
      paid_in_year: string;
      balance_end: string;
      by_income_code: { income_code: string; amount: string; budget: string; fund: string }[];
    }>(page, `/api/ecofund/subject/${subject.id}/balance?year=${year}`);
    expect(balance.paid_in_year).toBe('1503500.50');
    await expect.poll(() => page.getByTestId('balance-paid').innerText()).toBe('1\u00a0503\u00a0500,50');
    expect(await page.getByTestId('balance-start').innerText()).toBe('0,00');
    expect(await page.getByTestId('balance-end').innerText()).toBe('1\u00a0503\u00a0500,50');
    expect(await page.getByTestId('balance-code-3422225').innerText()).toMatch(/^3422225\s+2\s500,00\s+650,00\s+1\s850,00\s+0,00$/);
    const compensation = balance.by_income_code.find((r) => r.income_code === '3450715')!;
    expect(compensation.amount).toBe('1501000.50');
    expect(await page.getByTestId('balance-code-3450715').innerText()).toContain('1\u00a0501\u00a0000,50');
    await shot(page, 'subject-balance', { quiet: true });
    // another year: nothing paid in it
    await page.getByTestId('balance-year').click();
    await page.getByTestId(`balance-year-${year - 1}`).click();
    await expect.poll(() => page.getByTestId('balance-empty').innerText()).toBe('Toʻlovlar yoʻq');
    await expectNoRawKeys(page);
  });

  it("keeps the subject's deletes apart: a full deletion names what goes, wants the name typed, says what holds it", async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund/subject/${subject.id}`);
    const danger = page.getByTestId('danger-actions');
    await danger.getByTestId('workflow-full-delete').waitFor();
    expect(await danger.getByTestId('record-delete').count()).toBe(1);
    expect(await page.getByTestId('workflow-actions').getByTestId('workflow-full-delete').count()).toBe(0);
    await shot(page, 'subject-actions-1400', { quiet: true });
    await danger.getByTestId('workflow-full-delete').click();
    const dialog = page.getByTestId('delete-dialog');
    await expect.poll(() => dialog.getByRole('heading').innerText()).toBe(`«${subject.name}»: Toʻliq oʻchirish?`);
    const captions = (await api<{ captions: Record<string, string> }>(page, '/api/meta')).captions;
    const goes = await dialog.getByTestId('delete-consequences').innerText();
    for (const e of ['subject-report-yearly', 'penya', 'users']) expect(goes).toContain(captions[`entity.${e}`]);
    expect(await dialog.getByTestId('delete-undo-note').innerText()).toBe('Buni qaytarib boʻlmaydi.');
    const confirm = dialog.getByTestId('delete-confirm');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByTestId('delete-typed').fill(`Sinov ${uid}`);
    expect(await confirm.isDisabled()).toBe(true);
    // typed as a person would: no quotes, small letters
    await dialog.getByTestId('delete-typed').fill(`sinov ${uid} mchj`);
    await expect.poll(() => confirm.isEnabled()).toBe(true);
    await shot(page, 'subject-full-delete-dialog');
    await confirm.click();
    // its payments hold it: the server's refusal stays in the dialog, the subject stays
    await expect.poll(() => dialog.getByTestId('delete-refusal').innerText()).toContain('pul bogʻlangan');
    await dialog.getByTestId('delete-cancel').click();
    expect((await api<Subject>(page, `/api/ecofund/subject/${subject.id}`)).id).toBe(subject.id);
  });

  it("shows a subject's actions on a phone as a labelled menu, the deletes on a line of their own, the title whole", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      // a phone's page opened where a wide screen left the menu open in react-admin's store: no drawer over it
      // (react-admin's store, admin/src/App.tsx: localStorageStore('1', 'ecofond'))
      await page.evaluate(() => localStorage.setItem('RaStoreecofond.sidebar.open', 'true'));
      await page.goto(`${baseUrl}/admin/#/ecofund/subject/${subject.id}`);
      await page.reload();
      const menu = page.getByTestId('workflow-menu');
      await expect.poll(() => menu.innerText()).toBe('AMALLAR');
      expect(await page.locator('.RaSidebar-modal').count()).toBe(0);
      const full = page.getByTestId('workflow-full-delete');
      expect(await full.innerText()).toBe('TOʻLIQ OʻCHIRISH');
      const [m, f] = [(await menu.boundingBox())!, (await full.boundingBox())!];
      expect(f.y).toBeGreaterThanOrEqual(m.y + m.height);
      expect(f.x + f.width).toBeLessThanOrEqual(360);
      // the title is not cut to a few letters: the row's name is there whole
      const title = page.locator('#react-admin-title');
      await expect.poll(() => title.innerText()).toContain(subject.name);
      expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      await shot(page, 'subject-actions-360', { quiet: true });
      await menu.click();
      const items = (await page.getByRole('menuitem').allInnerTexts()).map((t) => t.trim());
      expect(items.length).toBeGreaterThanOrEqual(3);
      expect(items.every((t) => t.length > 2)).toBe(true);
      expect(items).not.toContain('Toʻliq oʻchirish');
      await shot(page, 'subject-actions-360-menu');
      await page.keyboard.press('Escape');
      // the list: each row's opener and delete within the screen's width
      await page.goto(`${baseUrl}/admin/#/ecofund/subject`);
      const opener = rows(page).first().getByTestId('row-open');
      await opener.waitFor();
      const o = (await opener.boundingBox())!;
      expect(o.x + o.width).toBeLessThanOrEqual(360);
      await shot(page, 'subjects-list-360', { quiet: true });
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });

  it('opens a subject and a payment stack from their lists by the keyboard alone', async () => {
    for (const [list, opened] of [
      ['ecofund/subject', /^#\/ecofund\/subject\/\d+$/],
      ['ecofund/stack-payments', /^#\/ecofund\/stack-payments\/\d+(\/show)?$/],
    ] as const) {
      await page.goto(`${baseUrl}/admin/#/${list}`);
      const first = rows(page).first();
      await first.waitFor();
      // from the row's checkbox, Tab until its opener has the focus, then Enter
      await first.locator('input[type=checkbox]').focus();
      let focused = '';
      for (let i = 0; i < 15 && focused !== 'row-open'; i++) {
        await page.keyboard.press('Tab');
        focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
      }
      expect(focused, list).toBe('row-open');
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('A');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => window.location.hash)).toMatch(opened);
      await page.getByTestId('entity-show').waitFor();
    }
  });

  it('finds a subject by INN, and says so when none has it', async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund/subject`);
    await page.getByTestId('inn-search').fill(subject.inn);
    await page.getByTestId('inn-search-button').click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/ecofund/subject/${subject.id}`);
    await page.goto(`${baseUrl}/admin/#/ecofund/subject`);
    await page.getByTestId('inn-search').fill(innOf(999));
    await page.getByTestId('inn-search-button').click();
    await expect.poll(() => notification(page).innerText()).toContain('Tizimda bunday STIR mavjud emas (-104)');
    expect(await page.evaluate(() => window.location.hash)).toMatch(/^#\/ecofund\/subject(\?.*)?$/);
  });

  it('calculates compensation on the ecological calculator', async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund/ecologic-calculator`);
    await page.locator('input[name="ingredients.0.pollutant"]').fill('Chang (PM10)');
    await page.locator('input[name="ingredients.0.mass"]').fill('12.5');
    await page.locator('input[name="ingredients.0.norm"]').fill('0.12');
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/ecofund/ecologic-calculator'));
    await page.getByTestId('calculate').click();
    const out = (await (await sent).json()) as { base_value: string; amount: string };
    // as every face writes money (shared/numbers.ts): no-break thousands, a decimal comma
    const fmt = (s: string) => s.replace(/\B(?=(\d{3})+(?!\d))(?=.*\.)/g, '\u00a0').replace('.', ',');
    await expect.poll(() => page.getByTestId('calculator-total').innerText()).toBe(fmt(out.amount));
    expect(await page.getByTestId('calculator-base').innerText()).toBe(fmt(out.base_value));
    expect(await page.getByTestId('calculator-line').innerText()).toContain('Chang (PM10)');
    // a missing norm is said beside its input
    await page.locator('input[name="ingredients.0.norm"]').fill('');
    await page.getByTestId('calculate').click();
    await expect.poll(() => page.locator('.ra-input-norm .MuiFormHelperText-root').innerText()).toBe('Ushbu kiritma majburiy');
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });
});

describe("the fund user's dashboard", () => {
  it('shows their own queue, and a count opens by keyboard the list of exactly that many rows', async () => {
    const fund = await signedIn(session.browser, baseUrl, 'fund');
    try {
      const p = fund.page;
      const card = p.getByTestId('dashboard-queue-subject-report-yearly.reports-to-accept');
      await card.waitFor();
      // the reference books' counts are gone; only queues of the fund's actions are shown
      expect(await p.locator('[data-testid^="dashboard-count-"]').count()).toBe(0);
      expect(await p.getByTestId('dashboard-queue-subject-report-yearly.reports-to-send').count()).toBe(0);
      const n = Number((await card.getByTestId('dashboard-queue-count').innerText()).replace(/\D/g, ''));
      expect(n).toBeGreaterThan(0);
      // the link is named by what it shows: the count, then its caption
      const link = card.getByRole('link', { name: `${n} Qabul qilinishini kutayotgan hisobotlar` });
      await link.focus();
      await p.keyboard.press('Enter');
      await p.waitForURL(/#\/ecofund\/subject-report-yearly\?/);
      await expect.poll(() => rows(p).count()).toBe(n);
      expect(fund.problems.errors).toEqual([]);
    } finally {
      await fund.close();
    }
  });
});
