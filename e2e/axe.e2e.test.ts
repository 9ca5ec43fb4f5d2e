import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeLine, AxeLog, axeScreen } from './axe';
import { launch } from './support';

/**
 * The axe helper itself (e2e/axe.ts), on a page written here: it finds what it must — a button
 * without a name (critical), grey on white text (serious), an input without a label (critical) —
 * names the screen, the rule and the node, and finds nothing on the same page made right. The
 * sweeps, the public site's and the field app's tests rely on it to fail.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const PAGE = (fixed: boolean) => `<!doctype html><html lang="uz"><head><title>Sinov</title></head><body><main><h1>Sinov</h1>
  <button id="plain">${fixed ? 'Saqlash' : ''}</button>
  <p id="faint" style="color:${fixed ? '#333' : '#bbb'};background:#fff">Kulrang matn</p>
  ${fixed ? '<label for="inn">STIR</label>' : ''}<input id="inn" type="text">
</main></body></html>`;

describe('the axe helper', () => {
  it('counts and names serious and critical violations, and none where there are none', async () => {
    const page = await browser.newPage();
    try {
      await page.setContent(PAGE(false));
      const log = new AxeLog('self-test');
      const problems = await log.check(page, 'broken');
      const s = log.screens[0];
      expect(s.counts.critical).toBeGreaterThanOrEqual(2);
      expect(s.counts.serious).toBeGreaterThanOrEqual(1);
      expect(axeLine(s)).toMatch(/^axe broken: serious \d+, critical \d+, moderate \d+, minor \d+$/);
      const text = problems.join('\n');
      expect(text).toContain('axe broken: critical button-name');
      expect(text).toContain('#plain');
      expect(text).toContain('serious color-contrast');
      expect(text).toContain('#faint');
      expect(text).toMatch(/critical label .*#inn/);

      await page.setContent(PAGE(true));
      const fixed = await axeScreen(page, 'fixed');
      expect(fixed.counts.critical + fixed.counts.serious, JSON.stringify(fixed.violations)).toBe(0);
      // only the part asked for is checked
      await page.setContent(PAGE(false));
      const part = await axeScreen(page, 'part', { include: ['h1'] });
      expect(part.counts.critical + part.counts.serious).toBe(0);
    } finally {
      await page.close();
    }
  });
});
