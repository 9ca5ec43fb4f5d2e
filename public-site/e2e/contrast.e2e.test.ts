import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { contrastOf } from '../../e2e/contrast';
import { LANGS, launch, newContext, watch } from './support';

/**
 * Text a visitor reads on the public site's tinted parts reaches 4.5:1 (WCAG AA), measured from
 * the computed colours in the browser: the footer's text and links, and the status pills.
 */
const baseUrl = inject('publicBaseUrl');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(LANGS)('contrast in %s', (lang) => {
  it("the footer's links and text reach 4.5:1", async () => {
    const ctx = await newContext(browser, baseUrl, { lang });
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(`${baseUrl}/`);
    await page.locator('.site-footer a').first().waitFor();
    const parts = [...(await page.locator('.site-footer a').all()), ...(await page.locator('.site-footer p').all())];
    expect(parts.length).toBeGreaterThanOrEqual(5);
    for (const el of parts) {
      const c = await contrastOf(el);
      expect(c.ratio, `${await el.innerText()}: ${c.fg} on ${c.bg}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(problems.errors).toEqual([]);
    await ctx.close();
  });
});
