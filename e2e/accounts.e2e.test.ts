import type { Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, freshEnvironment, startServer, testDatabase } from './server';
import { expectNoRawKeys, launch, newContext, shot, watch } from './support';

/**
 * Accounts people run themselves (docs/accounts.md), in a browser, with codes delivered by e-mail
 * to a local SMTP server through the server's own notification worker: a back-office user forgets
 * the password, receives the code, sets a new one and signs in; a visitor registers on the public
 * site's /sing-up, confirms the code, registers a garden and sees it under "my gardens". The
 * server is this file's own, started with the SMTP server named (the shared one has none).
 */
const mails: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer;
let server: { baseUrl: string; stop: () => Promise<void> };
let drop: () => Promise<void>;
let browser: Browser;
const uid = `${Date.now() % 100000}`.padStart(5, '0');

/** The six-digit code of the newest e-mail to an address (quoted-printable or base64 bodies decoded). */
async function codeSentTo(address: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      () => {
        const mail = [...mails].reverse().find((m) => m.to.includes(address));
        if (!mail) return undefined;
        const at = mail.raw.search(/\r?\n\r?\n/);
        const body = at < 0 ? mail.raw : mail.raw.slice(at);
        // quoted-printable keeps digits as they are; a base64 body is decoded
        const texts = [body.replace(/=\r?\n/g, ''), Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('utf8')];
        code = texts.map((t) => /(?<![\d=])(\d{6})(?!\d)/.exec(t)?.[1]).find(Boolean);
        return code;
      },
      { timeout: 30_000, message: `an e-mail with a code to ${address}` },
    )
    .toBeTruthy();
  return code!;
}

async function adminToken(baseUrl: string): Promise<string> {
  const r = await fetch(`${baseUrl}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'ecofond-demo' }),
  });
  return ((await r.json()) as { token: string }).token;
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => {
        raw += c.toString('utf8');
      });
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  const port = ((smtp as unknown as { server: Server }).server.address() as AddressInfo).port;
  const fresh = freshEnvironment('ecofond-e2e-accounts-');
  const db = await testDatabase(fresh.env, (e) => {
    cli(['migrate'], e);
    cli(['seed', '--demo'], e);
  });
  drop = db.drop;
  server = await startServer(fresh.dataDir, {
    ...db.env,
    ECOFOND_SMTP_HOST: '127.0.0.1',
    ECOFOND_SMTP_PORT: String(port),
    ECOFOND_SMTP_IGNORE_TLS: '1',
    ECOFOND_NOTIFY_POLL_MS: '200',
  });
  browser = await launch();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await drop?.();
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
});

describe('a back-office user who forgot the password', () => {
  it('asks for a code, receives it by e-mail, sets a new password and signs in with it', async () => {
    const { baseUrl } = server;
    const username = `forgot_${uid}`;
    const email = `forgot.${uid}@example.uz`;
    const made = await fetch(`${baseUrl}/api/managing/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await adminToken(baseUrl)}` },
      body: JSON.stringify({ username, password: 'old-secret', fio: 'Unutuvchan Xodim', email, lang_code: 'uz', kind: 'staff' }),
    });
    expect(made.status).toBe(201);
    const ctx = await newContext(browser, baseUrl);
    const page = await ctx.newPage();
    const problems = watch(page);
    try {
      // the back-office's first load on a loaded machine can take longer than a step's 15 s
      await page.goto(`${baseUrl}/admin/#/login`, { timeout: 90_000 });
      await page.getByTestId('login-mode-forgot').waitFor({ timeout: 60_000 });
      await page.getByTestId('login-mode-forgot').click();
      await page.locator('input[name="username"]').fill(username);
      await page.getByTestId('account-submit').click();
      await page.getByTestId('code-sent').waitFor();
      const code = await codeSentTo(email);
      await page.locator('input[name="code"]').fill(code);
      await page.locator('input[name="password"]').fill('new-secret-1');
      await page.locator('input[name="password_repeat"]').fill('new-secret-1');
      await expectNoRawKeys(page);
      await shot(page, 'accounts-forgot-password');
      await page.getByTestId('account-submit').click();
      // back on the password form: the new password opens the back-office, the old one no longer does
      await page.locator('form input[name="password"]').waitFor();
      await page.locator('input[name="username"]').fill(username);
      await page.locator('input[name="password"]').fill('new-secret-1');
      await page.locator('button[type="submit"]').click();
      await page.getByTestId('app-title').waitFor({ timeout: 30_000 });
      const old = await fetch(`${baseUrl}/api/admin/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username, password: 'old-secret' }),
      });
      expect(old.status).toBe(401);
      expect(problems.errors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});

describe('a visitor of the public site', () => {
  it('registers on /sing-up with a code, registers a garden and sees it under "my gardens"', async () => {
    const { baseUrl } = server;
    const email = `resident.${uid}@example.uz`;
    const ctx = await newContext(browser, baseUrl);
    const page: Page = await ctx.newPage();
    try {
      await page.goto(`${baseUrl}/#/sing-up`);
      const form = page.getByTestId('signup-form');
      await form.locator('input[name="contact"]').fill(email);
      await page.getByTestId('signup-submit').click();
      await page.getByTestId('code-sent').waitFor();
      const code = await codeSentTo(email);
      await form.locator('input[name="code"]').fill(code);
      await form.locator('input[name="fio"]').fill('Aholi Vakili');
      await expect.poll(() => form.locator('select[name="region_id"] option').count()).toBeGreaterThan(1);
      await form.locator('select[name="region_id"]').selectOption({ index: 1 });
      await form.locator('input[name="password"]').fill('garden-pass');
      await form.locator('input[name="password_repeat"]').fill('garden-pass');
      await shot(page, 'accounts-sign-up');
      await page.getByTestId('signup-submit').click();
      // signed in and taken to "my gardens"
      const garden = page.getByTestId('garden-form');
      await garden.waitFor({ timeout: 30_000 });
      await garden.locator('input[name="owner_name"]').fill(`Bogʻ ${uid}`);
      await garden.locator('input[name="trees"]').fill('14');
      await garden.locator('input[name="lat"]').fill('41.31');
      await garden.locator('input[name="lng"]').fill('69.27');
      await page.getByTestId('garden-submit').click();
      await page.getByTestId('garden-saved').waitFor();
      await expect.poll(() => page.getByTestId('my-gardens').innerText()).toContain(`Bogʻ ${uid}`);
      await shot(page, 'accounts-my-gardens');
    } finally {
      await ctx.close();
    }
  });
});

describe('a resident who forgot the password, on the public site', () => {
  // the resident registered above, by e-mail, with the password "garden-pass"
  it('asks for a code on /login, receives it by e-mail, sets a new password and is signed in with it', async () => {
    const { baseUrl } = server;
    const email = `resident.${uid}@example.uz`;
    const ctx = await newContext(browser, baseUrl);
    const page: Page = await ctx.newPage();
    const problems = watch(page);
    try {
      await page.goto(`${baseUrl}/#/login`);
      await page.getByTestId('forgot-link').click();
      const form = page.getByTestId('forgot-form');
      await form.locator('input[name="username"]').fill(email);
      // the sign-up's mail to this address is not the code asked for now
      for (let i = mails.length - 1; i >= 0; i--) if (mails[i].to.includes(email)) mails.splice(i, 1);
      await page.getByTestId('forgot-submit').click();
      await page.getByTestId('code-sent').waitFor();
      const code = await codeSentTo(email);
      await form.locator('input[name="code"]').fill(code);
      await form.locator('input[name="password"]').fill('garden-pass-2');
      await form.locator('input[name="password_repeat"]').fill('garden-pass-2');
      for (const lang of ['uz', 'uk', 'ru']) {
        // the site's own language switch: the form keeps what was typed
        await page.setViewportSize({ width: 1400, height: 900 });
        await page.getByTestId(`lang-${lang}`).first().click();
        for (const width of [1400, 360]) {
          await page.setViewportSize({ width, height: width < 500 ? 800 : 900 });
          await shot(page, `accounts-public-forgot-${lang}-${width}`);
        }
      }
      await page.setViewportSize({ width: 1400, height: 900 });
      await expectNoRawKeys(page);
      await page.getByTestId('lang-uz').first().click();
      await page.getByTestId('forgot-submit').click();
      // signed in with the new password and taken to "my gardens"; the old password no longer opens
      await page.getByTestId('my-gardens').waitFor({ timeout: 30_000 });
      const old = await fetch(`${baseUrl}/api/admin/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: email, password: 'garden-pass' }),
      });
      expect(old.status).toBe(401);
      expect(problems.errors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
