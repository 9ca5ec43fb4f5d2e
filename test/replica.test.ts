import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from './support/api.ts';
import { testDatabase } from './support/db.ts';
import { replicaUnavailable, startReplica, type Replica } from './support/replica.ts';
import { APP_NAME, type Database } from '../api/db/connection.ts';
import { startProductionServer, type ProductionServer } from './support/server.ts';
import { todayTashkent } from '../api/meta/today.ts';
import { skipBecause } from './support/skip.ts';

/**
 * Public reads on a read replica (docs/scaling.md): a streaming replica of the local server is
 * started for the file (pg_basebackup -R), the server is started as in production with
 * DATABASE_URL (the primary), DATABASE_READ_URL (the replica) and DATABASE_LISTEN_URL, and:
 * with the replica's replay paused, a public planting submitted and approved through the API is on
 * the primary and read back by the staff at once, while the public calls do not see it; once the
 * replay resumes, they do. The replica's pg_stat_activity holds the read pool's connections, the
 * primary's none of them; a write on the read pool is refused as read-only.
 */
const primary = process.env.TEST_DATABASE_URL;
const skip = await replicaUnavailable(primary);

const year = Number(todayTashkent().slice(0, 4));
let replica: Replica;
let db: Database;
let running: ProductionServer;
let server: ProductionServer['server'];
let api: TestApi;
let dbName: string;

describe('public reads on a streaming replica', skipBecause(skip), () => {
  beforeAll(async () => {
    db = await testDatabase();
    dbName = new URL(db.url!).pathname.slice(1);
    replica = await startReplica(primary!);
    console.log(
      `replica: base backup ${replica.figures.basebackupMs} ms (${(replica.figures.dataBytes / 2 ** 20).toFixed(1)} MB), started in ${replica.figures.startMs} ms on port ${replica.port}`,
    );
    running = await startProductionServer({
      DATABASE_URL: db.url!,
      DATABASE_READ_URL: replica.url(dbName),
      DATABASE_LISTEN_URL: db.url!,
      ECOFOND_PUBLIC_FORM_PER_HOUR: '100',
    });
    ({ server, api } = running);
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await replica?.stop();
    await db?.close();
  }, 120_000);

  it('serves the public reads from the replica and writes on the primary', async () => {
    expect(server.db.reads).not.toBe(server.db.knex);
    const species = (await server.db.knex('tree_species').where({ code: 'PLA_OR' }).first('id')).id;
    await replica.caughtUp();
    const before = (await api.get(`/api/public/stats/summary?year=${year}`, { token: '' })).body;
    expect(before.year).toBe(year);

    // the replica stops replaying: what the primary writes now, the replica does not have
    await replica.pause();
    const form = {
      first_name: 'Dilnoza',
      last_name: 'Karimova',
      species_id: species,
      count: 7,
      planted_on: `${year}-04-01`,
      location: { lat: 40.78, lng: 72.34 },
    };
    const sent = await api.post('/api/public/plantings', form, { token: '' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const approved = await api.post(`/api/ecofund-plantings/public-plantings/${sent.body.id}/actions/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const plantingId = Number(approved.body.planting_id);
    expect(plantingId).toBeGreaterThan(0);

    // the writes are on the primary (the replica is read-only: they could not have gone there)
    expect(await server.db.knex('plantings').where({ id: plantingId }).first('count')).toEqual({ count: 7 });
    expect((await replica.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r'))[0].r).toBe(true);
    // the staff read their own write at once, from the primary
    const staff = await api.get(`/api/ecofund-plantings/plantings/${plantingId}`);
    expect(staff.status).toBe(200);
    expect(staff.body.count).toBe(7);
    // the public does not see it yet: its reads are the replica's
    expect((await api.get(`/api/public/plantings/${plantingId}`, { token: '' })).status).toBe(404);
    expect((await api.get(`/api/public/entities/plantings/${plantingId}`, { token: '' })).status).toBe(404);
    expect((await api.get(`/api/public/stats/summary?year=${year}`, { token: '' })).body.trees).toBe(before.trees);
    const box = '72.3,40.7,72.4,40.8';
    expect((await api.get(`/api/public/map/plantings?bbox=${box}&zoom=16`, { token: '' })).body.items).toEqual([]);

    // the replay resumes: the public reads now see the planting and the aggregates the triggers kept
    await replica.resume();
    const lagMs = await replica.caughtUp();
    console.log(`replica: caught up ${lagMs} ms after the replay resumed`);
    const passport = await api.get(`/api/public/plantings/${plantingId}`, { token: '' });
    expect(passport.status).toBe(200);
    expect(passport.body).toMatchObject({ id: plantingId, count: 7, latin_name: 'Platanus orientalis' });
    const after = (await api.get(`/api/public/stats/summary?year=${year}`, { token: '' })).body;
    expect(after.trees).toBe(before.trees + 7);
    expect(after.by_source.public).toBe((before.by_source.public ?? 0) + 7);
    const trees = (await api.get(`/api/public/map/plantings?bbox=${box}&zoom=16`, { token: '' })).body;
    expect(trees.items.map((i: number[]) => i[3])).toEqual([plantingId]);

    // who is connected where: the read pool on the replica, the primary's pool and the LISTEN
    // connections (reference books, chat) on the primary, none of the read pool's there
    const onReplica = await replica.query<{ application_name: string; n: number }>(
      'SELECT application_name, count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 GROUP BY 1',
      [dbName],
    );
    expect(onReplica.map((r) => r.application_name)).toEqual([APP_NAME.reads]);
    const onPrimary = await server.db
      .knex('pg_stat_activity')
      .where({ datname: dbName })
      .groupBy('application_name')
      .select('application_name', server.db.knex.raw('count(*)::int AS n'));
    const names = onPrimary.map((r: { application_name: string }) => r.application_name);
    expect(names).toContain(APP_NAME.primary);
    expect(names).toContain(APP_NAME.listen);
    expect(names).not.toContain(APP_NAME.reads);
    // and the read pool cannot write
    await expect(server.db.reads.raw('CREATE TABLE replica_probe (id int)')).rejects.toThrow(/read-only transaction/);
  }, 120_000);

  it('has a write visible on the replica within a short replay lag', async () => {
    // twenty single-row writes through the API, each waited for on the replica (polled every 20 ms)
    const species = (await server.db.knex('tree_species').where({ code: 'PLA_OR' }).first('id')).id;
    const region = (await server.db.knex('regions').first('id')).id;
    const lags: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await api.post('/api/ecofund-plantings/plantings', {
        species_id: species,
        count: 1,
        planted_on: `${year}-02-0${1 + (i % 9)}`,
        region_id: region,
        location: { lat: 41.2 + i / 1000, lng: 69.2 },
        place_type: 'street',
      });
      expect(r.status).toBe(201);
      lags.push(await replica.caughtUp(30_000));
    }
    lags.sort((a, b) => a - b);
    console.log(`replica: replay lag of a single write, p50 ${lags[10]} ms, max ${lags[19]} ms (20 writes, polled every 20 ms)`);
    expect(lags[19]).toBeLessThan(30_000);
  }, 120_000);

  it('keeps staff reads and the public forms on the primary', async () => {
    await replica.pause();
    try {
      const r = await api.post('/api/ecofund-plantings/plantings', {
        species_id: (await server.db.knex('tree_species').first('id')).id,
        count: 3,
        planted_on: `${year}-03-15`,
        region_id: (await server.db.knex('regions').first('id')).id,
        location: { lat: 41.31, lng: 69.24 },
        place_type: 'street',
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const list = await api.get(`/api/ecofund-plantings/plantings?id=${r.body.id}`);
      expect(list.status).toBe(200);
      expect((await api.get(`/api/ecofund-plantings/plantings/${r.body.id}`)).body.count).toBe(3);
      expect((await api.get(`/api/public/plantings/${r.body.id}`, { token: '' })).status).toBe(404);
    } finally {
      await replica.resume();
    }
    await replica.caughtUp();
  }, 60_000);
});
