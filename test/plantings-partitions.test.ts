import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from './support/api.ts';
import { todayTashkent } from '../api/meta/today.ts';
import { ensureYearPartitions, partitionByYear, unpartition } from '../api/db/partitions.ts';

/**
 * `plantings` partitioned by year (migrations/20261128000100_plantings_by_year.ts, api/db/partitions.ts):
 * rows land in their year's partition and move with their date, the aggregates the statement
 * triggers keep (map cells, statistics, report facts) stay equal to the rows after inserts,
 * updates that move rows between years, deletes and batches, the references to a planting behave
 * as their foreign keys did, and the conversion goes both ways with the rows and aggregates intact.
 */
let api: TestApi;
let k: Knex;
let species: number;
let tashkent: number;
let samarkand: number;
const PLANTINGS = '/api/ecofund-plantings/plantings';
const year = Number(todayTashkent().slice(0, 4));

beforeAll(async () => {
  api = await startTestApi();
  k = api.db.knex;
  species = (await k('tree_species').where({ code: 'PLA_OR' }).first('id')).id;
  tashkent = (await k('regions').where({ soato: '1726' }).first('id')).id;
  samarkand = (await k('regions').where({ soato: '1718' }).first('id')).id;
}, 120_000);
afterAll(async () => {
  await api?.close();
});

const plant = async (planted_on: string, count = 10, region = tashkent, lat = 41.31, lng = 69.24, over: Record<string, unknown> = {}) => {
  const r = await api.post(PLANTINGS, {
    species_id: species,
    count,
    planted_on,
    region_id: region,
    location: { lat, lng },
    place_type: 'street',
    ...over,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; version: number };
};
const partitionOf = async (id: number) =>
  (await k.raw('SELECT tableoid::regclass::text AS p FROM plantings WHERE id = ?', [id])).rows[0]?.p;

/** Every aggregate equals what the rows sum to. */
async function expectAggregatesRight(): Promise<void> {
  const rows = async (sql: string) =>
    (await k.raw(sql)).rows.map((r: Record<string, unknown>) => JSON.stringify(Object.values(r).map(String)));
  expect(await rows('SELECT region_id, year, species_id, source, plantings, trees FROM planting_stats ORDER BY 1, 2, 3, 4')).toEqual(
    await rows(
      `SELECT region_id, extract(year FROM planted_on)::int AS y, species_id, source, count(*) AS n, sum(count) AS t FROM plantings GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    ),
  );
  expect(await rows('SELECT level, cx, cy, trees FROM planting_cells ORDER BY 1, 2, 3')).toEqual(
    await rows(`SELECT l.level, floor(p.location[0] / l.size)::int AS cx, floor(p.location[1] / l.size)::int AS cy, sum(p.count) AS t
      FROM plantings p CROSS JOIN (VALUES (1, 0.1), (2, 0.02), (3, 0.004)) AS l(level, size) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
  );
  expect(
    await rows(
      'SELECT year, month, region_id, species_id, source, org_id, irrigation, sum(plantings) AS n, sum(trees) AS t FROM planting_facts GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(plantings) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7',
    ),
  ).toEqual(
    await rows(`SELECT extract(year FROM planted_on)::int AS y, extract(month FROM planted_on)::int AS m, region_id, species_id, source, coalesce(org_id, 0) AS o, irrigation, count(*) AS n, sum(count) AS t
      FROM plantings GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7`),
  );
  // the public statistics' year facts (migration 20261130000300_planting_year_facts)
  expect(
    await rows(
      'SELECT year, region_id, species_id, source, irrigation, sum(plantings) AS n, sum(trees) AS t FROM planting_year_facts GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5',
    ),
  ).toEqual(
    await rows(`SELECT extract(year FROM planted_on)::int AS y, region_id, species_id, source, irrigation, count(*) AS n, sum(count) AS t
      FROM plantings GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`),
  );
  expect(
    await rows(
      'SELECT year, region_id, species_id, source, dbh_class, irrigation, plantings, trees, confirmed, area_ha FROM planting_year_facts ORDER BY 1, 2, 3, 4, 5, 6',
    ),
  ).toEqual(
    await rows(`SELECT year, region_id, species_id, source, dbh_class, irrigation, sum(plantings) AS n, sum(trees) AS t, sum(confirmed) AS c, sum(area_ha) AS a
      FROM planting_facts GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`),
  );
}

describe('plantings partitioned by year', () => {
  it('is partitioned by planted_on: a partition a year around this one and a default one', async () => {
    const parts = (
      await k.raw(
        `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'plantings'::regclass ORDER BY 1`,
      )
    ).rows.map((r: { relname: string }) => r.relname);
    for (let y = year - 5; y <= year + 1; y++) expect(parts).toContain(`plantings_y${y}`);
    expect(parts).toContain('plantings_other');
    expect((await k.raw(`SELECT pg_get_partkeydef('plantings'::regclass) AS d`)).rows[0].d).toBe('RANGE (planted_on)');
  });

  it('puts a planting in its year and moves it with its date, the aggregates following every write', async () => {
    const a = await plant(`${year}-03-15`, 120);
    const b = await plant(`${year - 1}-09-01`, 30, samarkand, 39.65, 66.96, { irrigation: true });
    expect(await partitionOf(a.id)).toBe(`plantings_y${year}`);
    expect(await partitionOf(b.id)).toBe(`plantings_y${year - 1}`);
    await expectAggregatesRight();
    // a new date in another year moves the row to that year's partition; its id and version go on
    const moved = await api.put(`${PLANTINGS}/${a.id}`, { planted_on: `${year - 2}-05-05`, count: 80, version: a.version });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ id: a.id, planted_on: `${year - 2}-05-05`, count: 80, version: a.version + 1 });
    expect(await partitionOf(a.id)).toBe(`plantings_y${year - 2}`);
    await expectAggregatesRight();
    const stale = await api.put(`${PLANTINGS}/${a.id}`, { count: 81, version: a.version });
    expect(stale.status).toBe(409);
    // a date long ago goes to the default partition
    const old = await plant('2001-06-01', 5);
    expect(await partitionOf(old.id)).toBe('plantings_other');
    expect((await api.del(`${PLANTINGS}/${old.id}`)).status).toBe(200);
    await expectAggregatesRight();
    // the list reads every partition, sorted and counted as before
    const list = await api.get(`${PLANTINGS}?sort=${encodeURIComponent('["planted_on","DESC"]')}&range=[0,24]`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const ids = (Array.isArray(list.body) ? list.body : (list.body.data ?? list.body.rows)).map((r: { id: number }) => r.id);
    expect(ids).toEqual([b.id, a.id]);
  });

  it('keeps the aggregates right over batches that insert, move and delete across years in one statement', async () => {
    await k.raw(
      `INSERT INTO plantings (species_id, count, planted_on, region_id, location, place_type, irrigation)
      SELECT CAST(? AS bigint), 1 + g % 7, make_date(CAST(? AS int) - g % 8, 1 + g % 12, 1 + g % 28), CASE WHEN g % 2 = 0 THEN CAST(? AS bigint) ELSE CAST(? AS bigint) END,
             point(66 + (g % 50) * 0.07, 39 + (g % 40) * 0.05), 'street', g % 3 = 0
        FROM generate_series(1, 2000) g`,
      [species, year, tashkent, samarkand],
    );
    await expectAggregatesRight();
    await k.raw(`UPDATE plantings SET planted_on = planted_on - 366, count = count + 1 WHERE id % 3 = 0`);
    await expectAggregatesRight();
    await k.raw(`DELETE FROM plantings WHERE id % 5 = 0`);
    await expectAggregatesRight();
    const [{ n }] = (await k.raw(`SELECT count(*)::int AS n FROM ONLY plantings_other`)).rows;
    expect(n).toBeGreaterThan(0); // dates more than five years back
  });

  it('keeps the references to a planting as their foreign keys did', async () => {
    const p = await plant(`${year}-04-01`, 12);
    const [insp] = await k('planting_inspections')
      .insert({
        planting_id: p.id,
        inspected_on: `${year}-05-01`,
        region_id: tashkent,
        trees_checked: 12,
        trees_alive: 11,
        result: 'ok',
        findings: '—',
      })
      .returning('id');
    // a reference to no planting is refused as a foreign key would refuse it (the engine answers it as a 400 beside the field)
    const bad = await k('planting_inspections')
      .insert({
        planting_id: 987654321,
        inspected_on: `${year}-05-01`,
        region_id: tashkent,
        trees_checked: 1,
        trees_alive: 1,
        result: 'ok',
        findings: '—',
      })
      .catch((e) => e);
    expect(bad).toMatchObject({ code: '23503', constraint: 'planting_inspections_planting_id_foreign', table: 'planting_inspections' });
    // moving the planting to another year keeps the inspection's reference
    const moved = await api.put(`${PLANTINGS}/${p.id}`, { planted_on: `${year - 1}-04-01`, version: p.version });
    expect(moved.status).toBe(200);
    expect((await k('planting_inspections').where({ id: insp.id }).first('planting_id')).planting_id).toBe(p.id);
    // a planting a public planting became is in use: a 409, and it stays
    const q = await plant(`${year}-04-02`, 3);
    await k('public_plantings').insert({
      first_name: 'A',
      last_name: 'B',
      species_id: species,
      count: 3,
      planted_on: `${year}-04-02`,
      location: k.raw('point(69.2, 41.3)'),
      status: 'approved',
      planting_id: q.id,
    });
    const inUse = await api.del(`${PLANTINGS}/${q.id}`);
    expect(inUse.status).toBe(409);
    expect(await k('plantings').where({ id: q.id }).first('id')).toBeTruthy();
    // deleting the inspected planting sets the inspection's reference to null (ON DELETE SET NULL)
    expect((await api.del(`${PLANTINGS}/${p.id}`)).status).toBe(200);
    expect((await k('planting_inspections').where({ id: insp.id }).first('planting_id')).planting_id).toBeNull();
    await expectAggregatesRight();
  });

  it("makes the coming years' partitions at a start, and leaves a year the default partition holds rows of", async () => {
    expect(await ensureYearPartitions(k, new Date(Date.UTC(year, 5, 1)))).toEqual([]);
    // every table partitioned by year gets them (offences too: migrations/20261201000300_offences_by_year.ts)
    const made = await ensureYearPartitions(k, new Date(Date.UTC(year + 4, 5, 1)));
    expect(made.filter((t) => t.startsWith('plantings_'))).toEqual([`plantings_y${year + 4}`, `plantings_y${year + 5}`]);
    expect(made.filter((t) => t.startsWith('offences_')).sort()).toEqual([`offences_y${year + 4}`, `offences_y${year + 5}`]);
    // 2001's rows are in the default partition: that year is not split off there
    await plant('2001-06-01', 2);
    expect((await ensureYearPartitions(k, new Date(Date.UTC(2001, 5, 1)))).filter((t) => t.startsWith('plantings_'))).toEqual([
      'plantings_y2002',
    ]);
    await expectAggregatesRight();
  });

  it('goes back to one table and partitioned again with every row, key and aggregate', async () => {
    const before = (await k.raw('SELECT count(*)::int AS n, sum(count)::int AS t FROM plantings')).rows[0];
    await k.transaction(async (trx) => {
      await unpartition(trx, 'plantings');
    });
    expect((await k.raw(`SELECT relkind FROM pg_class WHERE relname = 'plantings'`)).rows[0].relkind).toBe('r');
    const keys = (await k.raw(`SELECT conname FROM pg_constraint WHERE confrelid = 'plantings'::regclass ORDER BY 1`)).rows.map(
      (r: { conname: string }) => r.conname,
    );
    expect(keys).toEqual(['planting_inspections_planting_id_foreign', 'public_plantings_planting_id_foreign']);
    expect((await k.raw('SELECT count(*)::int AS n, sum(count)::int AS t FROM plantings')).rows[0]).toEqual(before);
    await plant(`${year}-02-02`, 4);
    await expectAggregatesRight();
    await k.transaction(async (trx) => {
      await partitionByYear(trx, 'plantings', 'planted_on');
    });
    expect((await k.raw(`SELECT relkind FROM pg_class WHERE relname = 'plantings'`)).rows[0].relkind).toBe('p');
    const c = await plant(`${year}-02-03`, 6);
    expect(await partitionOf(c.id)).toBe(`plantings_y${year}`);
    await expectAggregatesRight();
  });
});
