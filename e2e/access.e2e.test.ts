import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ECOSTAFF } from './global-setup';
import { api, expectNoRawKeys, launch, login, newContext, shot, watch, type PageProblems } from './support';

/**
 * Access managing (`#/managing/access-managing/:user_roles_id`): the administrator closes the
 * banks book's read action for the ecology staff role; a user of that role loses its menu item and
 * gets the 403 page on its route on their next page load, and gets both back once it is reopened.
 */

const baseUrl = inject('baseUrl');
const BANKS_READ = 3131;
const BANKS = 'ecofund-sprav/banks-mfo';
const notification = (page: Page) => page.getByTestId('notification');

interface Access {
  role_id: number;
  categories: { id: string; actions: { id: number; state: number }[] }[];
}
const stateOf = (a: Access, id: number) => a.categories.flatMap((c) => c.actions).find((x) => x.id === id)?.state;

let browser: Browser;
let adminCtx: BrowserContext;
let userCtx: BrowserContext;
let admin: Page;
let user: Page;
let problems: PageProblems[];
let roleId: number;

beforeAll(async () => {
  browser = await launch();
  adminCtx = await newContext(browser, baseUrl);
  userCtx = await newContext(browser, baseUrl);
  admin = await adminCtx.newPage();
  user = await userCtx.newPage();
  problems = [watch(admin), watch(user)];
  await login(admin, baseUrl, 'admin', 'ecofond-demo');
  await login(user, baseUrl, ECOSTAFF.username, ECOSTAFF.password);
  const [role] = await api<{ id: number; code: string }[]>(
    admin,
    `/api/managing/user-roles?filter=${encodeURIComponent(JSON.stringify({ q: ECOSTAFF.role }))}`,
  );
  expect(role.code).toBe(ECOSTAFF.role);
  roleId = role.id;
});

afterAll(async () => {
  await browser?.close();
});

/** Loads the back-office again (a new page load), opens the reference books section of the user's menu and says whether the banks item is there. */
async function userSeesBanks(): Promise<boolean> {
  await user.goto(`${baseUrl}/admin/#/`);
  await user.reload();
  await user.getByTestId('page-dashboard').waitFor();
  const section = user.getByTestId('menu-section-button-ecofund-sprav');
  if ((await section.getAttribute('aria-expanded')) !== 'true') await section.click();
  await user.getByTestId('menu-item-ecofund-sprav/regions').waitFor();
  return (await user.getByTestId(`menu-item-${BANKS}`).count()) > 0;
}

async function toggleBanks(to: 0 | 1) {
  const search = admin.getByTestId('access-search');
  await search.fill(String(BANKS_READ));
  const toggle = admin.getByTestId(`access-action-${BANKS_READ}`);
  await expect.poll(() => toggle.isChecked()).toBe(to === 0);
  await toggle.click();
  const dialog = admin.getByTestId('access-dialog');
  await expect.poll(() => dialog.innerText()).toContain(to ? 'ruxsat berilsinmi?' : 'yopilsinmi?');
  expect(await dialog.innerText()).toContain(`(${BANKS_READ})`);
  const saved = admin.waitForRequest((r) => r.url().endsWith('/api/user-role-access/update-access-status'));
  await admin.getByTestId('access-confirm').click();
  expect((await saved).postDataJSON()).toEqual({ role_id: roleId, action_id: BANKS_READ, state: to });
  await expect.poll(() => notification(admin).innerText()).toContain('Huquqlar saqlandi');
  await expect.poll(() => toggle.isChecked()).toBe(to === 1);
  expect(stateOf(await api<Access>(admin, `/api/user-role-access/${roleId}`), BANKS_READ)).toBe(to);
}

describe('access managing of a role', () => {
  it("opens from the role's page with every action by module", async () => {
    expect(await userSeesBanks()).toBe(true);
    await admin.goto(`${baseUrl}/admin/#/managing/user-roles`);
    await admin.locator('input[name=q]').fill(ECOSTAFF.role);
    await expect.poll(() => admin.locator('tbody tr.RaDatagrid-row').count()).toBe(1);
    await admin.locator('tbody tr.RaDatagrid-row td.column-code').click();
    await admin.getByTestId('entity-show').waitFor();
    await admin.getByTestId('route-link-managing-access-managing').click();
    await expect.poll(() => admin.evaluate(() => window.location.hash)).toBe(`#/managing/access-managing/${roleId}`);
    await expect.poll(() => admin.getByTestId('access-role').innerText()).toBe('«Ekologiya xodimi» roli huquqlari');
    await expect.poll(() => admin.getByTestId('access-count').innerText()).toMatch(/^\d+ \/ \d+ ta amalga ruxsat berilgan$/);
    // a module opens to its actions, each with its switch
    const section = admin.getByTestId('access-category-ecofund-sprav');
    await section.locator('.MuiAccordionSummary-root').click();
    await section.getByTestId(`access-action-${BANKS_READ}`).waitFor();
    await shot(admin, 'access-managing', { quiet: true });
    await section.locator('.MuiAccordionSummary-root').click();
    await expectNoRawKeys(admin);
  });

  it("closes an action: the role's users lose the menu item and get the 403 page", async () => {
    await toggleBanks(0);
    await shot(admin, 'access-managing-closed', { quiet: true });
    expect(await userSeesBanks()).toBe(false);
    await user.goto(`${baseUrl}/admin/#/${BANKS}`);
    await user.getByTestId('page-403').waitFor();
    expect(await user.getByTestId('page-403').innerText()).toContain('Banklar (MFO)');
    await shot(user, 'access-user-403', { quiet: true });
    await expectNoRawKeys(user);
  });

  it('reopens it: the item is back on the next page load', async () => {
    await toggleBanks(1);
    expect(await userSeesBanks()).toBe(true);
    await user.getByTestId(`menu-item-${BANKS}`).click();
    await expect.poll(() => user.evaluate(() => window.location.hash)).toBe(`#/${BANKS}`);
    // the list's first request after a new page load (its session read again, the role's actions
    // with it): on a machine the browser step loads to a load average of 7 it took over 10 s once
    const rows = user.locator('tbody tr.RaDatagrid-row');
    await expect
      .poll(
        async () =>
          (await rows.count()) ||
          `no rows; the page says: ${(
            await user
              .locator('main')
              .innerText()
              .catch(() => '')
          ).slice(0, 300)}`,
        { timeout: 30_000 },
      )
      .toBe(10);
    await expectNoRawKeys(user);
  });

  it('asks before a whole module changes, and changes nothing when cancelled', async () => {
    await admin.getByTestId('access-search').fill('');
    const before = await api<Access>(admin, `/api/user-role-access/${roleId}`);
    await admin.getByTestId('access-category-switch-ecofund-sprav').click();
    await expect.poll(() => admin.getByTestId('access-dialog').innerText()).toMatch(/«Maʼlumotnomalar» boʻlimidagi barcha \d+ ta amal/);
    await admin.getByTestId('access-dialog').getByRole('button', { name: 'Bekor qilish' }).click();
    expect(await api<Access>(admin, `/api/user-role-access/${roleId}`)).toEqual(before);
    for (const p of problems) expect(p.errors).toEqual([]);
  });
});
