import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, api, login, newContext, watch, type AdminSession } from './support';

/**
 * Spec §3: the filters of some lists are kept for an hour in cookies with the old system's names;
 * the metadata names them (`list.cookie`). The subjects list keeps `filter_subjects`, and a list
 * opened afresh (another browser session, nothing in react-admin's store or the address) takes its
 * filter back from the cookie.
 */
const baseUrl = inject('baseUrl');
const LIST = 'ecofund/subject';
const rows = (page: Page) => page.locator('tbody tr.RaDatagrid-row');
const keptCookie = async (ctx: BrowserContext) => (await ctx.cookies(baseUrl)).find((c) => c.name === 'filter_subjects');

async function openList(page: Page) {
  await page.goto(`${baseUrl}/admin/#/${LIST}`);
  await page.locator('.RaList-main, [data-testid=list-empty]').first().waitFor();
}

let session: AdminSession;
beforeAll(async () => {
  session = await adminSession(baseUrl, 'filter-cookies');
}, 240_000);
afterAll(async () => {
  await session?.close();
});

describe('the subjects list', () => {
  it('keeps its filter in filter_subjects for an hour and takes it back when opened again', async () => {
    const { page, ctx, problems, browser } = session;
    const all = await api<{ inn: string; name: string; director: string | null }[]>(page, `/api/${LIST}?range=[0,99]&sort=["id","ASC"]`);
    // an INN that only one subject's INN, name or director contains
    const one = all.find((s) => all.filter((o) => [o.inn, o.name, o.director ?? ''].some((v) => v.includes(s.inn))).length === 1)!;
    expect(one, 'a demo subject').toBeTruthy();

    await openList(page);
    expect(await keptCookie(ctx)).toBeUndefined();
    await page.locator('input[name=q]').fill(one.inn);
    await expect.poll(() => rows(page).count()).toBe(1);
    await expect.poll(async () => (await keptCookie(ctx))?.value).toBeDefined();
    const cookie = (await keptCookie(ctx))!;
    expect(JSON.parse(decodeURIComponent(cookie.value))).toEqual({ q: one.inn });
    const hour = cookie.expires - Date.now() / 1000;
    expect(hour).toBeGreaterThan(3500);
    expect(hour).toBeLessThanOrEqual(3600);

    // another browser session with this one's cookies: a fresh react-admin store, a bare address
    const ctx2 = await newContext(browser, baseUrl);
    try {
      await ctx2.addCookies(await ctx.cookies(baseUrl));
      const page2 = await ctx2.newPage();
      const problems2 = watch(page2);
      await login(page2, baseUrl, 'admin', 'ecofond-demo');
      await openList(page2);
      await expect.poll(() => page2.locator('input[name=q]').inputValue()).toBe(one.inn);
      await expect.poll(() => rows(page2).count()).toBe(1);
      expect(await rows(page2).first().innerText()).toContain(one.inn);

      // an empty filter is not kept
      await page2.locator('input[name=q]').fill('');
      await expect.poll(async () => (await keptCookie(ctx2)) === undefined).toBe(true);
      expect(problems2.errors).toEqual([]);
    } finally {
      await ctx2.close();
    }
    expect(problems.errors).toEqual([]);
  });
});
