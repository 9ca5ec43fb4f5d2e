import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { todayTashkent } from '../api/meta/today.ts';
import { PUBLIC_DATA, VersionedCache, publicTables, tablesNamed, versionedCache } from '../api/db/data-version.ts';

/**
 * The public statistics' answers kept by the version of the data they read (api/db/data-version.ts):
 * a second call is served from the cache, any write to a table they read — through the API, by plain
 * SQL, rolled back or not — is seen by the next call, and answers of two databases never mix.
 */
let api: TestApi;
const P = '/api/ecofund-plantings';
const year = Number(todayTashkent().slice(0, 4));
let species: number;
let tashkent: number;

beforeAll(async () => {
  api = await startTestApi();
  species = (await api.db.knex('tree_species').first('id')).id;
  tashkent = (await api.db.knex('regions').where({ soato: '1726' }).first('id')).id;
});
afterAll(async () => {
  await api?.close();
});

const plant = async (count: number) => {
  const r = await api.post(`${P}/plantings`, {
    species_id: species,
    count,
    region_id: tashkent,
    planted_on: `${year}-03-15`,
    location: { lat: 41.3, lng: 69.25 },
    place_type: 'street',
    irrigation: true,
  });
  expect(r.status).toBe(201);
  return r.body;
};
const treesInReport = async () =>
  (await api.get(`/api/public/reports/region-plantings?year=${year}`, { token: '' })).body.totals.trees as number;
const treesOnMap = async () =>
  (
    (await api.get('/api/public/map/plantings?bbox=55.9,37.1,73.2,45.6&zoom=5&irrigation=1', { token: '' })).body.items as number[][]
  ).reduce((a, i) => a + i[2], 0);
const version = async () => Number((await api.db.knex('data_versions').where({ name: PUBLIC_DATA }).first('version'))?.version ?? 0);

describe('answers kept by the version of their data', () => {
  it('names the tables the public reports read, and each carries the version trigger', async () => {
    expect(
      tablesNamed('WITH b AS (SELECT 1 FROM planting_facts f JOIN regions r ON true) SELECT * FROM b LEFT JOIN tree_species t'),
    ).toEqual(['planting_facts', 'regions', 'b', 'tree_species']);
    const tables = publicTables(api.model);
    expect(tables).toEqual(expect.arrayContaining(['planting_year_facts', 'planting_stats', 'regions', 'plantings', 'tree_species']));
    const triggers = (
      await api.db.knex.raw(
        `SELECT tgrelid::regclass::text AS rel FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid WHERE p.proname = 'bump_data_version' AND tgname LIKE '%_version_public'`,
      )
    ).rows.map((r: { rel: string }) => r.rel);
    expect(triggers).toEqual(expect.arrayContaining(['planting_year_facts', 'planting_stats', 'regions', 'plantings']));
    expect(triggers).not.toContain('payments');
  });

  it('serves the second call from the cache and sees every write at once', async () => {
    const before = await treesInReport();
    const mapBefore = await treesOnMap();
    const v = await version();
    // unchanged data: the same version, and the report's query is not run again
    const seen: string[] = [];
    const listen = (q: { sql: string }) => {
      seen.push(q.sql);
    };
    api.db.knex.on('query', listen);
    try {
      expect(await treesInReport()).toBe(before);
      expect(await treesOnMap()).toBe(mapBefore);
    } finally {
      api.db.knex.removeListener('query', listen);
    }
    expect(seen.filter((s) => /planting_facts|planting_year_facts|planting_stats/.test(s))).toEqual([]);
    expect(seen.some((s) => /data_versions/.test(s))).toBe(true);

    // a planting through the API: the next calls have it
    await plant(7);
    expect(await version()).toBeGreaterThan(v);
    expect(await treesInReport()).toBe(before + 7);
    expect(await treesOnMap()).toBe(mapBefore + 7);

    // plain SQL counts too (the aggregate's own trigger raises the version)
    await api.db.knex('plantings').where({ count: 7, region_id: tashkent }).update({ count: 9 });
    expect(await treesInReport()).toBe(before + 9);
    expect(await treesOnMap()).toBe(mapBefore + 9);

    // a rolled-back write leaves the answer as it was
    await api.db.knex
      .transaction(async (trx) => {
        await trx('plantings').where({ count: 9, region_id: tashkent }).update({ count: 1000 });
        await trx.rollback();
      })
      .catch(() => undefined);
    expect(await treesInReport()).toBe(before + 9);
  });

  it('a write between reading the version and the answer is never cached as current', async () => {
    const cache = new VersionedCache(api.db.knex, 'test-race');
    const k = api.db.knex;
    await k('data_versions').insert({ name: 'test-race', version: 1 }).onConflict('name').merge();
    let calls = 0;
    // the data changes while the answer is computed (and its version rises after it was read)
    const first = await cache.get('x', async () => {
      calls++;
      await k('data_versions').where({ name: 'test-race' }).increment('version', 1);
      return 'old';
    });
    expect(first).toBe('old');
    expect(
      await cache.get('x', async () => {
        calls++;
        return 'new';
      }),
    ).toBe('new');
    expect(
      await cache.get('x', async () => {
        calls++;
        return 'newer';
      }),
    ).toBe('new');
    expect(calls).toBe(2);
    // one computation for callers asking at once
    await k('data_versions').where({ name: 'test-race' }).increment('version', 1);
    let slow = 0;
    const all = await Promise.all(
      [1, 2, 3].map(() =>
        cache.get('x', async () => {
          slow++;
          await new Promise((r) => setTimeout(r, 30));
          return 'once';
        }),
      ),
    );
    expect(all).toEqual(['once', 'once', 'once']);
    expect(slow).toBe(1);
  });

  it('keeps each database its own cache and a bounded number of answers', async () => {
    expect(versionedCache(api.db.knex, PUBLIC_DATA)).toBe(versionedCache(api.db.knex, PUBLIC_DATA));
    const other = {} as never;
    expect(versionedCache(other, PUBLIC_DATA)).not.toBe(versionedCache(api.db.knex, PUBLIC_DATA));
    const small = new VersionedCache(api.db.knex, 'test-race', 3);
    for (const key of ['a', 'b', 'c', 'd', 'e']) await small.get(key, async () => key);
    expect(small.size).toBe(3);
  });
});
