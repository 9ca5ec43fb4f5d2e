/**
 * axe-core over one screen of a running server, by hand (docs/accessibility.md):
 *
 *   node --import tsx e2e/axe-screen.ts http://127.0.0.1:3000/admin/#/ecofund-sprav/regions [--lang ru] [--width 360] [--all] [--detail]
 *
 * A back-office address signs in first as the demo administrator (ECOFOND_USER / ECOFOND_PASSWORD
 * for another user); the public site's and the field app's addresses are opened as they are. It
 * prints the screen's counts and its violations with their nodes — the serious and critical ones,
 * or every one with --all; with --detail each node's HTML and what to fix — and exits 1 when there is a serious or critical one.
 */
import { axeLine, axeScreen, IMPACTS } from './axe';
import { launch, login } from './support';

const args = process.argv.slice(2);
const url = args.find((a) => /^https?:/.test(a));
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!url) {
  console.error('usage: node --import tsx e2e/axe-screen.ts <address> [--lang uz|uk|ru] [--width px] [--all]');
  process.exit(2);
}
const lang = opt('lang') ?? 'uz';
const all = args.includes('--all');
const { origin, pathname } = new URL(url);

const browser = await launch();
try {
  const ctx = await browser.newContext({
    viewport: { width: Number(opt('width') ?? 1400), height: 900 },
    locale: 'uz-UZ',
    timezoneId: 'Asia/Tashkent',
  });
  await ctx.addInitScript((l) => localStorage.setItem('ecofond.lang', l), lang);
  const page = await ctx.newPage();
  if (pathname.startsWith('/admin') && !url.includes('#/login')) {
    await login(page, origin, process.env.ECOFOND_USER ?? 'admin', process.env.ECOFOND_PASSWORD ?? 'ecofond-demo');
  }
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  await page
    .waitForFunction(() => !document.querySelector('.app-loader, .MuiSkeleton-root, [role=progressbar], main .loading'), null, {
      timeout: 15_000,
    })
    .catch(() => undefined);
  const s = await axeScreen(page, url, { detail: args.includes('--detail') });
  console.log(axeLine(s), `(${s.ms} ms)`);
  const shown = all ? IMPACTS : IMPACTS.slice(0, 2);
  for (const v of s.violations.filter((x) => shown.includes(x.impact))) {
    console.log(`  ${v.impact} ${v.rule}: ${v.help}`);
    for (const [i, n] of v.nodes.entries()) {
      console.log(`    ${n}`);
      const d = v.details?.[i];
      if (d) console.log(`      ${d.html}\n      ${d.summary.replace(/\n/g, '\n      ')}`);
    }
  }
  process.exitCode = s.counts.serious + s.counts.critical > 0 ? 1 : 0;
} finally {
  await browser.close();
}
