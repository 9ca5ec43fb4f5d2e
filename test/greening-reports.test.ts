import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { todayTashkent } from '../api/meta/today.ts';

/**
 * The reports over the planting registry and what entities show the public: figures equal the
 * registry's own sums, scoped users see their region only, Excel holds the same rows and totals,
 * and nothing that is not declared public leaves the database.
 */
let api: TestApi;
let tashkent: number;
let samarkand: number;
let platan: number;
let pine: number;
let ministry: number;
let forestry: number;
const P = '/api/ecofund-plantings';
const year = Number(todayTashkent().slice(0, 4));

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  tashkent = (await k('regions').where({ soato: '1726' }).first('id')).id;
  samarkand = (await k('regions').where({ soato: '1718' }).first('id')).id;
  platan = (await k('tree_species').where({ code: 'PLA_OR' }).first('id')).id;
  pine = (await k('tree_species').where({ code: 'PIN_EL' }).first('id')).id;
  ministry = (await created(`${P}/planting-orgs`, { name: { uz: 'Sinov vazirligi', ru: 'Министерство испытаний' }, kind: 'ministry' })).id;
  forestry = (await created(`${P}/planting-orgs`, { name: { uz: 'Sinov oʻrmon xoʻjaligi' }, kind: 'forestry', region_id: samarkand })).id;
  await created(`${P}/planting-plans`, { year, region_id: tashkent, org_id: ministry, trees: 1000 });
  await created(`${P}/planting-plans`, { year, region_id: samarkand, org_id: ministry, trees: 500 });
  await created(`${P}/planting-plans`, { year, region_id: samarkand, org_id: forestry, trees: 300 });
  await plant({ region_id: tashkent, org_id: ministry, count: 400, irrigation: true, circumference_cm: 20 });
  await plant({ region_id: tashkent, org_id: ministry, count: 100, species_id: pine });
  await plant({ region_id: samarkand, org_id: forestry, count: 150, irrigation: true, planted_on: `${year}-01-10` });
  await plant({ region_id: samarkand, count: 33 });
  await plant({ region_id: samarkand, org_id: ministry, count: 70, planted_on: `${year - 1}-05-05` });
});
afterAll(async () => {
  await api?.close();
});

async function created(path: string, body: Record<string, unknown>) {
  const r = await api.post(path, body);
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
const plant = (over: Record<string, unknown>) =>
  created(`${P}/plantings`, {
    species_id: platan,
    count: 1,
    planted_on: `${year}-03-15`,
    location: { lat: 41.3, lng: 69.25 },
    place_type: 'street',
    ...over,
  });
const registrySum = async (where: (q: any) => void) => {
  const q = api.db.knex('plantings').whereRaw('extract(year from planted_on) = ?', [year]);
  where(q);
  return Number((await q.sum('count as n').first())!.n ?? 0);
};

describe('plan execution', () => {
  it('by region: plan and planted equal the plans and the registry, the total percent is the ratio of the sums', async () => {
    const r = (await api.get(`/api/reports/todo-plantings?year=${year}`)).body;
    expect(r.title).toBeTruthy();
    expect(r.columns.map((c: { name: string }) => c.name)).toEqual(['region', 'plan', 'planted', 'percent']);
    expect(r.rows).toHaveLength(14);
    expect(r.totals.planted).toBe(await registrySum(() => {}));
    expect(r.totals.plan).toBe(1800);
    expect(r.totals.percent).toBe((Math.round((r.totals.planted / 1800) * 10000) / 100).toFixed(2));
    const t = r.rows.find((x: { region_id: number }) => x.region_id === tashkent);
    expect(t).toMatchObject({ plan: 1000, planted: 500, percent: '50.00' });
  });

  it('by organisation, drilling to its regions and users', async () => {
    const r = (await api.get(`/api/reports/plan-execution-by-org?year=${year}`, { lang: 'ru' })).body;
    const m = r.rows.find((x: { org_id: number }) => x.org_id === ministry);
    expect(m).toMatchObject({ org: 'Министерство испытаний', plan: 1500, planted: 500, percent: '33.33' });
    expect(r.drill).toMatchObject({
      route: '/ecofund-plantings/plan-execution-by-org/:params',
      params: { org_id: 'org_id', year: '$year' },
    });
    const regions = (await api.get(`/api/reports/plan-execution-by-org-region?org_id=${ministry}&year=${year}`)).body;
    expect(regions.rows.map((x: { region_id: number; planted: number }) => [x.region_id, x.planted])).toEqual(
      expect.arrayContaining([
        [tashkent, 500],
        [samarkand, 0],
      ]),
    );
    const users = (await api.get(`/api/reports/plan-execution-by-org-user?org_id=${ministry}&region_id=${tashkent}&year=${year}`)).body;
    expect(users.totals).toMatchObject({ plantings: 2, trees: 500 });
    // the plantings behind the figure: the organisation's, in the region, in the year
    expect(users.rows[0]).toMatchObject({
      org_id: ministry,
      region_id: tashkent,
      from_planted_on: `${year}-01-01`,
      to_planted_on: `${year}-12-31`,
    });
    const missing = await api.get('/api/reports/plan-execution-by-org-region', { lang: 'ru' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.org_id).toBe('Обязательное поле');
    expect((await api.get('/api/reports/plan-execution-by-org?year=abc')).status).toBe(400);
  });

  it("gives a region's user their region only, and nothing without the report's action", async () => {
    const token = await api.userWithActions('rating-region', [5101], { region_id: samarkand });
    const r = (await api.get(`/api/reports/plan-execution-by-org?year=${year}&region_id=${tashkent}`, { token })).body;
    expect(r.params.region_id).toBe(samarkand);
    expect(r.rows.find((x: { org_id: number }) => x.org_id === ministry)).toMatchObject({ plan: 500, planted: 0 });
    expect((await api.get('/api/reports/regions-green-rating', { token })).status).toBe(403);
    expect((await api.get('/api/reports/no-such-report', { token })).status).toBe(404);
    const meta = (await api.get('/api/meta', { token })).body;
    expect(meta.reports.map((x: { name: string }) => x.name)).toEqual(
      expect.arrayContaining(['plan-execution-by-org', 'plan-execution-by-org-region']),
    );
    expect(meta.reports.map((x: { name: string }) => x.name)).not.toContain('regions-green-rating');
    expect(meta.reports[0].query).toBeUndefined();
    // the region the server forces is not offered as a choice
    expect(meta.reports.find((x: { name: string }) => x.name === 'plan-execution-by-org').params.region_id.fixed).toBe(samarkand);
    expect(
      (await api.get('/api/meta')).body.reports.find((x: { name: string }) => x.name === 'plan-execution-by-org').params.region_id.fixed,
    ).toBeUndefined();
  });
});

describe('infographics and rating', () => {
  it('counts trees by month this year and last', async () => {
    const r = (await api.get(`/api/reports/plantings-infographic?year=${year}`, { lang: 'ru' })).body;
    expect(r.rows).toHaveLength(12);
    expect(r.rows[0]).toMatchObject({ month: 'Январь', trees: 150 });
    expect(r.rows[2]).toMatchObject({ month: 'Март', trees: 533 });
    expect(r.rows[4]).toMatchObject({ trees_prev: 70 });
    expect(r.totals.trees).toBe(await registrySum(() => {}));
  });

  it('ranks the regions', async () => {
    const r = (await api.get(`/api/reports/regions-green-rating?year=${year}`)).body;
    expect(r.rows[0]).toMatchObject({ rank: 1 });
    expect(r.rows.map((x: { rank: number }) => x.rank)).toEqual([...r.rows.map((x: { rank: number }) => x.rank)].sort((a, b) => a - b));
  });

  it('exports the same rows and totals to Excel', async () => {
    const r = await api.get(`/api/reports/todo-plantings/export?year=${year}`, { lang: 'ru' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(r.raw);
    const sheet = book.worksheets[0];
    const values = sheet
      .getSheetValues()
      .filter(Boolean)
      .map((row) => (row as unknown[]).slice(1));
    const json = (await api.get(`/api/reports/todo-plantings?year=${year}`, { lang: 'ru' })).body;
    expect(values[0][0]).toBe(json.title);
    const header = values.findIndex((row) => row[0] === json.columns[0].caption);
    expect(values[header]).toEqual(json.columns.map((c: { caption: string }) => c.caption));
    expect(values.slice(header + 1, -1).map((row) => row[2])).toEqual(json.rows.map((row: { planted: number }) => row.planted));
    const last = values[values.length - 1];
    expect(last).toEqual(['Итого', 1800, json.totals.planted, Number(json.totals.percent)]);
  });
});

describe('public reports and the irrigation layer', () => {
  it('serves public reports without sign-in and hides staff-only ones', async () => {
    const pub = await api.get(`/api/public/reports/irrigation?year=${year}`, { token: '' });
    expect(pub.status).toBe(200);
    const irrigated = await registrySum((q) => q.where({ irrigation: true }));
    expect(pub.body.totals.irrigated).toBe(irrigated);
    expect(pub.body.totals.trees).toBe(await registrySum(() => {}));
    expect((await api.get('/api/public/reports/regions-green-rating', { token: '' })).status).toBe(404);
    expect((await api.get('/api/reports/irrigation', { token: '' })).status).toBe(401);
    const layer = (await api.get('/api/public/map/plantings?bbox=55.9,37.1,73.2,45.6&zoom=5&irrigation=1', { token: '' })).body;
    expect(layer.items.map((i: number[]) => i[2]).reduce((a: number, b: number) => a + b, 0)).toBe(
      Number((await api.db.knex('plantings').where({ irrigation: true }).sum('count as n').first())!.n),
    );
    const cells = (await api.get('/api/public/map/plantings?bbox=55.9,37.1,73.2,45.6&zoom=8&irrigation=1', { token: '' })).body;
    expect(cells.items.map((i: number[]) => i[2]).reduce((a: number, b: number) => a + b, 0)).toBe(
      layer.items.map((i: number[]) => i[2]).reduce((a: number, b: number) => a + b, 0),
    );
  });

  it('species shares add up and a region narrows them', async () => {
    const all = (await api.get(`/api/public/reports/species-trees?year=${year}`, { token: '' })).body;
    expect(all.totals.trees).toBe(await registrySum(() => {}));
    const one = (await api.get(`/api/public/reports/species-trees?year=${year}&region_id=${tashkent}`, { token: '' })).body;
    expect(one.rows.map((x: { species_id: number; trees: number }) => [x.species_id, x.trees])).toEqual([
      [platan, 400],
      [pine, 100],
    ]);
    expect(one.rows.map((x: { share: string }) => x.share)).toEqual(['80.00', '20.00']);
  });
});

describe('what entities show the public', () => {
  it('lists published rows only, with public fields only', async () => {
    const type = (await created('/api/notification/publication-types', { name: { uz: 'Yangilik' } })).id;
    const seen = await created('/api/notification/publications', {
      title: { uz: 'Koʻchat ekildi', ru: 'Посадили саженцы' },
      type_id: type,
      published_at: new Date().toISOString(),
    });
    // published by the workflow (the flag is not the form's)
    expect((await api.post(`/api/notification/publications/${seen.id}/actions/publish`, {})).status).toBe(200);
    const hidden = await created('/api/notification/publications', {
      title: { uz: 'Qoralama' },
      type_id: type,
      published_at: new Date().toISOString(),
    });
    const list = (await api.get('/api/public/entities/publications', { token: '', lang: 'ru' })).body;
    expect(list.rows.map((x: { id: number }) => x.id)).toContain(seen.id);
    expect(list.rows.map((x: { id: number }) => x.id)).not.toContain(hidden.id);
    const one = list.rows.find((x: { id: number }) => x.id === seen.id);
    expect(one).toMatchObject({ title: 'Посадили саженцы', type_id: type, type_id_name: 'Yangilik' });
    expect(one.is_published).toBeUndefined();
    expect(one.created_by).toBeUndefined();
    expect((await api.get(`/api/public/entities/publications/${hidden.id}`, { token: '' })).status).toBe(404);
    expect((await api.get('/api/public/entities/publications?is_published=false', { token: '' })).status).toBe(400);
    expect((await api.get('/api/public/entities/users', { token: '' })).status).toBe(404);
  });

  it('sums the declared totals over every row found, not the page', async () => {
    for (const [trees, damage, region] of [
      [3, '1500000.50', tashkent],
      [7, '250.25', tashkent],
      [11, '99.25', samarkand],
    ] as const) {
      await created(`${P}/tree-cutting-violations`, {
        found_on: `${year}-02-01`,
        region_id: region,
        violator_kind: 'person',
        violator_name: 'Sinov Shaxs',
        trees,
        damage,
      });
    }
    const page = (await api.get(`/api/public/entities/tree-cutting-violations?perPage=1&region_id=${tashkent}`, { token: '' })).body;
    expect(page.rows).toHaveLength(1);
    expect(page).toMatchObject({ total: 2, totals: { trees: 10, damage: '1500250.75' } });
    expect(JSON.stringify(page.rows[0])).not.toContain('Sinov Shaxs');
  });

  it('never shows a garden owner, and draws map layers with outlines', async () => {
    const garden = await created(`${P}/my-gardens`, {
      owner_name: 'Aliyev Vali',
      phone: '901234567',
      region_id: tashkent,
      location: { lat: 41.31, lng: 69.27 },
      trees: 12,
    });
    const row = (await api.get(`/api/public/entities/my-gardens/${garden.id}`, { token: '' })).body;
    expect(row).toMatchObject({ id: garden.id, trees: 12 });
    expect(JSON.stringify(row)).not.toContain('Aliyev');
    const ring = [
      [69.2, 41.3],
      [69.21, 41.3],
      [69.21, 41.31],
      [69.2, 41.31],
    ];
    const park = await created(`${P}/green-parks`, {
      name: { uz: 'Sinov bogʻi' },
      region_id: tashkent,
      location: { lat: 41.305, lng: 69.205 },
      shape: ring,
      area_ha: '12.5',
    });
    const layer = (await api.get('/api/public/map/layers/green-parks?bbox=69.1,41.2,69.3,41.4', { token: '' })).body;
    expect(layer.items).toEqual([{ id: park.id, lng: 69.205, lat: 41.305, title: 'Sinov bogʻi', kind: 'park', shape: ring }]);
    expect((await api.get('/api/public/map/layers/green-parks?bbox=60,30,61,31', { token: '' })).body.items).toEqual([]);
    expect((await api.get('/api/public/map/layers/green-parks?bbox=1,2', { token: '' })).status).toBe(400);
    const area = await created(`${P}/resident-planting-areas`, {
      name: { uz: 'Mahalla maydoni', ru: 'Площадка махалли' },
      region_id: tashkent,
      shape: ring,
      location: { lat: 41.305, lng: 69.205 },
      recommended_species: [pine, platan],
    });
    const shown = (await api.get(`/api/public/entities/resident-planting-areas/${area.id}`, { token: '', lang: 'ru' })).body;
    expect(shown).toMatchObject({ name: 'Площадка махалли', shape: ring, region_id_name: expect.any(String) });
    expect([...shown.recommended_species_names].sort()).toEqual(['Платан восточный', 'Сосна эльдарская']);
  });
});
