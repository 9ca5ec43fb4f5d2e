import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { seed } from '../seeds/index.ts';
import type { MenuItemMeta } from '../api/meta/types.ts';
import { todayTashkent } from '../api/meta/today.ts';

/**
 * Every screen and every report of the back-office, walked as the administrator on the demo data
 * (`npm start`'s `--seed --demo`): a list the menu opens must have rows, and a report must have rows
 * with figures, on its default parameters — a screen that opens empty on the demo is a screen no
 * one can judge. The few that are empty by nature are named below with the reason. The counts are
 * printed (lists and reports with rows / all).
 */
let api: TestApi;

/** Screens whose emptiness on a fresh demo is their nature, not a gap of the demo data. */
const EMPTY_BY_NATURE: Record<string, string> = {
  'app-errors': 'an error log: a fresh install has had no errors',
};

beforeAll(async () => {
  api = await startTestApi();
  await seed(api.db.knex, api.model, { demo: true });
}, 600_000);
afterAll(async () => {
  await api?.close();
});

/** The menu's items (hidden detail routes too), each once by route. */
function menuItems(): (MenuItemMeta & { section: string })[] {
  return api.model.menu.flatMap((s) => s.children.map((c) => ({ ...c, section: s.route })));
}

/** A detail route's `:id` / `:params`: the first row that has children to show. */
async function detailQuery(item: MenuItemMeta): Promise<string> {
  const k = api.db.knex;
  const q = new URLSearchParams({ perPage: '5' });
  for (const [name, v] of Object.entries(item.filter ?? {})) {
    if (typeof v === 'string' && v.startsWith(':')) {
      // the first value the detail's filter column holds (a main organisation's branches: a parent that has some), else the first row's id
      const table = api.model.entities.get(item.entity!)!.table;
      const held = (await k(table).whereNotNull(name).orderBy('id').first(name))?.[name] ?? (await k(table).orderBy('id').first('id'))?.id;
      q.set(name, String(held ?? 1));
    } else q.set(name, String(v));
  }
  return q.toString();
}

describe('the demo fills every screen', () => {
  it('gives every list and every report rows, as the administrator', async () => {
    const empty: string[] = [];
    const failed: string[] = [];
    let lists = 0;
    let listsFull = 0;
    let reports = 0;
    let reportsFull = 0;
    const seen = new Set<string>();
    for (const item of menuItems()) {
      const key = `${item.section}/${item.route}`;
      if (item.entity) {
        const e = api.model.entities.get(item.entity)!;
        const id = `${item.entity}${JSON.stringify(item.filter ?? {})}`;
        if (seen.has(id)) continue;
        seen.add(id);
        lists++;
        const r = await api.get(`/api${e.path}?${await detailQuery(item)}`);
        if (r.status !== 200) {
          failed.push(`${key}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          continue;
        }
        if (Array.isArray(r.body) && r.body.length > 0) listsFull++;
        else if (!EMPTY_BY_NATURE[item.entity]) empty.push(`list ${key} (${item.entity})`);
      } else if (item.report) {
        if (seen.has(`report:${item.report}`)) continue;
        seen.add(`report:${item.report}`);
        reports++;
        const r = await openReport(item.report);
        if (r.status !== 200) {
          failed.push(`${key}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          continue;
        }
        if (hasFigures(r.body)) reportsFull++;
        else empty.push(`report ${key} (${item.report}, year ${r.body.params?.year ?? '-'})`);
      }
    }
    // the reports no menu item names (drill-downs, the public site's)
    for (const name of api.model.reports.keys()) {
      if (seen.has(`report:${name}`)) continue;
      seen.add(`report:${name}`);
      reports++;
      const r = await openReport(name);
      if (r.status === 200 && hasFigures(r.body)) reportsFull++;
      else empty.push(`report ${name} (${r.status}, year ${r.body.params?.year ?? '-'})`);
    }
    console.log(`demo walk: lists with rows ${listsFull}/${lists}, reports with rows ${reportsFull}/${reports}`);
    if (empty.length) console.log(`empty on the demo:\n  ${empty.join('\n  ')}`);
    expect(failed).toEqual([]);
    expect(empty).toEqual([]);
  }, 600_000);
});

describe('reports open on the latest period that has data', () => {
  it('the four fund reports the demo fills last year open on the year with figures; this year asked for says it is empty and names that one', async () => {
    const year = Number(todayTashkent().slice(0, 4));
    for (const name of ['formation-report-one', 'payments-report', 'second-payment-report', 'compensation-report']) {
      const r = await api.get(`/api/reports/${name}`);
      expect(r.status, name).toBe(200);
      expect(hasFigures(r.body), name).toBe(true);
      const shown = r.body.params.year as number;
      expect(shown, name).toBeLessThanOrEqual(year);
      const asked = await api.get(`/api/reports/${name}?year=${year}`);
      if (shown === year) {
        expect(r.body.period, name).toEqual({ year, latest: year, empty: false, moved: false });
      } else {
        expect(r.body.period, name).toEqual({ year: shown, latest: shown, empty: false, moved: true });
        expect(asked.body.params.year, name).toBe(year);
        expect(asked.body.period, name).toEqual({ year, latest: shown, empty: true, moved: false });
      }
    }
  }, 120_000);
});

/**
 * A report on its defaults; a detail report's required reference (the organisation of a plan's
 * drill-down) is the first of its book's rows that gives it figures, as a click on the parent's row would.
 */
async function openReport(name: string) {
  const r = api.model.reports.get(name)!;
  const ref = Object.entries(r.params).find(([, p]) => p.required && p.type === 'ref' && p.default === undefined);
  if (!ref) return api.get(`/api/reports/${name}`);
  const ids = await api.db.knex(api.model.entities.get(ref[1].ref!)!.table).orderBy('id').limit(40).pluck('id');
  let last = await api.get(`/api/reports/${name}?${ref[0]}=${ids[0] ?? 0}`);
  for (const id of ids.slice(1)) {
    if (last.status !== 200 || hasFigures(last.body)) break;
    last = await api.get(`/api/reports/${name}?${ref[0]}=${id}`);
  }
  return last;
}

/** A report has figures: rows, and when it has totals, one of them not zero. */
function hasFigures(body: { rows?: unknown[]; totals?: Record<string, unknown> }): boolean {
  if (!body.rows?.length) return false;
  const totals = Object.values(body.totals ?? {});
  return totals.length === 0 || totals.some((v) => Number(v) !== 0);
}
