import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, expectNoRawKeys, launch, shot, signedIn } from './support';

/**
 * The public site's content from the back-office (docs/site-content.md): an administrator edits the
 * about page's text in the rich-text editor and the public site shows it, without a redeploy; an
 * administrator publishes a news item with an image from the news editor and the public news shows
 * it; a visitor sends a suggestion from a 360 px phone.
 */
const baseUrl = inject('baseUrl');
let browser: Browser;
/** a 1×1 PNG */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('site content', () => {
  it('an administrator edits the about page and the public site shows the new text', async () => {
    const { page, problems, close } = await signedIn(browser, baseUrl, 'admin');
    const [row] = await api<{ id: number }[]>(page, '/api/notification/site-content?code=about-project');
    await page.goto(`${baseUrl}/admin/#/notification/site-content/${row.id}`);
    const editor = page.getByTestId('rich-editor-body.uz');
    await editor.waitFor();
    await expect.poll(() => editor.innerText()).toContain('PF-46');
    const fresh = `Yangilangan matn ${Date.now()}`;
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(fresh);
    await page.keyboard.press('Enter');
    await page.keyboard.type('Ikkinchi xatboshi');
    await page.getByTestId('ed-bold').first().click();
    // the mark is on (and the caret still in the text) before the bold words are typed
    await expect.poll(() => page.getByTestId('ed-bold').first().getAttribute('aria-pressed'), { timeout: 10_000 }).toBe('true');
    await page.keyboard.type(' qalin');
    await shot(page, 'site-content-edit');
    await page.getByTestId('save-button').click();
    await expect
      .poll(async () => (await api<{ body: { uz: string } }>(page, `/api/notification/site-content/${row.id}`)).body.uz)
      .toContain(fresh);
    const stored = (await api<{ body: { uz: string } }>(page, `/api/notification/site-content/${row.id}`)).body.uz;
    expect(stored).toMatch(/<p>Yangilangan matn \d+<\/p><p>Ikkinchi xatboshi<strong> qalin<\/strong><\/p>/);

    const site = await page.context().newPage();
    await site.goto(`${baseUrl}/#/about`);
    const text = site.getByTestId('about-about-project');
    await expect.poll(() => text.innerText()).toContain(fresh);
    expect((await text.locator('strong').innerText()).trim()).toBe('qalin');
    // the other texts are still there, and in Russian the Russian text
    expect(await site.getByTestId('about-about-decree').innerText()).toContain('lex.uz');
    await site.getByTestId('lang-ru').click();
    await expect.poll(() => site.getByTestId('about-about-project').innerText()).toContain('УП-46');
    await site.getByTestId('lang-uz').click();
    await shot(site, 'site-content-about');
    expect(problems.errors).toEqual([]);
    await close();
  });

  it('an administrator publishes a news item with an image and the public news shows it', async () => {
    const { page, problems, close } = await signedIn(browser, baseUrl, 'admin');
    // the image through resources/upload, the draft through the API (the generic form's part)
    const image = await page.evaluate(async (b64) => {
      const s = JSON.parse(localStorage.getItem('ecofond.session') ?? '{}') as { token?: string };
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const res = await fetch('/api/resources/upload?name=park.png', {
        method: 'POST',
        body: bytes,
        headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/octet-stream' },
      });
      return ((await res.json()) as { id: number }).id;
    }, PNG);
    const title = `Yangi park ochildi ${Date.now()}`;
    const draft = await api<{ id: number; status: string }>(page, '/api/notification/publications', 'uz', {
      method: 'POST',
      body: { title: { uz: title, ru: 'Открыт новый парк' }, summary: { uz: 'Qisqacha' }, published_at: new Date().toISOString(), image },
    });
    expect(draft.status).toBe('draft');
    expect((await page.request.get(`${baseUrl}/api/public/entities/publications/${draft.id}`)).status()).toBe(404);

    // from the item's page to the editor
    await page.goto(`${baseUrl}/admin/#/notification/publications/${draft.id}/show`);
    await page.getByRole('link', { name: 'Matn muharririda ochish' }).click();
    await page.getByTestId('pubs-editor').waitFor();
    expect(await page.getByTestId('pubs-status').innerText()).toBe('Qoralama');
    const body = page.getByTestId('pubs-body-uz');
    await body.click();
    await page.keyboard.type('Shahar markazida yangi park barpo etildi.');
    await page.getByTestId('pubs-tab-ru').click();
    await page.getByTestId('pubs-body-ru').click();
    await page.keyboard.type('В центре города открыт новый парк.');
    await page.getByTestId('pubs-publish').click();
    await expect.poll(() => page.getByTestId('pubs-status').innerText()).toBe('Eʼlon qilingan');
    await shot(page, 'pubs-edit');
    await expectNoRawKeys(page);

    const site = await page.context().newPage();
    await site.goto(`${baseUrl}/#/news`);
    await expect.poll(() => site.getByTestId('news-list').innerText()).toContain(title);
    await site.goto(`${baseUrl}/#/news/${draft.id}`);
    await site.getByTestId('news-item').waitFor();
    expect(await site.locator('h1').innerText()).toContain(title);
    expect(await site.getByTestId('news-body').innerText()).toContain('Shahar markazida yangi park barpo etildi.');
    const img = site.locator('img.news-image');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1);
    await shot(site, 'site-news-published');

    // withdrawn: gone from the public news
    await page.getByTestId('pubs-unpublish').click();
    await expect.poll(() => page.getByTestId('pubs-status').innerText()).toBe('Qoralama');
    expect((await page.request.get(`${baseUrl}/api/public/entities/publications/${draft.id}`)).status()).toBe(404);
    expect(problems.errors).toEqual([]);
    await close();
  });

  it('a visitor sends a suggestion from a 360 px phone', async () => {
    const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'uz-UZ', timezoneId: 'Asia/Tashkent' });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${baseUrl}/#/`);
    // the menu is the back-office's, with the suggestion form in it
    await page.getByTestId('menu-button').click();
    await page.locator('.menu-panel').getByRole('link', { name: 'Taklif yuborish' }).click();
    const form = page.getByTestId('suggestion-form');
    await form.waitFor();
    await expect.poll(() => page.getByTestId('suggestion-intro').innerText()).toContain('taklif');
    // the form's own checks first
    await page.getByTestId('suggestion-submit').click();
    await expect.poll(() => page.locator('[aria-invalid=true]').count()).toBeGreaterThanOrEqual(3);
    await page.getByLabel('Mavzu').selectOption('greening');
    await page.getByLabel('Taklif matni').fill('Mahallamizdagi maktab hovlisiga chinor ekishni taklif qilaman');
    await page.getByLabel('Surat').setInputFiles({ name: 'hovli.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') });
    await page.locator('input[name=sender_name]').fill('Aziza Karimova');
    await page.getByTestId('reply-sms').check();
    await page.locator('input[name=phone]').fill('(90) 123-45-67');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'site-suggestion-360');
    await page.getByTestId('suggestion-submit').click();
    const thanks = page.getByTestId('suggestion-thanks');
    await thanks.waitFor();
    const number = Number(/(\d+)/.exec(await thanks.innerText())?.[1]);
    expect(number).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'site-suggestion-360-thanks');
    expect(errors).toEqual([]);
    await ctx.close();

    // the staff see it, with its photo and the way to answer
    const { page: staff, close } = await signedIn(browser, baseUrl, 'admin');
    const row = await api<{ status: string; reply_method: string; phone: string; photo: number | null; source: string }>(
      staff,
      `/api/notification/suggestion/${number}`,
    );
    expect(row).toMatchObject({ status: 'new', reply_method: 'sms', phone: '901234567', source: 'public' });
    expect(row.photo).toBeGreaterThan(0);
    await close();
  });
});
