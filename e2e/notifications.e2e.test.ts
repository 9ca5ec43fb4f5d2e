import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminSession, type AdminSession, api, expectNoRawKeys, shot } from './support';

/**
 * The bell (docs/notifications.md): an announcement sent to the administrator through the API is
 * delivered by the server's worker, the bell counts it, it is shown at the top for 2 500 ms, and
 * clicking it in the bell's list marks it read and clears the count.
 */
const baseUrl = inject('baseUrl');
const uid = `${Date.now() % 100000}`.padStart(5, '0');
let session: AdminSession;
let page: Page;

const count = async (p: Page) => Number(await p.getByTestId('bell-count').getAttribute('data-count'));
async function countBecomes(p: Page, n: number): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if ((await count(p)) === n) return;
    // the bell asks again when the window gets focus (and every 15 s)
    await p.evaluate(() => window.dispatchEvent(new Event('focus')));
    await p.waitForTimeout(250);
  }
  expect(await count(p)).toBe(n);
}

beforeAll(async () => {
  session = await adminSession(baseUrl, 'notifications');
  ({ page } = session);
});
afterAll(async () => {
  await session?.close();
});

describe('the bell', () => {
  it('counts an unread notification, shows it at the top, and marking it read clears it', async () => {
    await page.goto(`${baseUrl}/admin/#/`);
    await page.getByTestId('bell').waitFor();
    // the demo's announcements (seeds/demo-notifications.ts) are read first — once the worker has delivered them
    await expect
      .poll(
        async () => {
          await api(page, '/api/notification/my/read-all', 'uz', { method: 'POST' });
          return (await api<{ count: number }>(page, '/api/notification/my/unread')).count;
        },
        { timeout: 15_000 },
      )
      .toBe(0);
    await countBecomes(page, 0);
    const types = await api<{ id: number; code: string }[]>(page, '/api/notification/notification-types?range=[0,99]');
    const [me] = await api<{ id: number }[]>(page, '/api/managing/users?filter={"q":"admin"}&range=[0,0]');
    const title = `Sinov eʼloni ${uid}`;
    await api(page, '/api/notification/notification', 'uz', {
      method: 'POST',
      body: { type_id: types.find((t) => t.code === 'announcement')!.id, user_id: me.id, title, text: 'Bell test' },
    });
    await countBecomes(page, 1);
    // shown at the top, then gone after the spec's 2 500 ms
    const toast = page.getByTestId('notification');
    await expect.poll(async () => ((await toast.count()) ? toast.innerText() : ''), { timeout: 5000 }).toContain(title);
    const shownAt = Date.now();
    await shot(page, 'notifications-bell-toast');
    await toast.waitFor({ state: 'detached', timeout: 6000 });
    expect(Date.now() - shownAt).toBeLessThan(4000);

    await page.getByTestId('bell').click();
    const item = page.getByTestId('bell-item').filter({ hasText: title });
    await item.waitFor();
    expect(await item.getAttribute('data-read')).toBe('false');
    await shot(page, 'notifications-bell-list');
    await item.click();
    await expect.poll(() => item.getAttribute('data-read')).toBe('true');
    await page.keyboard.press('Escape');
    await countBecomes(page, 0);
    await expectNoRawKeys(page);
  });
});

describe("a notification template's form", () => {
  it('shows the placeholders its type allows under the body', async () => {
    await page.goto(`${baseUrl}/admin/#/notification/notification-templates/create`);
    const hint = page.getByTestId('template-variables');
    await expect.poll(() => hint.innerText()).toContain('Bildirishnoma turini tanlang');
    const type = page.locator('input[name="type_id"]');
    await type.click();
    await type.fill('Hisobot rad');
    await page.getByRole('option', { name: 'Hisobot rad etildi', exact: true }).click();
    await expect.poll(() => page.getByTestId('template-variable').allInnerTexts()).toEqual(['{id}', '{year}', '{period}', '{comment}']);
    await shot(page, 'notifications-template-variables');
    await expectNoRawKeys(page);
  });
});
