import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoRawKeys, launch, newContext, shot, signedIn, watch } from './support';

/**
 * Chat with an operator (docs/chat.md): a visitor opens the chat on the public site and writes; an
 * operator (the demo headquarters user, `shtab`) in another browser context sees the chat in the
 * back-office's operator screen with its unread count and answers; the visitor sees the answer
 * without reloading (the WebSocket, through the Content-Security-Policy's `connect-src 'self'`),
 * in each of the three languages, on a 360 px phone too; the operator closes the chat.
 */

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  uz: {
    open: 'Operator bilan chat',
    question: 'Salom! Koʻchatni qayerdan olsam boʻladi?',
    answer: 'Assalomu alaykum! Mahallangiz orqali bepul olasiz.',
    closed: 'Operator chatni yopdi.',
  },
  uk: {
    open: 'Оператор билан чат',
    question: 'Салом! Кўчатни қаердан олсам бўлади?',
    answer: 'Ассалому алайкум! Маҳаллангиз орқали бепул оласиз.',
    closed: 'Оператор чатни ёпди.',
  },
  ru: {
    open: 'Чат с оператором',
    question: 'Здравствуйте! Где взять саженцы?',
    answer: 'Здравствуйте! Бесплатно через вашу махаллю.',
    closed: 'Оператор закрыл чат.',
  },
} as const;

async function visitor(lang: 'uz' | 'uk' | 'ru', width = 1280): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const ctx = await newContext(browser, baseUrl);
  await ctx.addInitScript((l) => {
    if (!localStorage.getItem('ecofond.lang')) localStorage.setItem('ecofond.lang', l);
  }, lang);
  const page = await ctx.newPage();
  await page.setViewportSize({ width, height: width < 500 ? 740 : 860 });
  const problems = watch(page);
  const csp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
  });
  await page.goto(`${baseUrl}/`);
  return { page, errors: problems.errors.concat(csp), close: () => ctx.close() };
}

describe('chat with an operator', () => {
  for (const [lang, width] of [
    ['uz', 1280],
    ['uk', 360],
    ['ru', 1280],
  ] as const) {
    it(`a visitor (${lang}, ${width} px) asks, an operator answers, the visitor sees it without reloading`, async () => {
      const t = TEXTS[lang];
      const v = await visitor(lang, width);
      const requested: string[] = [];
      v.page.on('request', (r) => requested.push(r.url()));
      // the chat's code comes after the page, as a chunk of its own
      const launchBtn = v.page.getByTestId('chat-open');
      await launchBtn.waitFor();
      expect(await launchBtn.innerText()).toContain(t.open);
      await launchBtn.focus();
      await v.page.keyboard.press('Enter');
      const panel = v.page.getByTestId('chat-panel');
      await panel.waitFor();
      expect(await panel.getAttribute('role')).toBe('dialog');
      expect(await v.page.getByTestId('chat-log').getAttribute('aria-live')).toBe('polite');
      // the message box has the focus: type and press Enter
      await expect.poll(() => v.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('chat-input');
      await v.page.getByTestId('chat-name').fill('Dilnoza');
      await v.page.getByTestId('chat-input').fill(t.question);
      await v.page.getByTestId('chat-input').press('Enter');
      await v.page.getByTestId('chat-msg-visitor').waitFor();
      expect(await v.page.getByTestId('chat-msg-visitor').innerText()).toContain(t.question);
      const stored = await v.page.evaluate(
        () => JSON.parse(localStorage.getItem('ecofond.chat') ?? 'null') as { id: number; token: string },
      );
      expect(stored.id).toBeGreaterThan(0);
      if (width < 500) {
        const box = await panel.boundingBox();
        expect(box!.width).toBeLessThanOrEqual(360);
        const [scroll, inner] = await v.page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        expect(scroll).toBeLessThanOrEqual(inner);
      }

      // the operator, in another browser: the chat is in the inbox with one unread message
      const op = await signedIn(browser, baseUrl, 'shtab');
      await op.page.getByTestId(`lang-${lang}`).click();
      await expect.poll(() => op.page.getByTestId(`lang-${lang}`).getAttribute('aria-pressed')).toBe('true');
      await op.page.goto(`${baseUrl}/admin/#/notification/operator-chat`);
      const row = op.page.getByTestId(`chat-row-${stored.id}`);
      await row.waitFor();
      expect(await row.getByTestId('chat-row-unread').innerText()).toBe('1');
      expect(await row.innerText()).toContain('Dilnoza');
      await row.click();
      await op.page.getByTestId('op-msg-visitor').waitFor();
      await expect.poll(() => row.getByTestId('chat-row-unread').count()).toBe(0);
      await op.page.getByTestId('chat-answer').fill(t.answer);
      await op.page.getByTestId('chat-send').click();
      await op.page.getByTestId('op-msg-operator').waitFor();

      // the visitor sees the answer as it is sent, without reloading
      await v.page.getByTestId('chat-msg-operator').waitFor({ timeout: 10_000 });
      expect(await v.page.getByTestId('chat-msg-operator').innerText()).toContain(t.answer);
      expect(
        requested.filter((u) => u.includes('/api/public/chats/')).filter((u) => !u.includes('/messages')).length,
        'no polling of the history',
      ).toBeLessThanOrEqual(2);
      await expectNoRawKeys(v.page);
      await shot(v.page, `chat-visitor-${lang}`);
      await expectNoRawKeys(op.page);
      await shot(op.page, `chat-operator-${lang}`);

      // the operator closes the chat; the visitor is told
      await op.page.getByTestId('chat-close').click();
      await op.page.getByTestId('chat-close-confirm').click();
      await expect.poll(() => op.page.getByTestId(`chat-row-${stored.id}`).count()).toBe(0);
      await v.page.getByTestId('chat-closed').waitFor();
      expect(await v.page.getByTestId('chat-closed').innerText()).toBe(t.closed);
      // Escape closes the panel and gives the focus back to the button
      await v.page.getByTestId('chat-input').press('Escape');
      await expect.poll(() => v.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('chat-open');
      expect(v.errors).toEqual([]);
      expect(op.problems.errors).toEqual([]);
      await op.close();
      await v.close();
    });
  }
});
