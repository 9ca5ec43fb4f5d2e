import ExcelJS from 'exceljs';
import knexFactory from 'knex';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, api, openMenuSection, type AdminSession } from './support';
import { freshEnvironment, startServer } from './server';

/**
 * Reference books made in the back-office (docs/reference-books.md): the administrator makes a book
 * with a reference to regions on the reference books screen, finds it in the drawn menu and opens it
 * from there, adds three rows through the generated form, filters, exports the Excel (read back),
 * adds a field; and a second server process on the same PostgreSQL database sees a new book without
 * a restart.
 */
const baseUrl = inject('baseUrl');
const PATH = '/api/ecofund-sprav/tree-kinds';
const REMOVE_FIELD = 'Maydonni olib tashlash';

let session: AdminSession;
beforeAll(async () => {
  session = await adminSession(baseUrl, 'ref-books');
}, 240_000);
afterAll(async () => {
  await session?.close();
});

describe('the reference books screen', () => {
  it('makes a book with a reference to regions, live in the menu, list, filter and export; then a field is added', async () => {
    const { page, problems } = session;
    await page.goto(`${baseUrl}/admin/#/admin/ref-books`);
    await page.getByTestId('page-screen-ref-books').waitFor();
    await page.getByTestId('ref-books-new').click();
    await page.getByTestId('book-name').fill('tree-kinds');
    await page.getByTestId('book-caption-uz').fill('Daraxt turlari');
    // the Uzbek Cyrillic caption follows by transliteration
    await expect.poll(() => page.getByTestId('book-caption-uk').inputValue()).toBe('Дарахт турлари');
    await page.getByTestId('book-caption-ru').fill('Виды деревьев');
    await page.getByTestId('book-add-field').click();
    await page.getByTestId('field-0-name').fill('region_id');
    await page.getByTestId('field-0-caption-uz').fill('Viloyat');
    await page.getByTestId('field-0-caption-ru').fill('Регион');
    await page.getByTestId('book-field-0').getByLabel(/Turi/).click();
    await page.getByRole('option', { name: 'Maʼlumotnomaga havola' }).click();
    // saved without its reference, and with a field named as the built-in code: each problem beside its own input, in the user's language
    await page.getByTestId('book-add-field').click();
    await page.getByTestId('field-1-name').fill('code');
    await page.getByTestId('book-save').click();
    await page.getByTestId('book-field-1').getByText('«code» nomi tizimning oʻziga tegishli: maydonga boshqa nom bering').waitFor();
    await page.getByTestId('book-field-1').getByRole('button', { name: REMOVE_FIELD }).click();
    await page.getByTestId('book-save').click();
    await page.getByTestId('book-field-0').getByText('Ushbu kiritma majburiy').waitFor();
    expect(await page.getByTestId('book-errors').count()).toBe(0);
    await page.getByTestId('book-field-0').getByLabel('Maʼlumotnoma', { exact: true }).click();
    await page.getByRole('option', { name: 'Hududlar (viloyatlar)', exact: true }).click();
    await page.getByTestId('book-save').click();
    await page.getByTestId('ref-book-tree-kinds').waitFor();
    await page.screenshot({ path: `${session.dir}/ref-books.png` });

    // in the drawn menu at once (the screen loads the metadata again): its section opened, the item clicked, its list opens
    await openMenuSection(page, 'ecofund-sprav');
    const item = page.getByTestId('menu-item-ecofund-sprav/tree-kinds');
    await expect.poll(() => item.innerText()).toBe('Daraxt turlari');
    expect(await item.getAttribute('href')).toBe('#/ecofund-sprav/tree-kinds');
    await item.scrollIntoViewIfNeeded();
    await item.click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/ecofund-sprav/tree-kinds');

    // three rows through the generated form: typed in, the region picked from its autocomplete, saved
    const regions = (
      await api<{ id: number; name: string | { uz: string } }[]>(page, '/api/ecofund-sprav/regions?range=[0,2]&sort=["id","ASC"]')
    ).map((r) => ({ id: r.id, title: typeof r.name === 'string' ? r.name : r.name.uz }));
    for (const [i, r] of regions.entries()) {
      // the empty list's own button the first time, the list's toolbar's after
      await page.getByTestId('create-button').or(page.getByTestId('list-empty').getByRole('link')).first().click();
      await page.locator('[name=code]').fill(`T${i}`);
      await page.locator('[name="name.uz"]').fill(`Tur ${i}`);
      await page.locator('[name="name.ru"]').fill(`Вид ${i}`);
      const region = page.locator('input[name="region_id"]');
      await region.click();
      await region.fill(r.title.slice(0, 5));
      await page.getByRole('option', { name: r.title, exact: true }).click();
      await page.keyboard.press('Tab');
      await page.getByTestId('save-button').click();
      await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/ecofund-sprav/tree-kinds');
    }
    await expect.poll(() => page.locator('tbody tr.RaDatagrid-row').count()).toBe(3);
    const stored = await api<{ code: string; region_id: number }[]>(page, `${PATH}?sort=["code","ASC"]`);
    expect(stored.map((x) => [x.code, x.region_id])).toEqual(regions.map((r, i) => [`T${i}`, r.id]));
    await page.goto(
      `${baseUrl}/admin/#/ecofund-sprav/tree-kinds?filter=${encodeURIComponent(JSON.stringify({ region_id: regions[1].id }))}`,
    );
    await expect.poll(() => page.locator('tbody tr.RaDatagrid-row').count()).toBe(1);

    // the Excel of the filtered list, read back
    const bytes = await page.evaluate(
      async (url) => {
        const s = JSON.parse(localStorage.getItem('ecofond.session') ?? '{}') as { token?: string };
        const res = await fetch(url, { headers: { Authorization: `Bearer ${s.token}`, Language: 'ru' } });
        return Array.from(new Uint8Array(await res.arrayBuffer()));
      },
      `${PATH}/export?filter=${encodeURIComponent(JSON.stringify({ region_id: regions[1].id }))}`,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(new Uint8Array(bytes).buffer);
    const sheet = wb.worksheets[0];
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(expect.arrayContaining(['Код', 'Регион']));
    expect(sheet.rowCount).toBe(2);

    // a field added later: its column, in the list's rows
    await page.goto(`${baseUrl}/admin/#/admin/ref-books`);
    await page.getByTestId('ref-book-tree-kinds').click();
    await page.getByTestId('book-field-0').waitFor();
    await page.getByTestId('book-add-field').click();
    await page.getByTestId('field-1-name').fill('height');
    await page.getByTestId('field-1-caption-uz').fill('Balandligi');
    await page.getByTestId('field-1-caption-ru').fill('Высота');
    await page.getByTestId('book-save').click();
    await expect.poll(async () => Object.keys((await api<Record<string, unknown>[]>(page, PATH))[0] ?? {})).toContain('height');
    expect(problems.errors).toEqual([]);
  });
});

describe('a second server process on the same PostgreSQL database', () => {
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  it('sees a new book without restarting (LISTEN/NOTIFY)', async (ctx) => {
    const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
    const name = `refbooks_e2e_${randomBytes(4).toString('hex')}`;
    try {
      await admin.raw(`CREATE DATABASE ${name}`);
    } catch (err) {
      await admin.destroy();
      ctx.skip(`no PostgreSQL server at ${url} for two server processes (${(err as Error).message})`);
      return;
    }
    const dbUrl = Object.assign(new URL(url), { pathname: `/${name}` }).toString();
    const servers: { baseUrl: string; stop: () => Promise<void> }[] = [];
    try {
      // no demo data (its hundreds of subjects are not what this is about): the administrator by their password
      const password = 'refbooks-e2e';
      for (let i = 0; i < 2; i++) {
        const { dataDir, env } = freshEnvironment('ecofond-refbooks-pg-');
        servers.push(
          await startServer(
            dataDir,
            { ...env, DATABASE_URL: dbUrl, ECOFOND_ADMIN_PASSWORD: password },
            i === 0 ? ['--migrate', '--seed'] : [],
          ),
        );
      }
      const call = async (base: string, path: string, token: string, init: { method?: string; body?: unknown } = {}) => {
        const res = await fetch(base + path, {
          method: init.method ?? 'GET',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        });
        return { status: res.status, body: await res.json() };
      };
      const login = async (base: string) =>
        (
          await (
            await fetch(`${base}/api/admin/auth/login`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ username: 'admin', password }),
            })
          ).json()
        ).token as string;
      const [a, b] = servers;
      const [ta, tb] = [await login(a.baseUrl), await login(b.baseUrl)];
      expect((await call(b.baseUrl, '/api/ecofund-sprav/pine-kinds', tb)).status).toBe(404);
      const saved = await call(a.baseUrl, '/api/admin/ref-books', ta, {
        method: 'POST',
        body: { name: 'pine-kinds', section: 'ecofund-sprav', caption: { uz: 'Qaragʻay turlari', ru: 'Виды сосен' }, fields: [] },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      await expect
        .poll(async () => (await call(b.baseUrl, '/api/meta', tb)).body.entities.some((e: { name: string }) => e.name === 'pine-kinds'), {
          timeout: 10_000,
        })
        .toBe(true);
      expect((await call(b.baseUrl, '/api/ecofund-sprav/pine-kinds', tb)).status).toBe(200);
    } finally {
      for (const s of servers) await s.stop();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.destroy();
    }
  }, 600_000);
});
