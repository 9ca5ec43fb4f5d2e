import type { Page } from 'playwright-core';
import adminRu from '../admin/src/i18n/ru.json';
import adminUk from '../admin/src/i18n/uk.json';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, login, newContext, type PageProblems, shot, watch } from './support';

/**
 * The audit trail in the back-office: a reference book row edited in its form shows the change on
 * its page's History tab (field caption, before → after); a payment's workflow action shows there
 * as the action; the audit log filtered by the entity opens a row with its before and after side
 * by side; roles are assigned through the action's dialog (starting from the user's roles, by
 * name), and a refusal for rights the assigner lacks is said in the dialog. In Uzbek Latin, with
 * the History tab checked in Russian and Uzbek Cyrillic, and at 1400 and 360 px.
 */

const baseUrl = inject('baseUrl');
const notification = (page: Page) => page.getByTestId('notification');
const uid = `${Date.now() % 100000}`.padStart(5, '0');
const today = new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10);

interface Row {
  id: number;
  version: number;
}
interface Bank extends Row {
  mfo: string;
  name: { uz: string; uk?: string; ru?: string };
  inn: string | null;
  is_active: boolean;
}
interface Role {
  id: number;
  code: string;
  name: { uz: string };
}
interface User extends Row {
  username: string;
  roles: number[];
}

let session: AdminSession;
let page: Page;
let problems: PageProblems;
let bank: Bank;
let subject: { id: number; name: string; inn: string };
let payment: Row;
let user: User;
let roles: Role[];

const roleName = (code: string) => roles.find((r) => r.code === code)!.name.uz;

async function openHistory(p: Page, path: string) {
  await p.goto(`${baseUrl}/admin/#/${path}`);
  await p.getByTestId('show-tab-history').click();
  await p.getByTestId('history-row').first().waitFor();
}

beforeAll(async () => {
  session = await adminSession(baseUrl, 'history');
  ({ page, problems } = session);
  // what the test needs, made through the API as the administrator
  bank = await api<Bank>(page, '/api/ecofund-sprav/banks-mfo', 'uz', {
    method: 'POST',
    body: {
      mfo: `9${uid.slice(1)}`,
      name: { uz: `Tarix banki ${uid}`, uk: `Тарих банки ${uid}`, ru: `Банк истории ${uid}` },
      is_active: true,
    },
  });
  const [region] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/regions?range=[0,0]');
  const [category] = await api<{ id: number }[]>(page, '/api/ecofund-sprav/subject-categories?range=[0,0]');
  subject = await api(page, '/api/ecofund/subject', 'uz', {
    method: 'POST',
    body: { inn: `6${uid}001`, name: `“Tarix ${uid}” MChJ`, region_id: region.id, category_id: category.id },
  });
  const stack = await api<Row>(page, '/api/ecofund/stack-payments', 'uz', {
    method: 'POST',
    body: { number: `H-${uid}`, statement_date: today },
  });
  payment = await api<Row>(page, '/api/ecofund/payments', 'uz', {
    method: 'POST',
    body: { stack_id: stack.id, paid_on: today, number: `H-${uid}-1`, amount: '1500000.5', payment_type: 'card' },
  });
  user = await api<User>(page, '/api/managing/users', 'uz', {
    method: 'POST',
    body: { username: `tarix${uid}`, password: 'secret12', fio: `Tarix Sinov ${uid}`, lang_code: 'uz', kind: 'staff' },
  });
  roles = await api<Role[]>(page, '/api/managing/user-roles?range=[0,99]');
});

afterAll(async () => {
  // the other tests count the banks: the one made here goes (its trail stays)
  if (bank) await api(page, `/api/ecofund-sprav/banks-mfo/${bank.id}`, 'uz', { method: 'DELETE' }).catch(() => undefined);
  await session?.close();
});

describe('the audit trail of rows', () => {
  it("shows a reference book row's edit on its History tab: the field's caption, before → after", async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund-sprav/banks-mfo/${bank.id}`);
    await page.locator('[name=inn]').fill('123456789');
    await page.locator('[name="name.uz"]').fill(`Tarix banki ${uid} ATB`);
    await page.getByTestId('save-button').click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toMatch(/^#\/ecofund-sprav\/banks-mfo(\?.*)?$/);

    await openHistory(page, `ecofund-sprav/banks-mfo/${bank.id}/show`);
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.count()).toBe(2);
    const edit = rows.first();
    expect(await edit.getAttribute('data-op')).toBe('update');
    expect(await edit.getByTestId('history-what').innerText()).toBe('Tahrirlandi');
    expect(await edit.getByTestId('history-user').innerText()).toBe('Tizim administratori');
    expect(await edit.getByTestId('history-date').innerText()).toMatch(
      new RegExp(`^${today.split('-').reverse().join('\\.')} \\d{2}:\\d{2}$`),
    );
    const change = (field: string) => edit.locator(`[data-testid=history-change][data-field=${field}]`).innerText();
    expect((await change('inn')).replace(/\s+/g, ' ')).toBe('STIR: — → 123456789');
    expect((await change('name')).replace(/\s+/g, ' ')).toBe(`Nomi: Tarix banki ${uid} → Tarix banki ${uid} ATB`);
    // the row's making, oldest last, with what it was made with
    expect(await rows.last().getByTestId('history-what').innerText()).toBe('Qoʻshildi');
    expect((await rows.last().locator('[data-field=is_active]').innerText()).replace(/\s+/g, ' ')).toBe('Faol: Ha');
    await shot(page, 'history-bank-1400');
    await expectNoRawKeys(page);
  });

  it("shows a payment's workflow action as the action, with the subject by its name and the state by its caption", async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund/payments-all/${payment.id}/show`);
    await page.getByTestId('workflow-attach').click();
    const dialog = page.getByTestId('workflow-dialog');
    await dialog.locator('input[type=text]').first().fill(subject.inn);
    await page.getByRole('option', { name: subject.name }).click();
    await dialog.getByTestId('workflow-confirm').click();
    await expect.poll(() => notification(page).innerText()).toContain('«Subyektga biriktirish» bajarildi');
    await page.getByTestId('show-tab-history').click();
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.count()).toBe(2);
    const action = rows.first();
    expect(await action.getAttribute('data-op')).toBe('action');
    expect(await action.getByTestId('history-what').innerText()).toBe('Subyektga biriktirish');
    await expect
      .poll(async () => (await action.locator('[data-field=subject_id]').innerText()).replace(/\s+/g, ' '))
      .toBe(`Subyekt: — → ${subject.name}`);
    expect((await action.locator('[data-field=status]').innerText()).replace(/\s+/g, ' ')).toBe('Toʻlov holati: Aniqlanmagan → Aniqlangan');
    // money as the list shows it
    expect((await rows.last().locator('[data-field=amount]').innerText()).replace(/\s+/g, ' ')).toBe('Summa: 1 500 000,50');
    await shot(page, 'history-payment-action', { quiet: true });
    await expectNoRawKeys(page);
  });

  it('filters the audit log by the entity and opens a row: its before and after side by side', async () => {
    await page.goto(`${baseUrl}/admin/#/admin/audit-log`);
    await page.locator('.RaList-main').waitFor();
    await page.getByRole('button', { name: 'Filtr qoʻshish' }).click();
    await page.locator('[data-key=entity]').click();
    const input = page.locator('.ra-input-entity input');
    await input.fill('Banklar');
    await page.getByRole('option', { name: 'Banklar (MFO)' }).click();
    const rows = page.locator('tbody tr.RaDatagrid-row');
    await expect
      .poll(async () => new Set((await rows.locator('td.column-entity').allInnerTexts()).map((t) => t.trim())))
      .toEqual(new Set(['Banklar (MFO)']));
    // the list's query asks the server for that entity's rows
    expect(decodeURIComponent(page.url())).toContain('"entity":"banks-mfo"');
    const mine = rows
      .filter({ has: page.locator('td.column-record_id', { hasText: new RegExp(`^${bank.id}$`) }) })
      .filter({ hasText: 'Tahrirlandi' });
    await expect.poll(() => mine.count()).toBe(1);
    await page.mouse.move(0, 0);
    await shot(page, 'audit-log-filtered');
    await mine.click();
    const table = page.getByTestId('json-table');
    await table.waitFor();
    expect((await table.locator('thead').innerText()).replace(/\s+/g, ' ').trim()).toBe('Maydon Oldin Keyin');
    expect((await page.getByTestId('json-row-inn').innerText()).replace(/\s+/g, ' ').trim()).toBe('STIR — 123456789');
    expect((await page.getByTestId('json-row-name').innerText()).replace(/\s+/g, ' ').trim()).toBe(
      `Nomi Tarix banki ${uid} Tarix banki ${uid} ATB`,
    );
    expect(await page.locator('.ra-field-entity').innerText()).toContain('Banklar (MFO)');
    await shot(page, 'audit-log-row');
    // and back to the row it is about
    await page.getByTestId('audit-open-record').click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/ecofund-sprav/banks-mfo/${bank.id}/show`);
    await expectNoRawKeys(page);
  });

  it("assigns a role through the action's dialog, starting from the user's roles by name", async () => {
    // one role first, through the API, so that the dialog has something to start from
    await api(page, `/api/managing/users/${user.id}/actions/assign-roles`, 'uz', {
      method: 'POST',
      body: { roles: [roles.find((r) => r.code === 'headquarters')!.id] },
    });
    await page.goto(`${baseUrl}/admin/#/managing/users/${user.id}/show`);
    await page.getByTestId('workflow-assign-roles').click();
    const dialog = page.getByTestId('workflow-dialog');
    await expect
      .poll(() => dialog.getByTestId('workflow-question').innerText())
      .toBe(`${user.id} raqamli yozuvga «Rollarni biriktirish» amalini qoʻllaysizmi?`);
    const chips = dialog.locator('.MuiChip-label');
    await expect.poll(() => chips.allInnerTexts()).toEqual([roleName('headquarters')]);
    await dialog.locator('input[type=text]').first().click();
    await page.getByRole('option', { name: roleName('ecology_staff') }).click();
    await expect.poll(() => chips.allInnerTexts()).toEqual([roleName('headquarters'), roleName('ecology_staff')]);
    await shot(page, 'assign-roles-dialog');
    const sent = page.waitForRequest((r) => r.url().endsWith(`/api/managing/users/${user.id}/actions/assign-roles`));
    await dialog.getByTestId('workflow-confirm').click();
    const ids = (r: string) => roles.find((x) => x.code === r)!.id;
    expect(((await sent).postDataJSON() as { roles: number[] }).roles.sort()).toEqual([ids('headquarters'), ids('ecology_staff')].sort());
    await expect.poll(() => notification(page).innerText()).toContain('«Rollarni biriktirish» bajarildi');
    await expect
      .poll(() => page.locator('.ra-field-roles .MuiChip-label').allInnerTexts())
      .toEqual(expect.arrayContaining([roleName('headquarters'), roleName('ecology_staff')]));
    await page.getByTestId('show-tab-history').click();
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.first().getByTestId('history-what').innerText()).toBe('Rollarni biriktirish');
    const change = rows.first().locator('[data-field=roles]');
    await expect
      .poll(async () =>
        (await change.getByTestId('history-after').innerText())
          .split('\n')
          .map((t) => t.trim())
          .filter(Boolean)
          .sort(),
      )
      .toEqual([roleName('headquarters'), roleName('ecology_staff')].sort());
    expect((await change.getByTestId('history-before').innerText()).trim()).toBe(roleName('headquarters'));
    expect(await change.innerText()).toMatch(/^Rollar:/);
    // the password is never shown, only that it was set
    expect((await rows.last().locator('[data-field=password]').innerText()).replace(/\s+/g, ' ')).toBe('Parol: ••••••');
    await shot(page, 'history-user-1400', { quiet: true });
    await expectNoRawKeys(page);
  });

  it('says in the dialog that the server refused roles the assigner does not hold', async () => {
    // an assigner who may read users and roles and assign roles, and holds nothing else
    const role = await api<Role>(page, '/api/managing/user-roles', 'uz', {
      method: 'POST',
      body: { code: `assigner_${uid}`, name: { uz: `Tayinlovchi ${uid}`, uk: `Тайинловчи ${uid}`, ru: `Назначающий ${uid}` } },
    });
    for (const action of [5403, 5405, 5456]) {
      await api(page, '/api/user-role-access/update-access-status', 'uz', {
        method: 'POST',
        body: { role_id: role.id, action_id: action, state: 1 },
      });
    }
    const assigner = await api<User>(page, '/api/managing/users', 'uz', {
      method: 'POST',
      body: { username: `tayin${uid}`, password: 'secret12', fio: `Tayinlovchi ${uid}`, lang_code: 'uz', kind: 'staff' },
    });
    await api(page, `/api/managing/users/${assigner.id}/actions/assign-roles`, 'uz', { method: 'POST', body: { roles: [role.id] } });

    const ctx = await newContext(session.browser, baseUrl);
    try {
      const other = await ctx.newPage();
      const otherProblems = watch(other);
      await login(other, baseUrl, assigner.username, 'secret12');
      await other.goto(`${baseUrl}/admin/#/managing/users/${user.id}/show`);
      await other.getByTestId('workflow-assign-roles').click();
      const dialog = other.getByTestId('workflow-dialog');
      await expect.poll(() => dialog.locator('.MuiChip-label').count()).toBe(2);
      await dialog.getByTestId('workflow-confirm').click();
      const refusal = dialog.getByTestId('workflow-refusal');
      await expect.poll(() => refusal.innerText()).toContain('Amal bajarilmadi');
      expect(await refusal.innerText()).toContain(
        'Oʻzingizda boʻlmagan huquqlarni berish, olib qoʻyish yoki ularga ega foydalanuvchini oʻzgartirish mumkin emas',
      );
      await shot(other, 'assign-roles-refused', { quiet: true });
      // the dialog stays open; nothing changed
      expect(await dialog.isVisible()).toBe(true);
      expect((await api<User>(page, `/api/managing/users/${user.id}`)).roles).toHaveLength(2);
      expect(otherProblems.errors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('shows the History tab in Russian and Uzbek Cyrillic, with nothing untranslated', async () => {
    const expected = {
      ru: { tab: 'История', heads: ['Дата', 'Пользователь', 'Действие', 'Изменения'], edit: 'Изменение', inn: 'ИНН' },
      uk: { tab: 'Тарих', heads: ['Сана', 'Фойдаланувчи', 'Амал', 'Ўзгаришлар'], edit: 'Таҳрирланди', inn: 'СТИР' },
    } as const;
    for (const lang of ['ru', 'uk'] as const) {
      await page.goto(`${baseUrl}/admin/#/ecofund-sprav/banks-mfo/${bank.id}/show`);
      await page.getByTestId(`lang-${lang}`).click();
      await expect.poll(() => page.getByTestId('show-tab-history').innerText()).toBe(expected[lang].tab.toUpperCase());
      await page.getByTestId('show-tab-history').click();
      const rows = page.getByTestId('history-row');
      await expect.poll(() => rows.count()).toBe(2);
      const heads = (await page.getByTestId('record-history').locator('thead th').allInnerTexts()).map((t) => t.trim());
      expect(heads).toEqual(expected[lang].heads);
      expect(await rows.first().getByTestId('history-what').innerText()).toBe(expected[lang].edit);
      const inn = (await rows.first().locator('[data-field=inn]').innerText()).replace(/\s+/g, ' ');
      expect(inn).toBe(
        `${(await api<{ captions: Record<string, string> }>(page, '/api/meta', lang)).captions['fields.inn']}: — → 123456789`,
      );
      expect(inn.startsWith(`${expected[lang].inn}:`)).toBe(true);
      // the bank's name changed in uz only: the language shown did not change, so the words of the
      // language that did are shown, named — never the same words on both sides
      const name = await rows.first().locator('[data-field=name]').innerText();
      expect(name).toContain(`Tarix banki ${uid} ATB`);
      expect(name).toContain(`${(lang === 'ru' ? adminRu : adminUk).admin.lang.uz}: Tarix banki ${uid}`);
      expect(name).not.toContain(lang === 'ru' ? `Банк истории ${uid}` : `Тарих банки ${uid}`);
      // no word of Latin script in the Cyrillic page's own captions
      if (lang === 'uk') {
        const own = [
          ...heads,
          await rows.first().getByTestId('history-what').innerText(),
          await page.getByTestId('show-tab-main').innerText(),
        ];
        for (const t of own) expect(t, t).not.toMatch(/[A-Za-z]/);
      }
      await shot(page, `history-bank-${lang}`);
      await expectNoRawKeys(page);
    }
    await page.getByTestId('lang-uz').click();
    await expect.poll(() => page.getByTestId('show-tab-history').innerText()).toBe('TARIX');
  });

  it("reads on a phone: the history as cards, the audit row's diff in the width", async () => {
    const ctx = await newContext(session.browser, baseUrl);
    try {
      const phone = await ctx.newPage();
      await phone.setViewportSize({ width: 360, height: 780 });
      const phoneProblems = watch(phone);
      await login(phone, baseUrl, 'admin', 'ecofond-demo');
      await openHistory(phone, `managing/users/${user.id}/show`);
      await expect.poll(() => phone.getByTestId('history-row').count()).toBe(3);
      // one card a change, no table wider than the screen
      expect(await phone.getByTestId('record-history').locator('table').count()).toBe(0);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await shot(phone, 'history-user-360');
      const [entry] = await api<{ id: number }[]>(
        phone,
        `/api/admin/audit-log?filter=${encodeURIComponent(JSON.stringify({ entity: 'banks-mfo', record_id: bank.id, op: 'update' }))}`,
      );
      await phone.goto(`${baseUrl}/admin/#/admin/audit-log/${entry.id}/show`);
      await phone.getByTestId('json-table').waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await shot(phone, 'audit-log-row-360');
      expect(phoneProblems.errors).toEqual([]);
    } finally {
      await ctx.close();
    }
    expect(problems.errors).toEqual([]);
  });
});
