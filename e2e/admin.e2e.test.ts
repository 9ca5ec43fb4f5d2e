import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, expectNoRawKeys, launch, login, newContext, openMenuSection, pageTitle, shot, watch, type PageProblems } from './support';

/**
 * The back-office in a real browser against a real server (see global-setup.ts): signing in, the
 * menu of /api/meta, a reference book's list, form, errors, delete and Excel export, the three
 * languages, and a user who may only read reference books.
 */

interface Meta {
  menu: { route: string; caption: string; children: { route: string; caption: string; entity?: string }[] }[];
  captions: Record<string, string>;
}

const baseUrl = inject('baseUrl');
const LIST = 'ecofund-sprav/banks-mfo';
/** the list's location, with or without its query (react-admin keeps filters there) */
const LIST_HASH = new RegExp(`^#/${LIST}(\\?.*)?$`);
const rows = (page: Page) => page.locator('tbody tr.RaDatagrid-row');
const rangeText = (page: Page) => page.locator('.MuiTablePagination-displayedRows');
const helperOf = (page: Page, source: string) => page.locator(`[class*="ra-input-${source}"] .MuiFormHelperText-root`);
const notification = (page: Page) => page.getByTestId('notification');

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

async function openList(page: Page, resource = LIST) {
  await page.goto(`${baseUrl}/admin/#/${resource}`);
  await page.locator('.RaList-main, [data-testid=list-empty]').first().waitFor();
  await page
    .locator('.RaList-main .MuiLinearProgress-root')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

async function setSearch(page: Page, text: string) {
  const input = page.locator('input[name=q]');
  await input.fill(text);
  // the list follows the search box after react-admin's debounce
  await page.waitForTimeout(600);
  await page
    .locator('.RaList-main .MuiLinearProgress-root')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

describe('the back-office as the administrator', () => {
  let ctx: BrowserContext;
  let page: Page;
  let problems: PageProblems;
  let meta: Meta;

  beforeAll(async () => {
    ctx = await newContext(browser, baseUrl);
    page = await ctx.newPage();
    problems = watch(page);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('signs in and shows the dashboard in Uzbek Latin', async () => {
    await page.goto(`${baseUrl}/admin/`);
    await expect.poll(() => page.getByTestId('login-title').innerText()).toBe('Ekologik jamgʻarma');
    await shot(page, 'uz-login');
    await login(page, baseUrl, 'admin', 'ecofond-demo');
    await expect.poll(() => page.getByTestId('dashboard-welcome').innerText()).toBe('Xush kelibsiz, Tizim administratori!');
    await page
      .locator('[data-testid=dashboard-queue] .MuiSkeleton-root')
      .first()
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await shot(page, 'uz-dashboard');
    meta = await api<Meta>(page, '/api/meta', 'uz');
    await expectNoRawKeys(page);
  });

  it('shows the menu of /api/meta, each item leading to its screen, and opens every screen that is not a list', async () => {
    const sections = await page
      .locator('[data-testid^=menu-section-button-]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(sections).toEqual(meta.menu.map((s) => `menu-section-button-${s.route.slice(1)}`));
    for (const s of meta.menu) {
      const button = page.getByTestId(`menu-section-button-${s.route.slice(1)}`);
      await openMenuSection(page, s.route.slice(1));
      await expect.poll(() => button.innerText()).toBe(meta.captions[s.caption]);
      for (const c of s.children) {
        const to = `${s.route.slice(1)}/${c.route.replace(/\/+$/, '')}`;
        const item = page.getByTestId(`menu-item-${to}`);
        await expect.poll(() => item.innerText()).toBe(meta.captions[c.caption]);
        // a list's item leads to its list, which the sweeps open in each language and check its title
        // against this caption (e2e/sweep.ts); the screens that are not lists are opened here
        if (c.entity) {
          expect(await item.getAttribute('href'), to).toBe(`#/${to}`);
          continue;
        }
        await item.click();
        await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/${to}`);
        await expect.poll(() => pageTitle(page), { timeout: 10_000 }).toBe(meta.captions[c.caption]);
        // a special screen, or the page of a screen not built yet
        const shown = page
          .locator('[data-testid=page-placeholder], [data-testid^=page-screen-]')
          .or(page.getByTestId('page-error'))
          .or(page.getByTestId('page-404'))
          .or(page.getByTestId('page-403'));
        await shown
          .first()
          .waitFor()
          .catch(async (err: Error) => {
            await shot(page, `failed-${to.replace(/\//g, '_')}`);
            throw new Error(`#/${to} showed nothing: ${err.message}`);
          });
        expect((await shown.first().getAttribute('data-testid')) ?? '', to).not.toMatch(/page-(error|404|403)/);
        await page
          .locator('.RaList-main .MuiLinearProgress-root')
          .waitFor({ state: 'detached' })
          .catch(() => undefined);
      }
    }
    await expectNoRawKeys(page);
  }, 240_000); // the screens that are not lists, each opened and waited for

  it('filters, sorts and pages a reference book', async () => {
    await openList(page);
    await setSearch(page, '');
    await expect.poll(() => rows(page).count()).toBe(10);
    await expect.poll(() => rangeText(page).innerText()).toBe('1–10, jami 10');
    await shot(page, 'uz-list');

    await setSearch(page, 'hamkor');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().innerText()).toContain('Hamkorbank');
    await setSearch(page, 'no such bank at all');
    await expect
      .poll(() => page.locator('.RaDatagrid-row, .RaList-main').first().innerText())
      .toContain('Joriy filtrlar boʻyicha maʼlumot topilmadi');
    await setSearch(page, '');
    await expect.poll(() => rows(page).count()).toBe(10);

    // sorted by MFO ascending as the metadata says; a click turns it round
    const firstMfo = () => rows(page).first().locator('td.column-mfo').innerText();
    await expect.poll(firstMfo).toBe('00083');
    await page.locator('.RaDatagrid-headerCell [data-field=mfo]').click();
    await expect.poll(firstMfo).toBe('01071');
    await page.locator('.RaDatagrid-headerCell [data-field=mfo]').click();
    await expect.poll(firstMfo).toBe('00083');

    // page sizes of the spec; 7 a page makes two pages of ten banks
    const perPage = page.getByRole('combobox', { name: 'Sahifadagi qatorlar:' });
    await perPage.click();
    const sizes = await page.locator('[role=listbox] [role=option]').evaluateAll((els) => els.map((e) => e.getAttribute('data-value')));
    expect(sizes).toEqual(['7', '10', '20', '25', '50', '100']);
    await page.locator('[role=listbox] [data-value="7"]').click();
    await expect.poll(() => rows(page).count()).toBe(7);
    await expect.poll(() => rangeText(page).innerText()).toBe('1–7, jami 10');
    await page.getByRole('button', { name: 'Keyingi sahifaga oʻtish' }).click();
    await expect.poll(() => rows(page).count()).toBe(3);
    await expect.poll(() => rangeText(page).innerText()).toBe('8–10, jami 10');
    await perPage.click();
    await page.locator('[role=listbox] [data-value="25"]').click();
    await expect.poll(() => rows(page).count()).toBe(10);
    await expectNoRawKeys(page);
  });

  it("creates a row: errors beside the inputs first, the client's and then the server's", async () => {
    await openList(page);
    await page.getByTestId('create-button').click();
    await page.getByTestId('save-button').waitFor();
    await shot(page, 'uz-form');

    // nothing filled: the required inputs say so, in the spec's words
    await page.locator('[name=mfo]').fill('12');
    await page.getByTestId('save-button').click();
    await expect.poll(() => helperOf(page, 'mfo').innerText()).toBe('MFO 5 ta raqamdan iborat boʻlishi kerak');
    await expect.poll(() => helperOf(page, 'name.uz').innerText()).toBe('Ushbu kiritma majburiy');

    // a taken MFO passes the form and is refused by the server, beside its input
    await page.locator('[name=mfo]').fill('00083');
    await page.locator('[name="name.uz"]').fill('Sinov banki');
    await page.locator('[name="name.ru"]').fill('Тестовый банк');
    await page.getByTestId('save-button').click();
    await expect.poll(() => helperOf(page, 'mfo').innerText()).toBe('Bunday qiymat allaqachon mavjud');
    await expect.poll(() => notification(page).innerText()).toContain('(-105)');
    expect(await notification(page).innerText()).toContain('Belgilangan maydonlarni tekshiring');
    await shot(page, 'uz-form-errors');

    await page.locator('[name=mfo]').fill('09999');
    await page.getByTestId('save-button').click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toMatch(LIST_HASH);
    await expect.poll(() => notification(page).innerText()).toContain('Yozuv qoʻshildi');
    await setSearch(page, '09999');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().innerText()).toContain('Sinov banki');
    await expectNoRawKeys(page);
  });

  it('edits the row', async () => {
    await rows(page).first().locator('td.column-mfo').click();
    await page.locator('[name="name.uz"]').waitFor();
    expect(await page.locator('[name="name.ru"]').inputValue()).toBe('Тестовый банк');
    await page.locator('[name="name.uz"]').fill('Sinov banki (tahrirlangan)');
    await page.locator('[name=address]').fill('Toshkent, Amir Temur koʻchasi 1');
    await page.getByTestId('save-button').click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toMatch(LIST_HASH);
    await expect.poll(() => notification(page).innerText()).toContain('Yozuv saqlandi');
    await expect.poll(() => rows(page).first().innerText()).toContain('Sinov banki (tahrirlangan)');
    const [saved] = await api<{ id: number; address: string; version: number }[]>(
      page,
      `/api/${LIST}?filter=${encodeURIComponent('{"q":"09999"}')}`,
    );
    expect(saved.address).toBe('Toshkent, Amir Temur koʻchasi 1');
    expect(saved.version).toBe(2);
  });

  it('opens a row by keyboard alone: Tab to its link, Enter', async () => {
    const [row] = await api<{ id: number }[]>(page, `/api/${LIST}?filter=${encodeURIComponent('{"q":"09999"}')}`);
    await page.locator('input[name=q]').focus();
    // from the search box, Tab until the row's own link has the focus: nothing but the keyboard
    let focused = '';
    for (let i = 0; i < 20 && focused !== 'row-open'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
    }
    expect(focused).toBe('row-open');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Ochish: «Sinov banki (tahrirlangan)»');
    await page.keyboard.press('Enter');
    // a reference book opens its form
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/${LIST}/${row.id}`);
    await page.locator('[name="name.uz"]').waitFor();
    await page.goBack();
    await page.locator('.RaList-main').waitFor();
  });

  it('deletes a row after a dialog that names it, and "Undo" keeps it', async () => {
    const [row] = await api<{ id: number }[]>(page, `/api/${LIST}?filter=${encodeURIComponent('{"q":"09999"}')}`);
    const deletes: string[] = [];
    const seen = (r: { method(): string; url(): string }) =>
      r.method() === 'DELETE' && !r.url().includes('dryRun') && deletes.push(r.url());
    page.on('request', seen);
    const remove = rows(page).first().getByRole('button', { name: '«Sinov banki (tahrirlangan)» qatorini oʻchirish' });
    await remove.click();
    const dialog = page.getByTestId('delete-dialog');
    await expect.poll(() => dialog.getByRole('heading').innerText()).toBe('«Sinov banki (tahrirlangan)» oʻchirilsinmi?');
    // the server's dry run said yes: the red button names the row
    const confirm = dialog.getByTestId('delete-confirm');
    await expect.poll(() => confirm.isEnabled()).toBe(true);
    expect(await confirm.innerText()).toBe('OʻCHIRISH: «SINOV BANKI (TAHRIRLANGAN)»');
    await shot(page, 'uz-delete-dialog');
    await confirm.click();
    await expect.poll(() => notification(page).innerText()).toContain('«Sinov banki (tahrirlangan)» oʻchirildi');
    await expect.poll(() => rows(page).count()).toBe(0);
    await page.getByTestId('notification-undo').click();
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.waitForTimeout(7000); // past the undo window: nothing was sent
    expect(deletes).toEqual([]);
    page.off('request', seen);
    expect(await api<unknown[]>(page, `/api/${LIST}?filter=${encodeURIComponent('{"q":"09999"}')}`)).toHaveLength(1);

    // without "Undo" the delete is sent when its notice goes
    await remove.click();
    await dialog.getByTestId('delete-confirm').click();
    const sent = await page.waitForRequest((r) => r.method() === 'DELETE' && r.url().endsWith(`/api/${LIST}/${row.id}`), {
      timeout: 15_000,
    });
    expect(sent.url()).toContain(String(row.id));
    await expect.poll(() => api<unknown[]>(page, `/api/${LIST}?filter=${encodeURIComponent('{"q":"09999"}')}`)).toEqual([]);
    await expect
      .poll(() => page.getByTestId('list-empty').or(page.locator('.RaList-main')).first().innerText())
      .toMatch(/Maʼlumot yoʻq|topilmadi/);
  });

  it('deletes selected rows in one request, after a red dialog saying how many', async () => {
    for (const mfo of ['09997', '09998']) {
      await api(page, `/api/${LIST}`, 'uz', { method: 'POST', body: { mfo, name: { uz: `Bank ${mfo}` } } });
    }
    await openList(page);
    await setSearch(page, '0999');
    await expect.poll(() => rows(page).count()).toBe(2);
    const bulk = page.waitForRequest((r) => r.url().endsWith(`/api/${LIST}/delete-many`) && r.method() === 'POST', { timeout: 15_000 });
    await page.locator('.RaDatagrid-headerRow input[type=checkbox]').check();
    await expect.poll(() => page.locator('.RaBulkActionsToolbar-toolbar').innerText()).toContain('2 ta qator tanlandi');
    await page.getByTestId('bulk-delete').click();
    const dialog = page.getByTestId('delete-dialog');
    await expect.poll(() => dialog.getByRole('heading').innerText()).toBe('Tanlangan 2 ta yozuv oʻchirilsinmi?');
    // two rows: no count to type
    expect(await dialog.getByTestId('delete-typed').count()).toBe(0);
    await dialog.getByRole('button', { name: '2 ta yozuvni oʻchirish' }).click();
    await expect.poll(() => notification(page).innerText()).toContain('2 ta yozuv oʻchirildi');
    expect((await bulk).postDataJSON()).toEqual({ ids: expect.arrayContaining([expect.any(Number), expect.any(Number)]) });
    await expect.poll(() => api<unknown[]>(page, `/api/${LIST}?filter=${encodeURIComponent('{"q":"0999"}')}`)).toEqual([]);
    await setSearch(page, '');
  });

  it("offers no delete on the seeded roles, the administrator's included", async () => {
    await openList(page, 'managing/user-roles');
    await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
    const n = await rows(page).count();
    expect(await rows(page).getByTestId('row-open').count()).toBe(n);
    expect(await rows(page).getByTestId('row-delete').count()).toBe(0);
    // nor on the administrator role's own page
    await rows(page).filter({ hasText: 'administrator' }).first().getByTestId('row-open').click();
    await page.locator('[data-testid=entity-show], [data-testid=entity-form]').first().waitFor();
    expect(await page.getByTestId('record-delete').count()).toBe(0);
  });

  it('exports the filtered list to Excel through the server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ecofond-xlsx-'));
    try {
      await openList(page);
      await setSearch(page, 'bank');
      const total = await api<unknown[]>(page, `/api/${LIST}?filter=${encodeURIComponent('{"q":"bank"}')}&range=[0,99]`);
      await expect.poll(() => rows(page).count()).toBe(total.length);
      const exported = page.waitForRequest((r) => r.url().includes(`/api/${LIST}/export?`));
      const download = page.waitForEvent('download', { timeout: 60_000 });
      await page.getByTestId('export-xlsx').click();
      const req = await exported;
      const q = new URL(req.url()).searchParams;
      expect(JSON.parse(q.get('filter')!)).toEqual({ q: 'bank' });
      expect(JSON.parse(q.get('sort')!)).toEqual(['mfo', 'ASC']);
      expect(req.headers().authorization).toMatch(/^Bearer /);
      const file = join(dir, (await download).suggestedFilename());
      expect(file).toMatch(/\.xlsx$/);
      await (await download).saveAs(file);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(file);
      const ws = wb.worksheets[0];
      const values: string[][] = [];
      ws.eachRow((r) => values.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
      const header = values[0];
      expect(header).toContain('MFO');
      const data = values.slice(1).filter((r) => r.some((v) => v !== ''));
      expect(data.length).toBe(total.length);
      expect(data.map((r) => r[header.indexOf('MFO')])).toEqual((total as { mfo: string }[]).map((t) => t.mfo));
      await expect.poll(() => page.getByTestId('export-xlsx').isEnabled()).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await setSearch(page, '');
    }
  });

  it('says "Ulanish xatoligi" when the server cannot be reached', async () => {
    await openList(page);
    await page.route(`**/api/${LIST}?*`, (r) => r.abort('internetdisconnected'));
    try {
      await page.locator('input[name=q]').fill('x');
      await expect.poll(() => notification(page).innerText(), { timeout: 30_000 }).toContain('Ulanish xatoligi');
    } finally {
      await page.unroute(`**/api/${LIST}?*`);
      await setSearch(page, '');
    }
  });

  async function switchTo(lang: 'uk' | 'ru', expected: { title: string; save: string }) {
    const stored = page.waitForRequest((r) => r.url().endsWith('/api/admin/app/setlang') && r.method() === 'POST');
    await page.getByTestId(`lang-${lang}`).click();
    expect((await stored).postDataJSON()).toEqual({ lang });
    await expect.poll(() => page.getByTestId('app-title').innerText()).toBe(expected.title);
    const m = await api<Meta>(page, '/api/meta', lang);
    // the menu and the dashboard in that language
    await page.goto(`${baseUrl}/admin/#/`);
    await page.getByTestId('page-dashboard').waitFor();
    const menuText = await page.getByTestId('app-menu').innerText();
    for (const s of m.menu) expect(menuText).toContain(m.captions[s.caption]);
    await page
      .locator('[data-testid=dashboard-queue] .MuiSkeleton-root')
      .first()
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await shot(page, `${lang}-dashboard`);
    // a list
    await openList(page);
    await expect.poll(() => pageTitle(page)).toBe(m.captions['entity.banks-mfo']);
    const headers = await page.locator('.RaDatagrid-headerCell').allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual(expect.arrayContaining([m.captions['fields.mfo'], m.captions['fields.name']]));
    await shot(page, `${lang}-list`);
    // a form
    await page.getByTestId('create-button').click();
    await page.getByTestId('save-button').waitFor();
    await expect.poll(() => page.getByTestId('save-button').innerText()).toBe(expected.save.toUpperCase());
    expect(await page.locator('.ra-input-mfo label').innerText()).toContain(m.captions['fields.mfo']);
    await page.locator('[name=mfo]').fill('1');
    await page.getByTestId('save-button').click();
    await expect.poll(() => helperOf(page, 'mfo').innerText()).toBe(m.captions['validation.mfo']);
    await expect.poll(() => helperOf(page, 'name.uz').innerText()).toBe(m.captions['validation.required']);
    await shot(page, `${lang}-form`);
    await expectNoRawKeys(page);
    return m;
  }

  it('switches to Uzbek Cyrillic: menu, list and form', async () => {
    const m = await switchTo('uk', { title: 'Экологик жамғарма', save: 'Сақлаш' });
    expect(m.captions['validation.required']).toMatch(/[А-Яа-яЎўҚқҒғҲҳ]/);
  });

  it('switches to Russian: menu, list and form', async () => {
    const m = await switchTo('ru', { title: 'Экологический фонд', save: 'Сохранить' });
    expect(m.captions['validation.required']).toBe('Обязательное поле');
  });

  it('keeps the language after a reload and goes back to Uzbek Latin', async () => {
    await page.reload();
    await expect.poll(() => page.getByTestId('app-title').innerText()).toBe('Экологический фонд');
    await page.getByTestId('lang-uz').click();
    await expect.poll(() => page.getByTestId('app-title').innerText()).toBe('Ekologik jamgʻarma');
    await page.goto(`${baseUrl}/admin/#/no/such/page`);
    await page.getByTestId('page-404').waitFor();
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });

  it("keeps the page below the bar at 360 and 1400 px: on a phone the bar's buttons on one line, the title on the next", async () => {
    for (const width of [360, 1400]) {
      await page.setViewportSize({ width, height: 800 });
      for (const route of ['', LIST]) {
        await page.goto(`${baseUrl}/admin/#/${route}`);
        await page
          .locator(route ? '#main-content [data-testid=entity-list]' : '[data-testid=page-dashboard]')
          .first()
          .waitFor();
        await expect.poll(() => pageTitle(page)).not.toBe('');
        const { bar, top, user } = await page.evaluate(() => ({
          bar: document.querySelector('header')!.getBoundingClientRect().bottom,
          top: document.querySelector('.RaLayout-contentWithSidebar')!.getBoundingClientRect().top,
          // the bar's last button, the user's menu
          user: document.querySelector('header .RaAppBar-toolbar > :last-child')!.getBoundingClientRect().top,
        }));
        expect(Math.abs(top - bar), `${width} px, #/${route}: the bar ends at ${bar}, the page starts at ${top}`).toBeLessThanOrEqual(1);
        // the user's button on the buttons' line, not wrapped onto one of its own
        expect(user, `${width} px, #/${route}`).toBeLessThan(8);
        if (width === 360 && route) await shot(page, 'bar-360', { quiet: true });
      }
    }
    await page.setViewportSize({ width: 1400, height: 900 });
  });
});

describe('the back-office as an inspector (reference books: read and export only)', () => {
  let ctx: BrowserContext;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    ctx = await newContext(browser, baseUrl);
    page = await ctx.newPage();
    problems = watch(page);
    await login(page, baseUrl, 'inspector1', 'secret12');
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('sees only the sections with an item they may open', async () => {
    const meta = await api<Meta>(page, '/api/meta', 'uz');
    const sections = await page
      .locator('[data-testid^=menu-section-button-]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(sections).toEqual(meta.menu.map((s) => `menu-section-button-${s.route.slice(1)}`));
    expect(sections).toContain('menu-section-button-ecofund-sprav');
    expect(sections.length).toBeLessThan(11);
    const routes = meta.menu.flatMap((s) => s.children.map((c) => `${s.route}/${c.route}`));
    expect(routes).not.toContain('/managing/users');
    for (const s of meta.menu) {
      await page.getByTestId(`menu-section-button-${s.route.slice(1)}`).click();
      const items = await page
        .locator(`[data-testid^="menu-item-${s.route.slice(1)}/"]`)
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
      expect(items).toEqual(s.children.map((c) => `menu-item-${s.route.slice(1)}/${c.route.replace(/\/+$/, '')}`));
    }
    await shot(page, 'inspector-dashboard');
  });

  it('reads and exports a reference book but cannot change it', async () => {
    await openList(page);
    await expect.poll(() => rows(page).count()).toBe(10);
    expect(await page.getByTestId('create-button').count()).toBe(0);
    expect(await page.getByTestId('row-delete').count()).toBe(0);
    expect(await page.locator('.RaDatagrid-headerRow input[type=checkbox]').count()).toBe(0);
    expect(await page.getByTestId('export-xlsx').isEnabled()).toBe(true);
    await rows(page).first().locator('td.column-mfo').click();
    await page.getByTestId('entity-show').waitFor();
    expect(await page.locator('[name=mfo]').count()).toBe(0);
    await page.goto(`${baseUrl}/admin/#/${LIST}/create`);
    await page.getByTestId('page-403').waitFor();
  });

  it('gets a 403 page on a route they may not open, and a 404 on an unknown one', async () => {
    await page.goto(`${baseUrl}/admin/#/managing/users`);
    await page.getByTestId('page-403').waitFor();
    expect(await page.getByTestId('page-403').innerText()).toMatch(/403[\s\S]*Ruxsat yoʻq/);
    await shot(page, 'inspector-403');
    await page.goto(`${baseUrl}/admin/#/ecofund-offences/template-document-editor/5`);
    await page.getByTestId('page-403').waitFor();
    await page.goto(`${baseUrl}/admin/#/nowhere`);
    await page.getByTestId('page-404').waitFor();
    await expectNoRawKeys(page);
    expect(problems.errors).toEqual([]);
  });

  it('is sent back to the sign-in page when the session is no longer valid, and can sign in again', async () => {
    await page.evaluate(() => {
      const s = JSON.parse(localStorage.getItem('ecofond.session')!);
      localStorage.setItem('ecofond.session', JSON.stringify({ ...s, token: 'no-such-token' }));
    });
    await page.goto(`${baseUrl}/admin/#/${LIST}`);
    await expect.poll(() => notification(page).innerText()).toContain('Sessiyangiz tugadi');
    await page.locator('input[name=username]').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('ecofond.session'))).toBeNull();
    await login(page, baseUrl, 'inspector1', 'secret12');
    await openList(page);
    await expect.poll(() => rows(page).count()).toBe(10);
    await expectNoRawKeys(page);
  });
});
