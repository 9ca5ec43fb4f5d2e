import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { AxeLog } from './axe';
import { api, missingKeys, rawKeys, ROOT } from './support';

/**
 * The sweep of the back-office (e2e/sweep-{uz,uk,ru}.e2e.test.ts): every menu item that is a list, its create
 * screen from the create button, and its first row's page and form from the row's buttons, in one
 * language. What it finds comes back as lines ("<lang> <route> <screen>: <problem>"), all of them,
 * so that one run says everything that is wrong.
 */

export type Lang = 'uz' | 'uk' | 'ru';

interface Field {
  name: string;
  type: string;
  ref?: string;
}
interface Entity {
  name: string;
  titleField: string;
  kind: string;
  fields: Field[];
  list: { columns: string[]; filters: { name: string }[] };
  can: { create: boolean; update: boolean };
}
interface Route {
  route: string;
  entity?: string;
  allowed: boolean;
  nomenu: boolean;
}
interface Meta {
  entities: Entity[];
  routes: Route[];
  captions: Record<string, string>;
  menu: { route: string; children: { route: string; caption: string; entity?: string }[] }[];
}

/** Leaves of a nested catalogue. */
function values(o: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof o === 'string') out.add(o.trim());
  else if (o && typeof o === 'object') for (const v of Object.values(o)) values(v, out);
  return out;
}

/** What react-admin prints for a field without a caption: `area_id` → "Area", `subject_type_id` → "Subject type". */
export function humanize(name: string): string {
  const s = name
    .replace(/_ids?$/, '')
    .replace(/_/g, ' ')
    .trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Texts that are a field's name rather than its caption: the names of every field and filter, as
 * written and as react-admin humanizes them, except where a language's catalogue says the same.
 */
export function englishCaptions(meta: Meta, lang: Lang): Set<string> {
  const own = values(JSON.parse(readFileSync(join(ROOT, 'admin', 'src', 'i18n', `${lang}.json`), 'utf8')));
  for (const v of Object.values(meta.captions)) own.add(String(v).trim());
  const names = new Set<string>(['id', 'version', 'created_at', 'updated_at', 'created_by', 'updated_by']);
  for (const e of meta.entities) {
    for (const f of e.fields) names.add(f.name);
    for (const f of e.list.filters) names.add(f.name);
  }
  const out = new Set<string>();
  for (const n of names) for (const t of [n, humanize(n), humanize(n).toLowerCase()]) if (t.length > 1 && !own.has(t)) out.add(t);
  return out;
}

/** A caption as shown, without the required-field star and spacing. */
const clean = (s: string) =>
  s
    .replace(/[\s\u2009\u00a0]*\*\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Waits until nothing loads: react-admin's spinner gone, no skeleton rows, and no part of the screen
 * still coming (a lazily loaded map or editor stands in as `aria-busy`: admin/src/generic/LoadingText.tsx).
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.querySelector('.app-loader, .MuiSkeleton-root, [role=progressbar].MuiLinearProgress-root, #main-content [aria-busy=true]'),
    null,
    { timeout: 15_000 },
  );
}

/** The page title once a row's name has come (a title that is a reference loads after the row). */
async function title(page: Page): Promise<string> {
  await page
    .waitForFunction(
      () => {
        const t = document.querySelector('#react-admin-title')?.textContent?.trim() ?? '';
        return t.length > 0 && !/#\d+$/.test(t);
      },
      null,
      { timeout: 4000 },
    )
    .catch(() => undefined);
  return (
    await page
      .locator('#react-admin-title')
      .innerText()
      .catch(() => '')
  ).trim();
}

/** Captions on the screen: list headers, input and field labels, the "add filter" menu when `filterMenu`. */
async function captions(page: Page, filterMenu: boolean): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const sel = '.RaDatagrid-headerCell, #main-content label, .RaLabeled-label, legend, .MuiTab-root';
    return Array.from(document.querySelectorAll(sel)).map((el) => (el as HTMLElement).innerText ?? '');
  });
  if (filterMenu) {
    const add = page.locator('#main-content .add-filter').first();
    if (await add.count()) {
      await add.click();
      const items = page.locator('.new-filter-item');
      await items
        .first()
        .waitFor({ timeout: 5000 })
        .catch(() => undefined);
      texts.push(...(await items.allInnerTexts()));
      await page.keyboard.press('Escape');
    }
  }
  return texts.map(clean).filter(Boolean);
}

/** Header cells and row buttons whose right edge lies beyond the window or their table's visible box. */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    const els = [
      ...Array.from(document.querySelectorAll('#main-content .RaDatagrid-headerCell')),
      ...Array.from(
        document.querySelectorAll(
          '#main-content tbody .RaDatagrid-row:first-child td:last-child button, #main-content tbody .RaDatagrid-row:first-child td:last-child a',
        ),
      ),
    ];
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (!r.width) continue;
      const box = el.closest('.RaDatagrid-tableWrapper')?.getBoundingClientRect();
      const right = Math.min(vw, box ? box.right : vw);
      if (r.right > right + 1)
        out.push(
          `${(el as HTMLElement).innerText.trim() || el.getAttribute('aria-label') || el.tagName} (${Math.round(r.right)} > ${Math.round(right)})`,
        );
    }
    // a table wider than its card scrolls: what lies under the pinned row buttons or beyond is out of sight
    for (const w of Array.from(document.querySelectorAll('#main-content .RaDatagrid-tableWrapper'))) {
      if (w.scrollWidth > w.clientWidth + 1) out.push(`the table scrolls sideways (${w.scrollWidth} > ${w.clientWidth})`);
    }
    return out;
  });
}

export interface SweepOptions {
  baseUrl: string;
  lang: Lang;
  /**
   * also open the create screen and each first row's form from its page's edit button: the routes
   * are the same in every language, and the forms' captions are the fields' ones the row's page shows
   */
  walkForms?: boolean;
  only?: (route: string) => boolean;
  /**
   * axe-core over the screens (e2e/axe.ts): the dashboard and the first list checked as a whole
   * document (the app's frame: bar, menu, a section open), then the main content of each screen
   * opened of the lists whose index in the sweep `sample` takes; a serious or critical violation is
   * a problem
   */
  axe?: { log: AxeLog; sample: (index: number) => boolean };
}

/** Sweeps every list of the menu in one language; the page is signed in as the administrator. */
export async function sweepLanguage(page: Page, { baseUrl, lang, walkForms = true, only, axe }: SweepOptions): Promise<string[]> {
  const problems: string[] = [];
  const errors: string[] = [];
  const onError = (e: Error) => errors.push(`pageerror: ${e.message}`);
  const onConsole = (m: { type(): string; text(): string }) => {
    if (m.type() !== 'error') return;
    const t = m.text();
    if (/Failed to load resource|wss:\/\/127\.0\.0\.1:64443/.test(t)) return;
    errors.push(`console: ${t}`);
  };
  page.on('pageerror', onError);
  page.on('console', onConsole);

  // the language: the one this browser remembers, then a fresh start of the app
  await page.evaluate((l) => localStorage.setItem('ecofond.lang', l), lang);
  await page.goto(`${baseUrl}/admin/#/`);
  await page.reload();
  await page.getByTestId('page-dashboard').waitFor();
  if (axe) {
    await settled(page);
    problems.push(...(await axe.log.check(page, `${lang} dashboard`)));
  }

  const meta = await api<Meta>(page, '/api/meta', lang);
  const english = englishCaptions(meta, lang);
  const byName = new Map(meta.entities.map((e) => [e.name, e]));
  const lists = meta.routes.filter((r) => r.entity && r.allowed && !r.route.includes(':') && byName.has(r.entity));
  let seenKeys = rawKeys(await missingKeys(page)).length;
  // a menu item's list is titled with the item's caption (admin.e2e clicks the menu's other screens)
  const menuCaption = new Map<string, string>();
  for (const s of meta.menu)
    for (const c of s.children)
      menuCaption.set(`${s.route.slice(1)}/${c.route.replace(/\/+$/, '')}`, meta.captions[c.caption] ?? c.caption);
  const listed = new Set(lists.map((r) => r.route.replace(/^\/+|\/+$/g, '')));
  for (const s of meta.menu)
    for (const c of s.children) {
      const path = `${s.route.slice(1)}/${c.route.replace(/\/+$/, '')}`;
      if (c.entity && !listed.has(path) && (!only || only(`/${path}`)))
        problems.push(`${lang} ${path}: a menu item of a list the sweep does not open`);
    }

  let axeThis = false;
  let axeFrame = false; // the first list is checked whole: the frame with a menu section open
  const check = async (where: string, e: Entity, opts: { filterMenu?: boolean; record?: boolean; list?: boolean }) => {
    await settled(page);
    // before the filter menu opens: the screen as it is first shown
    if (axe && axeThis) {
      problems.push(...(await axe.log.check(page, where, axeFrame ? { include: ['#main-content'] } : {})));
      axeFrame = true;
    }
    for (const t of await captions(page, !!opts.filterMenu)) {
      if (english.has(t)) problems.push(`${where}: caption "${t}" is a field's name`);
    }
    const keys = rawKeys(await missingKeys(page));
    for (const k of keys.slice(seenKeys)) problems.push(`${where}: key "${k.key}" shown raw`);
    seenKeys = keys.length;
    if (opts.record) {
      // a title of a date or a number may well end in digits: only named rows' titles are waited for
      const f = e.fields.find((x) => x.name === e.titleField);
      const named = !!f && ['ref', 'text3', 'string', 'text'].includes(f.type);
      const t = named ? await title(page) : '';
      if (named && /[—:]\s*#?\d+$/.test(t)) problems.push(`${where}: title "${t}" ends in an id`);
    }
    if (opts.list) for (const c of await clipped(page)) problems.push(`${where}: clipped ${c}`);
    for (const err of errors.splice(0)) problems.push(`${where}: ${err}`);
  };

  // where the time goes: milliseconds a route and step, written to artifacts/e2e/sweep-<lang>.json
  const times: Record<string, Record<string, number>> = {};
  for (const [index, r] of lists.entries()) {
    if (only && !only(r.route)) continue;
    axeThis = !!axe?.sample(index);
    const e = byName.get(r.entity!)!;
    const path = r.route.replace(/^\/+|\/+$/g, '');
    const where = (screen: string) => `${lang} ${path} ${screen}`;
    const spent: Record<string, number> = (times[path] = {});
    let t0 = Date.now();
    const lap = (step: string) => {
      const now = Date.now();
      spent[step] = (spent[step] ?? 0) + now - t0;
      t0 = now;
    };
    try {
      await page.goto(`${baseUrl}/admin/#/${path}`);
      await page.locator('#main-content [data-testid=entity-list], #main-content [data-testid=list-empty]').first().waitFor();
      lap('list');
      const caption = menuCaption.get(path);
      if (caption !== undefined) {
        await page
          .waitForFunction((c) => document.querySelector('#react-admin-title')?.textContent?.trim() === c, caption, { timeout: 3000 })
          .catch(() => undefined);
        const shown = (
          await page
            .locator('#react-admin-title')
            .innerText()
            .catch(() => '')
        ).trim();
        if (shown !== caption) problems.push(`${where('list')}: titled "${shown}", its menu item "${caption}"`);
      }
      await check(where('list'), e, { filterMenu: true, list: true });
      lap('list check');
      const rows = page.locator('#main-content tbody .RaDatagrid-row');
      const hasRow = (await rows.count()) > 0;
      const opener = rows.first().locator('a[data-testid=row-open][href]');
      // where the first row's opener leads: after the create screen its page is opened at that address,
      // not from the list rendered again (the opener itself is pressed in the other languages' sweeps)
      const target = hasRow && (await opener.count()) ? await opener.getAttribute('href') : null;
      let fromCreate = false;

      if (walkForms && e.can.create) {
        // the toolbar's button, or the empty list's own
        await page
          .locator('#main-content [data-testid=create-button], #main-content [data-testid=list-empty] .RaCreateButton-root')
          .first()
          .click({ timeout: 5000 });
        const form = page.locator('#main-content [data-testid=entity-form]');
        await form
          .waitFor({ timeout: 10_000 })
          .catch(() => problems.push(`${where('create')}: the create button opens no form (${page.url()})`));
        lap('create');
        if (await form.count()) await check(where('create'), e, {});
        lap('create check');
        if (target) {
          await page.goto(new URL(target, page.url()).href);
          fromCreate = true;
        } else if (hasRow) {
          await page.goto(`${baseUrl}/admin/#/${path}`);
          await page.locator('#main-content [data-testid=entity-list]').first().waitFor();
          await settled(page);
        }
        lap('list again');
      }

      if (hasRow) {
        // the first row's page (a reference book opens its form), by the keyboard: its opener is a link, Enter follows it
        if (fromCreate) {
          /* opened at the opener's address above */
        } else if (await opener.count()) await opener.press('Enter');
        else {
          problems.push(`${where('row')}: the row has no link that opens it by the keyboard`);
          await rows.first().locator('td').nth(1).click();
        }
        const screen = page.locator('#main-content [data-testid=entity-show], #main-content [data-testid=entity-form]').first();
        await screen
          .waitFor({ timeout: 10_000 })
          .catch(() => problems.push(`${where('row')}: a row opens neither its page nor its form (${page.url()})`));
        lap('show');
        if (await page.locator('#main-content [data-testid=entity-show]').count()) {
          await check(where('show'), e, { record: true });
          lap('show check');
          const edit = page.locator('#main-content [data-testid=edit-button]').first();
          if (walkForms && (await edit.count())) {
            await edit.click();
            await page
              .locator('#main-content [data-testid=entity-form]')
              .waitFor({ timeout: 10_000 })
              .catch(() => problems.push(`${where('edit')}: the edit button opens no form (${page.url()})`));
            lap('edit');
            if (await page.locator('#main-content [data-testid=entity-form]').count()) await check(where('edit'), e, { record: true });
            lap('edit check');
          }
        } else if (await page.locator('#main-content [data-testid=entity-form]').count()) {
          await check(where('edit'), e, { record: true });
        }
      }
    } catch (err) {
      if (process.env.SWEEP_SHOTS)
        await page.screenshot({ path: `${process.env.SWEEP_SHOTS}/${lang}-${path.replace(/\//g, '_')}.png` }).catch(() => undefined);
      problems.push(`${where('?')}: ${(err as Error).message.split('\n').slice(0, 12).join(' | ')} (${page.url()})`);
    }
    lap('rest');
  }
  const out = join(ROOT, 'artifacts', 'e2e');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `sweep-${lang}.json`), `${JSON.stringify(times, null, 1)}\n`);
  page.off('pageerror', onError);
  page.off('console', onConsole);
  return problems;
}
