import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { testDatabase } from '../../test/support/db.ts';
import type { Database } from '../db/connection.ts';
import { loadMetadata } from '../meta/load.ts';
import { createUser } from '../../cli/create-user.ts';
import { cancelOwnJob, ownJob, ownJobs } from './jobs.ts';
import { accountByName, ownAccountRow } from './accounts.ts';
import { formUploads, storedFile } from './files.ts';
import { pruneRateLimits } from './system-log.ts';
import { userActions, holdsActions, otherActiveAdministrators, roleActionStates, ADMINISTRATOR } from './rights.ts';
import { offenceCells } from './offence-cells.ts';
import { recentFromAddress, withLastMessage } from './chat.ts';
import { zoneFieldDefs } from './zone-forms.ts';
import { entityAbility } from '../auth/ability.ts';
import { cellsInView, publicAggregates, treesByRegionCentre, yearByRegion, yearBySource, yearBySpecies } from './public-stats.ts';

/**
 * Each read of the named place for aggregates and system tables (api/read-models/) holds to the
 * scope it is given: another user's jobs, account and uploads are not theirs, the public
 * statistics count only public regions and species and are closed when the plantings' block is.
 */
let db: Database;
let k: Knex;
let alice: number;
let bob: number;
beforeAll(async () => {
  db = await testDatabase();
  k = db.knex;
  alice = await createUser(k, { username: 'Alice', password: 'secret-pw', roles: [] });
  bob = await createUser(k, { username: 'bob', password: 'secret-pw', roles: [] });
});
afterAll(async () => {
  await db?.close();
});

describe("jobs: the owner's only", () => {
  it("reads and cancels the caller's jobs, never another's", async () => {
    const [a] = await k('jobs').insert({ kind: 'export', user_id: alice }).returning('id');
    const [b] = await k('jobs')
      .insert({ kind: 'export', user_id: bob, params: { file: 'x' } })
      .returning('id');
    expect((await ownJobs(k, { id: alice }).pluck('id')).map(Number)).toEqual([Number(a.id)]);
    expect(await ownJob(k, { id: alice }, b.id)).toBeUndefined();
    expect(await cancelOwnJob(k, { id: alice }, b.id, 24)).toBeUndefined();
    expect((await k('jobs').where({ id: b.id }).first('state')).state).toBe('queued');
    expect(await cancelOwnJob(k, { id: bob }, b.id, 24)).toEqual({ file: 'x' });
    expect((await k('jobs').where({ id: b.id }).first('state')).state).toBe('cancelled');
  });
});

describe("accounts: the name's or the caller's own row", () => {
  it("finds a name case-folded and the caller's own row only", async () => {
    expect((await accountByName(k, 'ALICE'))?.id).toBe(alice);
    expect(await accountByName(k, 'nobody')).toBeUndefined();
    expect((await ownAccountRow(k, { id: bob }))?.username).toBe('bob');
    expect(await ownAccountRow(k, { id: -1 })).toBeUndefined();
  });
});

describe("uploads: a form's own files", () => {
  const upload = async (created_by: number | null, mime: string) =>
    Number(
      (
        await k('resources')
          .insert({ original_name: 'f', mime, size: 1, storage_path: 'x', sha256: '0'.repeat(64), created_by })
          .returning('id')
      )[0].id,
    );
  it("takes the public uploads and the caller's own of the kinds asked, not another user's", async () => {
    const anon = await upload(null, 'image/png');
    const video = await upload(null, 'video/mp4');
    const own = await upload(alice, 'image/jpeg');
    const other = await upload(bob, 'image/jpeg');
    const pdf = await upload(null, 'application/pdf');
    expect(await formUploads(k, [anon, video, own, other, pdf], null, ['image'])).toEqual(new Set([anon]));
    expect(await formUploads(k, [anon, video, own, other, pdf], alice, ['image', 'video'])).toEqual(new Set([anon, video, own]));
    expect(await formUploads(k, [], alice, ['image'])).toEqual(new Set());
    expect((await storedFile(k, other))?.mime).toBe('image/jpeg');
    expect(await storedFile(k, 999_999_999)).toBeUndefined();
  });
});

describe("rate limits: one limiter's old windows", () => {
  it("drops its own windows older than the bucket, keeps the rest and other limiters'", async () => {
    await k('rate_limits').insert([
      { key: 'mine:a', bucket: 1, n: 1 },
      { key: 'mine:a', bucket: 5, n: 1 },
      { key: 'other:a', bucket: 1, n: 1 },
    ]);
    await pruneRateLimits(k, 'mine', 5);
    const left = await k('rate_limits').orderBy(['key', 'bucket']).select('key', 'bucket');
    expect(left.map((r: { key: string; bucket: unknown }) => [r.key, Number(r.bucket)])).toEqual([
      ['mine:a', 5],
      ['other:a', 1],
    ]);
  });
});

describe("public statistics: the public blocks' rows", () => {
  const year = 2031;
  let tashkent: number;
  let samarkand: number;
  let shrub: number;
  let broadleaf: number;
  beforeAll(async () => {
    tashkent = Number((await k('regions').where({ soato: '1726' }).first('id')).id);
    samarkand = Number((await k('regions').where({ soato: '1718' }).first('id')).id);
    shrub = Number((await k('tree_species').where({ kind: 'shrub' }).orderBy('id').first('id')).id);
    broadleaf = Number((await k('tree_species').where({ kind: 'broadleaf' }).orderBy('id').first('id')).id);
    // the aggregates as the triggers keep them (the plantings themselves are not needed to read them)
    await k('planting_stats').insert([
      { year, region_id: tashkent, species_id: shrub, source: 'staff', trees: 3, plantings: 1 },
      { year, region_id: samarkand, species_id: broadleaf, source: 'public', trees: 5, plantings: 1 },
    ]);
  });

  it('counts by every public region and species while the blocks open them', async () => {
    const scope = publicAggregates(loadMetadata())!;
    const byRegion = await yearByRegion(k, scope, year);
    expect(byRegion.length).toBe(14);
    expect(byRegion.find((r) => r.region_id === samarkand)?.trees).toBe(5);
    expect(await yearBySource(k, scope, year)).toEqual({ staff: 3, public: 5 });
    expect((await yearBySpecies(k, scope, year)).map((s) => s.species_id).sort()).toEqual([broadleaf, shrub].sort());
    expect((await treesByRegionCentre(k, scope, false)).map((r) => r.id).sort()).toEqual(expect.arrayContaining([tashkent, samarkand]));
    expect(await cellsInView(k, scope, 1, [0, 0, 0, 0], false)).toEqual([]);
  });

  it('leaves out regions and species the blocks do not open', async () => {
    const model = loadMetadata();
    const regions = model.entities.get('regions')!;
    regions.public = { ...regions.public!, where: { soato: '1726' } };
    const species = model.entities.get('tree-species')!;
    species.public = { ...species.public!, where: { kind: 'shrub' } };
    const scope = publicAggregates(model)!;
    expect((await yearByRegion(k, scope, year)).map((r) => [r.region_id, r.trees])).toEqual([[tashkent, 3]]);
    expect((await yearBySpecies(k, scope, year)).map((s) => s.species_id)).toEqual([shrub]);
    expect(await yearBySpecies(k, scope, year, samarkand)).toEqual([]);
    expect((await treesByRegionCentre(k, scope, false)).map((r) => r.id)).toEqual([tashkent]);
    regions.public = { ...regions.public!, fields: regions.public!.fields.filter((f) => f !== 'centre') };
    expect(await treesByRegionCentre(k, publicAggregates(model)!, false)).toEqual([]);
  });

  it("is closed when the plantings' block does not open every planting (the aggregates count them all)", () => {
    const model = loadMetadata();
    const plantings = model.entities.get('plantings')!;
    plantings.public = { ...plantings.public!, where: { source: 'public' } };
    expect(publicAggregates(model)).toBeNull();
    delete plantings.public;
    expect(publicAggregates(model)).toBeNull();
    const other = loadMetadata();
    delete other.entities.get('regions')!.public;
    expect(publicAggregates(other)).toBeNull();
  });
});

describe("rights: the named user's roles only", () => {
  it("reads a user's actions and administrators through their own roles, no one else's", async () => {
    const carol = await createUser(k, { username: 'carol-rights', password: 'secret-pw', roles: ['administrator'] });
    const held = (await userActions(k, carol)).map((r: { id: number }) => Number(r.id));
    expect(held.length).toBeGreaterThan(0);
    expect(await userActions(k, alice)).toEqual([]);
    expect(await holdsActions(k, carol, held.slice(0, 2))).toBe(true);
    expect(await holdsActions(k, alice, held.slice(0, 1))).toBe(false);
    expect(await otherActiveAdministrators(k, carol)).toBe((await otherActiveAdministrators(k)) - 1);
    const role = Number((await k('roles').where({ code: ADMINISTRATOR }).first('id')).id);
    const states = await roleActionStates(k, role);
    expect(states.length).toBe(Number((await k('app_actions').count({ n: '*' }))[0].n));
    const own = new Set((await k('role_actions').where({ role_id: role, state: 1 }).pluck('action_id')).map(Number));
    for (const s of states) expect(s.state === 1).toBe(own.has(Number(s.id)));
  });
});

describe("offence cells: the caller's scope on offences", () => {
  it('answers nothing to a caller who may read no offence, and keeps a regional caller to their region', async () => {
    const e = loadMetadata().entities.get('offences')!;
    const principal = (actions: number[], region_id: number | null) => ({
      id: alice,
      username: 'Alice',
      actions: new Set(actions),
      region_id,
      branch_id: null,
      subject_id: null,
    });
    expect(offenceCells(k, { ability: entityAbility(e, principal([], null)), e }, 0, 0)).toBeNull();
    const all = offenceCells(k, { ability: entityAbility(e, principal([e.access.read!], null)), e }, 0, 0)!;
    const own = offenceCells(k, { ability: entityAbility(e, principal([e.access.read!], 1)), e }, 0, 0)!;
    expect(all.toSQL().sql).not.toContain('region_id');
    expect(own.toSQL().sql).toContain('region_id');
    expect(await own.select('t.level')).toEqual([]);
  });
});

describe("zone forms: a zone's own folders", () => {
  it('has no form for a zone that is not there', async () => {
    expect(await zoneFieldDefs(k, 999_999_999)).toBeNull();
  });
});

describe("chat: an address's recent writes; the inbox's chats only", () => {
  it('counts one address in the window, and adds the last message to the chats it is given, no other', async () => {
    const [a, b] = await k('chats')
      .insert([
        { status: 'open', lang: 'uz', ip: '198.51.100.7', token_hash: 'x'.repeat(64) },
        { status: 'open', lang: 'ru', ip: '198.51.100.8', token_hash: 'y'.repeat(64) },
      ])
      .returning('id');
    await k('messages').insert([
      { chat_id: a.id, author: 'visitor', body: 'birinchi', ip: '198.51.100.7' },
      { chat_id: a.id, author: 'visitor', body: 'ikkinchi', ip: '198.51.100.7' },
      { chat_id: b.id, author: 'visitor', body: 'boshqa', ip: '198.51.100.8' },
    ]);
    await k.transaction(async (trx) => {
      expect(await recentFromAddress(trx, 'messages', '198.51.100.7', 10, 5)).toBe(2);
      expect(await recentFromAddress(trx, 'messages', '198.51.100.7', 10, 1)).toBe(1);
      expect(await recentFromAddress(trx, 'chats', '198.51.100.8', 10, 5)).toBe(1);
    });
    const rows = await withLastMessage(k('chats as t').where('t.id', a.id), k).select('t.id');
    expect(rows).toEqual([expect.objectContaining({ id: a.id, unread: 2, last_body: 'ikkinchi', last_author: 'visitor' })]);
  });
});
