import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { loadMetadata } from '../api/meta/load.ts';
import { todayTashkent } from '../api/meta/today.ts';

/**
 * The public site's own calls (api/modules/public-site) read entities through their public blocks
 * exactly as the generic public routes do (api/engine/public-read.ts): narrow a block's rows
 * (`where`) or fields and the site's regions, species, statistics, map and passport narrow with it;
 * take a block away and its calls are 404s. The blocks here are changed in the model the app runs
 * on, not in the files: the same code answers both.
 */
const year = Number(todayTashkent().slice(0, 4));
const PLANTINGS = '/api/ecofund-plantings/plantings';

describe('a public block narrowed: the public site narrows with it', () => {
  let api: TestApi;
  let tashkent: number;
  let samarkand: number;
  let broadleaf: number;
  let shrub: number;
  beforeAll(async () => {
    const model = loadMetadata();
    // regions: Tashkent city only, its centre not public; species: shrubs only, no latin name
    const regions = model.entities.get('regions')!;
    regions.public = { ...regions.public!, where: { soato: '1726' }, fields: regions.public!.fields.filter((f) => f !== 'centre') };
    const species = model.entities.get('tree-species')!;
    species.public = { ...species.public!, where: { kind: 'shrub' }, fields: species.public!.fields.filter((f) => f !== 'latin_name') };
    api = await startTestApi(model);
    const k = api.db.knex;
    tashkent = (await k('regions').where({ soato: '1726' }).first('id')).id;
    samarkand = (await k('regions').where({ soato: '1718' }).first('id')).id;
    broadleaf = (await k('tree_species').where({ code: 'PLA_OR' }).first('id')).id;
    shrub = (await k('tree_species').where({ kind: 'shrub' }).orderBy('id').first('id')).id;
  });
  afterAll(async () => {
    await api?.close();
  });

  const plant = async (region: number, species: number, count: number) => {
    const r = await api.post(PLANTINGS, {
      species_id: species,
      count,
      planted_on: `${year}-03-15`,
      region_id: region,
      location: { lat: 41.3, lng: 69.25 },
      place_type: 'street',
      responsible: 'Aliyev Vali',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as number;
  };

  it("lists only the block's regions and species, with only its fields", async () => {
    const regions = await api.get('/api/public/regions', { token: '' });
    expect(regions.status).toBe(200);
    expect(regions.body.map((r: any) => r.id)).toEqual([tashkent]);
    expect(regions.body[0]).not.toHaveProperty('centre');
    expect(regions.body[0].name).toHaveProperty('uz');
    const species = await api.get('/api/public/species', { token: '' });
    expect(species.status).toBe(200);
    expect(species.body.length).toBeGreaterThan(0);
    expect(species.body.every((s: any) => s.kind === 'shrub')).toBe(true);
    expect(species.body.map((s: any) => s.id)).not.toContain(broadleaf);
    expect(species.body[0]).not.toHaveProperty('latin_name');
    // the generic public read answers the same rows
    const generic = await api.get('/api/public/entities/regions', { token: '' });
    expect(generic.body.rows.map((r: any) => r.id)).toEqual([tashkent]);
  });

  it('counts the statistics by the public regions and species only', async () => {
    await plant(tashkent, shrub, 3);
    await plant(samarkand, shrub, 5);
    await plant(tashkent, broadleaf, 7);
    const summary = await api.get(`/api/public/stats/summary?year=${year}`, { token: '' });
    expect(summary.status).toBe(200);
    expect(summary.body.by_region.map((r: any) => r.region_id)).toEqual([tashkent]);
    expect(summary.body.by_region[0].trees).toBe(10);
    const bySpecies = await api.get(`/api/public/stats/species?year=${year}`, { token: '' });
    expect(bySpecies.status).toBe(200);
    expect(bySpecies.body.map((s: any) => s.species_id)).toEqual([shrub]);
    expect(bySpecies.body[0].trees).toBe(8);
    expect(bySpecies.body[0]).not.toHaveProperty('latin_name');
    // the map's lowest zoom places regions at their centres: none is public here
    const map = await api.get('/api/public/map/plantings?bbox=55,37,74,46&zoom=5', { token: '' });
    expect(map.status).toBe(200);
    expect(map.body.items).toEqual([]);
  });

  it('gives a passport only with its species public, its region only when public', async () => {
    const ofShrub = await plant(samarkand, shrub, 1);
    const ofBroadleaf = await plant(tashkent, broadleaf, 1);
    const shrubPassport = await api.get(`/api/public/plantings/${ofShrub}`, { token: '' });
    expect(shrubPassport.status).toBe(200);
    expect(shrubPassport.body.species).toHaveProperty('uz');
    expect(shrubPassport.body.latin_name).toBeUndefined();
    expect(shrubPassport.body.region).toBeNull();
    expect(JSON.stringify(shrubPassport.body)).not.toContain('Aliyev');
    expect((await api.get(`/api/public/plantings/${ofBroadleaf}`, { token: '' })).status).toBe(404);
  });

  it("offers the public forms only the block's active rows", async () => {
    const form = { first_name: 'Ali', last_name: 'Valiyev', count: 1, planted_on: `${year}-03-01`, location: { lat: 41.3, lng: 69.25 } };
    const bad = await api.post('/api/public/plantings', { ...form, species_id: broadleaf }, { token: '', lang: 'ru' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('species_id');
    const fact = await api.post(
      '/api/public/people-facts',
      {
        description: 'Bogʻda uchta chinor daraxti kesilmoqda',
        region_id: samarkand,
        address: 'Navroʻz mahallasi, 12-uy',
        location: { lat: 41.31, lng: 69.28 },
        informant_name: 'Aliyev Vali',
        informant_phone: '(90) 123-45-67',
      },
      { token: '' },
    );
    expect(fact.status).toBe(400);
    expect(fact.body.errors).toHaveProperty('region_id');
  });
});

describe("no public block: the public site's calls of it are 404s", () => {
  let api: TestApi;
  beforeAll(async () => {
    const model = loadMetadata();
    delete model.entities.get('regions')!.public;
    delete model.entities.get('tree-species')!.public;
    api = await startTestApi(model);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers 404 for the regions, species and statistics, and the generic read too', async () => {
    for (const path of [
      '/api/public/regions',
      '/api/public/species',
      `/api/public/stats/summary?year=${year}`,
      `/api/public/stats/species?year=${year}`,
      '/api/public/map/plantings?bbox=55,37,74,46&zoom=5',
      '/api/public/entities/regions',
    ]) {
      const r = await api.get(path, { token: '' });
      expect(r.status, path).toBe(404);
    }
  });
});
