import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AxeLog } from './axe';
import { launch, login, newContext } from './support';
import { sweepLanguage, type Lang } from './sweep';

/**
 * The sweep of issue 11, one language a file (e2e/sweep-uz.e2e.test.ts, -uk, -ru, so that e2e/run.mjs
 * can run them in lanes of their own): signed in as the administrator (every right), every menu item that is a
 * list — its list, its create screen from the create button, its first row's page and form from
 * the row's buttons — in uz, Uzbek Cyrillic and ru at 1400 px. It fails on a page error, a caption
 * that is a field's name, a raw key, a record title ending in an id, and a column or row button
 * out of sight. The create screens and the forms behind each page's edit button are walked in uz
 * (routes do not depend on the language); in uk and ru the row's page shows the same fields'
 * captions, which keeps the run within minutes.
 *
 * axe-core checks each screen opened (e2e/axe.ts): in uz every list's screens, the sign-in page and
 * the dashboard; in uk and ru the dashboard and a sample of the lists (every fourth, uk and ru a
 * different quarter), whose screens differ from uz only in their words. The counts are printed a
 * screen a line and written to artifacts/e2e/axe-sweep-<lang>.json; a serious or critical
 * violation fails the sweep. SWEEP_ONLY=<regular expression> sweeps only the routes it matches
 * (`SWEEP_ONLY=ecofund-sprav/regions`), to look at one screen.
 */

/** The lists checked by axe in each language, by their index in the sweep. */
const AXE_SAMPLE: Record<Lang, (i: number) => boolean> = { uz: () => true, uk: (i) => i % 4 === 1, ru: (i) => i % 4 === 3 };

export function sweepTest(lang: Lang): void {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
  });

  describe('the sweep of every list, create, show and edit screen', () => {
    it(`finds nothing wrong in ${lang}`, async () => {
      const log = new AxeLog(`sweep-${lang}`);
      const ctx = await newContext(browser, baseUrl);
      try {
        const page = await ctx.newPage();
        const problems: string[] = [];
        if (lang === 'uz') {
          await page.goto(`${baseUrl}/admin/#/login`);
          await page.locator('input[name=password]').waitFor();
          problems.push(...(await log.check(page, 'uz login')));
        }
        await login(page, baseUrl, 'admin', 'ecofond-demo');
        const only = process.env.SWEEP_ONLY ? new RegExp(process.env.SWEEP_ONLY) : undefined;
        problems.push(
          ...(await sweepLanguage(page, {
            baseUrl,
            lang,
            walkForms: lang === 'uz',
            only: only && ((route) => only.test(route)),
            axe: { log, sample: AXE_SAMPLE[lang] },
          })),
        );
        expect(problems, problems.join('\n')).toEqual([]);
      } finally {
        log.write();
        await ctx.close();
      }
    }, 900_000); // every screen of the back-office: minutes, and more beside the other browser tests on shared cores
  });
}
