import type { Page } from 'playwright-core';
import { cli, freshEnvironment, startServer, testDatabase } from '../../e2e/server';
import { dataSettled, launch, login, newContext } from '../../e2e/support';

/**
 * bench/renders: how much the back-office draws a screen — React's commits and the components
 * rendered in them (mounted or drawn again), counted through React's own developer-tools hook,
 * which the production build calls at every commit. Counts, not seconds: the same build and demo
 * data give the same figures on a fast machine and a slow one, so a change's effect on the
 * renderer's work (the browser tests' and a slow phone's time) can be seen where its time is lost
 * in the machine's noise. The renderer's script time (Chromium's own counter) is printed beside
 * them for reference; it moves with the machine.
 *
 * As the administrator on the demo data, at 1400 px: the sign-in to the dashboard, then for each
 * list below its list opened from the dashboard's address and its first row's page. Counting: a
 * component (a function, class, memo or forwardRef) is counted in a commit when it mounted or
 * performed work; a subtree React skipped is not walked (as React's developer tools do).
 *
 * `npm run bench:renders` (needs the built back-office: `npm run build:admin`); with
 * TEST_DATABASE_URL its server runs on a copy of the demo database there, else on the embedded one.
 */

const SCREENS = [
  'ecofund-plantings/plantings',
  'ecofund-offences/offences',
  'ecofund/payments-all',
  'ecofund-sprav/regions',
  'ecofund-plantings/plantings-tree-type',
];

/**
 * Installed before the app's code: React finds the hook and reports every commit to it. Plain
 * JavaScript in a string: the page gets it as written (tsx would wrap a function's inner names in
 * a helper the page does not have).
 */
const HOOK = `(() => {
  window.__renders = { commits: 0, renders: 0, mounts: 0 };
  const PERFORMED_WORK = 1;
  const walk = (f, mounting) => {
    for (; f; f = f.sibling) {
      const mount = mounting || f.alternate === null;
      const component = typeof f.type === 'function' || (typeof f.type === 'object' && f.type !== null);
      if (component && (mount || (f.flags & PERFORMED_WORK) === PERFORMED_WORK)) {
        window.__renders.renders++;
        if (mount) window.__renders.mounts++;
      }
      // a subtree React bailed out of keeps its children: nothing in it was drawn
      if (mount || f.child !== f.alternate.child) walk(f.child, mount);
    }
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject(renderer) { this.renderers.set(1, renderer); return 1; },
    checkDCE() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    setStrictMode() {},
    onCommitFiberRoot(_id, root) {
      window.__renders.commits++;
      walk(root.current.child, root.current.alternate === null);
    },
  };
})();`;

interface Count {
  commits: number;
  renders: number;
  mounts: number;
  scriptMs: number;
}

/** The counts since the last call, once react-admin's requests have been quiet for a second (late answers drawn too). */
async function take(page: Page, cdp: { send(m: string): Promise<unknown> }, last: { script: number }): Promise<Count> {
  // the dashboard's own figures (not react-admin's requests) show skeletons until they come
  await page.waitForFunction(() => !document.querySelector('.MuiSkeleton-root'), null, { timeout: 30_000 });
  await dataSettled(page, 1000);
  const c = await page.evaluate(() => {
    const w = window as unknown as { __renders: { commits: number; renders: number; mounts: number } };
    const out = { ...w.__renders };
    w.__renders = { commits: 0, renders: 0, mounts: 0 };
    return out;
  });
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const script = metrics.find((m) => m.name === 'ScriptDuration')?.value ?? 0;
  const scriptMs = Math.round((script - last.script) * 1000);
  last.script = script;
  return { ...c, scriptMs };
}

const fresh = freshEnvironment('ecofond-bench-renders-');
const { env, drop } = await testDatabase(fresh.env, (e) => {
  cli(['migrate'], e);
  cli(['seed', '--demo'], e);
});
const server = await startServer(fresh.dataDir, env);
const browser = await launch();
const rows: [string, Count][] = [];
try {
  const ctx = await newContext(browser, server.baseUrl);
  await ctx.addInitScript({ content: HOOK });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Performance.enable');
  const last = { script: 0 };
  await login(page, server.baseUrl, 'admin', 'ecofond-demo');
  rows.push(['sign-in to the dashboard', await take(page, cdp, last)]);
  for (const path of SCREENS) {
    await page.goto(`${server.baseUrl}/admin/#/`);
    await page.getByTestId('page-dashboard').waitFor();
    await take(page, cdp, last);
    await page.goto(`${server.baseUrl}/admin/#/${path}`);
    await page.locator('#main-content [data-testid=entity-list]').waitFor();
    rows.push([`${path}: list`, await take(page, cdp, last)]);
    await page.locator('#main-content tbody .RaDatagrid-row a[data-testid=row-open]').first().press('Enter');
    await page.locator('#main-content [data-testid=entity-show], #main-content [data-testid=entity-form]').first().waitFor();
    rows.push([`${path}: first row's page`, await take(page, cdp, last)]);
  }
} finally {
  await browser.close();
  await server.stop();
  await drop();
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
console.log(`${'screen'.padEnd(56)} ${pad('commits', 8)} ${pad('renders', 8)} ${pad('mounts', 8)} ${pad('script ms', 10)}`);
for (const [name, c] of rows)
  console.log(`${name.padEnd(56)} ${pad(c.commits, 8)} ${pad(c.renders, 8)} ${pad(c.mounts, 8)} ${pad(c.scriptMs, 10)}`);
const sum = rows.slice(1).reduce((a, [, c]) => a + c.renders, 0);
console.log(`the ${rows.length - 1} screens after the dashboard: ${sum} component renders`);
