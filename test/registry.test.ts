import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { todayTashkent } from '../api/meta/today.ts';

/**
 * The greening registry and its public face: plantings kept in the map's cells and the statistics
 * by every write, the map's viewport at each zoom, the public planting form with moderation.
 */
let api: TestApi;
let tashkent: number;
let samarkand: number;
let species: number;
const PLANTINGS = '/api/ecofund-plantings/plantings';
const year = Number(todayTashkent().slice(0, 4));

beforeAll(async () => {
  process.env.ECOFOND_PUBLIC_FORM_PER_HOUR = '4';
  api = await startTestApi();
  tashkent = (await api.db.knex('regions').where({ soato: '1726' }).first('id')).id;
  samarkand = (await api.db.knex('regions').where({ soato: '1718' }).first('id')).id;
  species = (await api.db.knex('tree_species').where({ code: 'PLA_OR' }).first('id')).id;
});
afterAll(async () => {
  await api?.close();
});

const plant = (region: number, lat: number, lng: number, count: number, planted_on = `${year}-03-15`) =>
  api.post(PLANTINGS, { species_id: species, count, planted_on, region_id: region, location: { lat, lng }, place_type: 'street' });

const cells = async () => api.db.knex('planting_cells').where({ level: 1 }).orderBy(['cx', 'cy']).select('cx', 'cy', 'trees');

describe('aggregates follow every write', () => {
  it('adds, moves and removes trees in the cells and the statistics', async () => {
    const a = (await plant(tashkent, 41.31, 69.24, 120)).body;
    await plant(tashkent, 41.33, 69.28, 30);
    const b = (await plant(samarkand, 39.65, 66.96, 50)).body;
    expect(await cells()).toEqual([
      { cx: 669, cy: 396, trees: 50 },
      { cx: 692, cy: 413, trees: 150 },
    ]);
    const moved = await api.put(`${PLANTINGS}/${b.id}`, {
      location: { lat: 41.31, lng: 69.24 },
      region_id: tashkent,
      count: 60,
      version: b.version,
    });
    expect(moved.status).toBe(200);
    expect(await cells()).toEqual([{ cx: 692, cy: 413, trees: 210 }]);
    await api.del(`${PLANTINGS}/${a.id}`);
    expect(await cells()).toEqual([{ cx: 692, cy: 413, trees: 90 }]);
    // the statistics match the registry exactly
    const summary = (await api.get(`/api/public/stats/summary?year=${year}`, { token: '' })).body;
    const registry = await api.db.knex('plantings').whereRaw('extract(year from planted_on) = ?', [year]).sum('count as n').first();
    expect(summary.trees).toBe(Number(registry!.n));
    expect(summary).toMatchObject({ goal: 200000000, year });
    expect(summary.by_region.find((r: { region_id: number }) => r.region_id === tashkent).trees).toBe(90);
    expect(summary.by_region).toHaveLength(14);
  });
});

describe('what the aggregates need, validation asks', () => {
  it('an empty irrigation (the facts count by it) is a 400 under the field in uz, uk and ru; left out, it is false and counted so', async () => {
    const row = (await plant(samarkand, 39.66, 66.97, 4)).body;
    expect(row.irrigation).toBe(false);
    for (const [lang, text] of [
      ['uz', 'Ushbu kiritma majburiy'],
      ['uk', 'Ушбу киритма мажбурий'],
      ['ru', 'Обязательное поле'],
    ]) {
      const r = await api.put(`${PLANTINGS}/${row.id}`, { irrigation: null, version: row.version }, { lang });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.errors).toEqual({ irrigation: text });
    }
    const created = await api.post(PLANTINGS, {
      species_id: species,
      count: 1,
      planted_on: `${year}-03-15`,
      region_id: samarkand,
      location: { lat: 39.66, lng: 66.97 },
      irrigation: null,
    });
    expect(created.body.errors).toEqual({ irrigation: 'Ushbu kiritma majburiy' });
    const watered = await api.put(`${PLANTINGS}/${row.id}`, { irrigation: true, version: row.version });
    expect(watered.status).toBe(200);
    const facts = await api.db
      .knex('planting_facts')
      .where({ region_id: samarkand, species_id: species, year })
      .groupBy('irrigation')
      .select('irrigation', api.db.knex.raw('sum(trees)::int as trees'));
    const registry = await api.db
      .knex('plantings')
      .where({ region_id: samarkand, species_id: species })
      .whereRaw('extract(year from planted_on) = ?', [year])
      .groupBy('irrigation')
      .select('irrigation', api.db.knex.raw('sum(count)::int as trees'));
    const byIrrigation = (rows: { irrigation: boolean; trees: number }[]) =>
      Object.fromEntries(rows.map((r) => [String(r.irrigation), r.trees]));
    expect(byIrrigation(facts)).toEqual(byIrrigation(registry));
    expect(byIrrigation(facts).true).toBe(4);
    expect((await api.del(`${PLANTINGS}/${row.id}`)).status).toBe(200);
    // and the table says what the metadata says
    expect(
      (await api.db.knex('information_schema.columns').where({ table_name: 'plantings', column_name: 'irrigation' }).first('is_nullable'))
        .is_nullable,
    ).toBe('NO');
  });
});

describe('the map', () => {
  it('answers each zoom from the right aggregate', async () => {
    await plant(samarkand, 39.6542, 66.9597, 7);
    const uz = '55.9,37.1,73.2,45.6';
    const regions = (await api.get(`/api/public/map/plantings?bbox=${uz}&zoom=5`, { token: '' })).body;
    expect(regions.layer).toBe('regions');
    expect(regions.items.map((i: number[]) => i[2]).sort((x: number, y: number) => x - y)).toEqual([7, 90]);
    const mid = (await api.get(`/api/public/map/plantings?bbox=${uz}&zoom=8`, { token: '' })).body;
    expect(mid).toMatchObject({ layer: 'cells', size: 0.1 });
    expect(mid.items.map((i: number[]) => i[2]).sort((x: number, y: number) => x - y)).toEqual([7, 90]);
    // asked column by column, or as one range for a box wider than any screen: the same cells
    const tashkentView = (await api.get('/api/public/map/plantings?bbox=68.9,41.1,69.6,41.5&zoom=11', { token: '' })).body;
    const wide = (await api.get('/api/public/map/plantings?bbox=-179,-80,179,80&zoom=11', { token: '' })).body;
    expect(tashkentView).toMatchObject({ layer: 'cells', size: 0.02 });
    const trees = (items: number[][]) => items.map((i) => i[2]).sort((x, y) => x - y);
    expect(trees(tashkentView.items)).toEqual([30, 60]);
    expect(trees(wide.items)).toEqual([7, 30, 60]);
    expect((await api.get('/api/public/map/plantings?bbox=69.4,41.1,69.6,41.5&zoom=11', { token: '' })).body.items).toEqual([]);
    const close = (await api.get('/api/public/map/plantings?bbox=69.2,41.3,69.3,41.35&zoom=16', { token: '' })).body;
    expect(close.layer).toBe('trees');
    expect(close.items.map((i: number[]) => i[2]).sort((x: number, y: number) => x - y)).toEqual([30, 60]);
    const passport = await api.get(`/api/public/plantings/${close.items[0][3]}`, { token: '' });
    expect(passport.body).toMatchObject({ latin_name: 'Platanus orientalis', region: { uz: 'Toshkent shahri' } });
    expect((await api.get('/api/public/map/plantings?bbox=1,2,3&zoom=5', { token: '' })).status).toBe(400);
    expect((await api.get('/api/public/map/plantings?bbox=70,40,60,30&zoom=5', { token: '' })).status).toBe(400);
  });
});

describe('the public planting form', () => {
  const form = (over: Record<string, unknown> = {}) => ({
    first_name: 'Dilnoza',
    last_name: 'Karimova',
    species_id: species,
    count: 3,
    planted_on: `${year}-04-01`,
    location: { lat: 40.78, lng: 72.34 },
    ...over,
  });

  it('refuses a future date and a missing location with clear messages, saves for moderation, and counts once approved', async () => {
    const bad = await api.post('/api/public/plantings', form({ planted_on: '2999-01-01', location: undefined }), { token: '', lang: 'ru' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ planted_on: 'Дата не может быть позже сегодняшней', location: 'Обязательное поле' });
    const ok = await api.post('/api/public/plantings', form(), { token: '' });
    expect(ok.status).toBe(201);
    expect(ok.body.status).toBe('pending');
    const before = (await api.get(`/api/public/stats/summary?year=${year}`, { token: '' })).body.trees;
    const approved = await api.post(`/api/ecofund-plantings/public-plantings/${ok.body.id}/actions/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const after = (await api.get(`/api/public/stats/summary?year=${year}`, { token: '' })).body;
    expect(after.trees).toBe(before + 3);
    expect(after.by_source.public).toBe(3);
    const andijon = after.by_region.find((r: { name: { uz: string } }) => r.name.uz === 'Andijon viloyati');
    expect(andijon.trees).toBe(3);
  });

  it('limits submissions per address', async () => {
    let last = 0;
    for (let i = 0; i < 4; i++) last = (await api.post('/api/public/plantings', form(), { token: '' })).status;
    expect(last).toBe(429);
    const r = await api.post('/api/public/plantings', form(), { token: '', lang: 'ru' });
    expect(r.body.message).toBe('Слишком много отправок. Попробуйте позже');
  });
});

describe('the public passport of a planting', () => {
  it("gives the public passport only what the plantings' public block opens", async () => {
    const p = await api.post('/api/ecofund-plantings/plantings', {
      species_id: species,
      count: 1,
      planted_on: '2024-04-01',
      region_id: tashkent,
      location: { lat: 41.3, lng: 69.2 },
      responsible: 'Aliyev Vali',
    });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    const passport = await api.get(`/api/public/plantings/${p.body.id}`, { token: '' });
    expect(passport.status).toBe(200);
    expect(JSON.stringify(passport.body)).not.toContain('Aliyev');
    expect(passport.body).not.toHaveProperty('responsible');
    expect(passport.body.species).toHaveProperty('uz');
  });
});
