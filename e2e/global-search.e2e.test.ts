import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, shot, type PageProblems } from './support';

/**
 * The global search (docs/global-search.md) by the keyboard alone: Ctrl+K and "/" open it (not
 * "/" typed in a text box), a subject's INN lists it under its entity, the arrows move through the
 * hits and Enter opens the chosen row's page; in uz, Uzbek Cyrillic and ru, at 1400 and 360 px
 * (artifacts/screenshots/global-search-<lang>-<width>.png).
 */

const baseUrl = inject('baseUrl');

let session: AdminSession;
let page: Page;
let problems: PageProblems;
let subject: { id: number; inn: string; name: string };

beforeAll(async () => {
  session = await adminSession(baseUrl, 'global-search');
  ({ page, problems } = session);
  [subject] = await api<{ id: number; inn: string; name: string }[]>(
    page,
    `/api/ecofund/subject?range=[0,0]&sort=${encodeURIComponent('["id","asc"]')}`,
  );
});
afterAll(async () => {
  await page
    ?.getByTestId('lang-uz')
    .click()
    .catch(() => undefined);
  await session?.close();
});

const dialog = () => page.getByTestId('global-search');
const input = () => page.getByTestId('global-search-input');

async function home() {
  await page.goto(`${baseUrl}/admin/#/`);
  await page.getByTestId('page-dashboard').waitFor();
}

describe('the global search', () => {
  it('opens by Ctrl+K, finds a subject by its INN and opens it by Enter', async () => {
    await home();
    await page.keyboard.press('Control+k');
    await dialog().waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('global-search-input');
    await page.keyboard.type(subject.inn);
    const hit = page.getByTestId('global-search-hit').first();
    await hit.waitFor();
    expect(await hit.innerText()).toContain(subject.name);
    expect(await input().getAttribute('aria-activedescendant')).toBe(await hit.getAttribute('id'));
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash.startsWith(`#/ecofund/subject/${subject.id}`));
    await page.getByTestId('entity-show').waitFor();
    await expect.poll(() => dialog().count()).toBe(0);
  });

  it('opens by "/" outside a text box, not when "/" is typed into one', async () => {
    await page.goto(`${baseUrl}/admin/#/ecofund/subject`);
    await page.locator('tbody tr.RaDatagrid-row').first().waitFor();
    const q = page.locator('.RaList-main input[name=q], form input[name=q]').first();
    await q.click();
    await page.keyboard.type('a/b');
    expect(await q.inputValue()).toBe('a/b');
    expect(await dialog().count()).toBe(0);
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('Escape');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('/');
    await dialog().waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);
  });

  it('moves through the hits by the arrows, and says so in each language when nothing is found', async () => {
    for (const lang of ['uz', 'uk', 'ru'] as const) {
      await home();
      if (lang !== 'uz') {
        // the administrator starts in uz; the language is kept per user (afterAll sets uz back)
        const stored = page.waitForRequest((r) => r.url().endsWith('/api/admin/app/setlang') && r.method() === 'POST');
        await page.getByTestId(`lang-${lang}`).click();
        await stored;
      }
      await page.getByTestId('global-search-button').click();
      await dialog().waitFor();
      await page.keyboard.type(subject.inn.slice(0, 4));
      await page.getByTestId('global-search-hit').first().waitFor();
      const hits = await page.getByTestId('global-search-hit').count();
      if (hits > 1) {
        await page.keyboard.press('ArrowDown');
        expect(await input().getAttribute('aria-activedescendant')).toBe(
          await page.getByTestId('global-search-hit').nth(1).getAttribute('id'),
        );
        await page.keyboard.press('ArrowUp');
      }
      for (const width of [1400, 360]) {
        await page.setViewportSize({ width, height: 900 });
        await shot(page, `global-search-${lang}-${width}`);
      }
      await page.setViewportSize({ width: 1400, height: 900 });
      await input().fill('zzqqxx-7');
      const status = dialog().getByRole('status');
      await expect.poll(() => status.innerText()).toContain('zzqqxx-7');
      expect((await status.innerText()).replace('zzqqxx-7', '')).not.toMatch(/search|nothing|found/i);
      await expectNoRawKeys(page);
      await page.keyboard.press('Escape');
    }
    expect(problems.errors).toEqual([]);
  });
});
