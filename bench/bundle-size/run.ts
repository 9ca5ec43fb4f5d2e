import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesOf, readManifest, sizesOf, type Manifest } from './measure.ts';

/**
 * bench/bundle-size: the compressed JavaScript each page loads, against its budget. Builds nothing:
 * run it after `npm run build:admin && npm run build:public && npm run build:field` (CI: after the browser tests' build,
 * .ci/run). Prints raw / gzip / Brotli per page; exits 1 when a page's Brotli bytes (what every
 * current browser is sent) pass its budget, 2 when a site is not built.
 *
 *   npm run bench:bundle-size
 *
 * A page is index.html's eager load (the entry and what it imports statically: the modulepreload
 * links) plus the lazy chunks the page opens with, named by their source in Vite's manifest. The
 * budgets of issue 29 are the first two; the others hold today's figures with a margin, so a
 * growth is seen when it happens (raise one in the same change that says why).
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KB = 1000; // kB as Vite prints them

interface Page {
  site: 'admin' | 'public-site' | 'field';
  name: string;
  /** the lazy chunks the page loads besides index.html's (manifest keys) */
  lazy: string[];
  /** Brotli kB */
  budget: number;
}

export const PAGES: Page[] = [
  { site: 'admin', name: 'back-office: first screen (login form)', lazy: [], budget: 350 },
  { site: 'public-site', name: 'public: landing (index.html eager)', lazy: [], budget: 150 },
  // issue 30: the field app's JavaScript before its first form (the forms are in the entry)
  { site: 'field', name: 'field app: sign-in and first form', lazy: [], budget: 200 },
  {
    site: 'public-site',
    name: 'public: landing as shown (+ chart, chat)',
    lazy: ['src/charts/BarChart.tsx', 'src/chat/ChatWidget.tsx'],
    budget: 200,
  },
  {
    site: 'public-site',
    name: 'public: map page',
    lazy: ['src/pages/MapPage.tsx', 'src/map/MapView.tsx', 'src/chat/ChatWidget.tsx'],
    budget: 240,
  },
  {
    site: 'public-site',
    name: 'public: tree passport',
    lazy: ['src/pages/TreePassport.tsx', 'src/map/PointMap.tsx', 'src/chat/ChatWidget.tsx'],
    budget: 240,
  },
  {
    site: 'admin',
    name: 'back-office: signed in, a list',
    lazy: ['src/layout/AppLayout.tsx', 'src/pages/Dashboard.tsx', 'EntityList'],
    budget: 450,
  },
  {
    site: 'admin',
    name: 'back-office: a form (+ rjsf, map input)',
    lazy: [
      'src/layout/AppLayout.tsx',
      'src/generic/EntityEdit.tsx',
      'src/generic/FormValuesInput.tsx',
      'src/generic/PointInput.tsx',
      'src/generic/DatePickerInput.tsx',
    ],
    budget: 650,
  },
  {
    // decision 0085: the date picker (MUI X) comes with the first date filter a list shows
    site: 'admin',
    name: 'back-office: a list with a date filter',
    lazy: ['src/layout/AppLayout.tsx', 'src/pages/Dashboard.tsx', 'EntityList', 'src/generic/DatePickerInput.tsx'],
    budget: 530,
  },
  {
    // decision 0085: the planting form's date field and file button are the site's own, no UI library
    site: 'public-site',
    name: 'public: planting form (+ map)',
    lazy: ['src/pages/PlantingForm.tsx', 'src/map/LocationPicker.tsx', 'src/chat/ChatWidget.tsx'],
    budget: 240,
  },
  {
    site: 'admin',
    name: 'back-office: signing dialog',
    lazy: ['src/layout/AppLayout.tsx', 'src/generic/EntityShow.tsx', 'src/esign/SignDialog.tsx'],
    budget: 650,
  },
  {
    site: 'admin',
    name: 'back-office: template editor (TipTap)',
    lazy: ['src/layout/AppLayout.tsx', 'src/pages/RoutePages.tsx', 'src/documents/TemplateEditor.tsx'],
    budget: 650,
  },
];

const kb = (n: number) => (n / KB).toFixed(1).padStart(8);

async function main(): Promise<number> {
  const manifests = new Map<string, Manifest>();
  for (const site of ['admin', 'public-site', 'field']) {
    try {
      manifests.set(site, readManifest(join(ROOT, site, 'dist')));
    } catch (err) {
      console.error((err as Error).message);
      return 2;
    }
  }
  console.log(
    `${'page'.padEnd(46)} ${'files'.padStart(5)} ${'raw kB'.padStart(8)} ${'gzip kB'.padStart(8)} ${'br kB'.padStart(8)} ${'budget'.padStart(8)}`,
  );
  let over = 0;
  for (const p of PAGES) {
    const manifest = manifests.get(p.site)!;
    const { js } = filesOf(manifest, ['index.html', ...p.lazy]);
    const s = await sizesOf(join(ROOT, p.site, 'dist'), js);
    const bad = s.brotli > p.budget * KB;
    if (bad) over++;
    console.log(
      `${p.name.padEnd(46)} ${String(s.files).padStart(5)} ${kb(s.raw)} ${kb(s.gzip)} ${kb(s.brotli)} ${kb(p.budget * KB)}${bad ? '  OVER BUDGET' : ''}`,
    );
  }
  for (const site of ['admin', 'public-site', 'field']) {
    const { css } = filesOf(manifests.get(site)!, ['index.html']);
    const s = await sizesOf(join(ROOT, site, 'dist'), css);
    console.log(`${`${site}: first screen's CSS`.padEnd(46)} ${String(s.files).padStart(5)} ${kb(s.raw)} ${kb(s.gzip)} ${kb(s.brotli)}`);
  }
  if (over) console.error(`${over} page(s) over budget: split what grew (React.lazy, lazyNamed) or raise the budget with the reason`);
  return over ? 1 : 0;
}

process.exitCode = await main();
