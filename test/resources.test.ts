import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApi, type TestApi } from './support/api.ts';
import { createUser } from '../cli/create-user.ts';
import { principalForToken } from '../api/auth/sessions.ts';
import { Repository } from '../api/engine/repository.ts';
import type { ApiError } from '../api/http/errors.ts';

/** Uploads: stored by content, typed by their bytes, refused when too large or of another type, and usable in a record. */
let api: TestApi;
beforeAll(async () => {
  process.env.ECOFOND_DATA_DIR = mkdtempSync(join(tmpdir(), 'ecofond-files-'));
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const upload = (body: Buffer, name: string, token = api.adminToken) =>
  fetch(`${api.url}/api/resources/upload?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    body,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

describe('resources', () => {
  it('stores a file, reads its type from its bytes and gives it back', async () => {
    const r = await upload(PNG, 'logo.png');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ original_name: 'logo.png', mime: 'image/png', size: PNG.length });
    const back = await fetch(`${api.url}/api/resources/${r.body.id}`, { headers: { Authorization: `Bearer ${api.adminToken}` } });
    expect(back.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await back.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(`${api.url}/api/resources/${r.body.id}`)).status).toBe(401);
    // a record may point at it
    const user = await api.post('/api/managing/users', {
      username: 'with_photo',
      password: 'secret-12',
      lang_code: 'uz',
      kind: 'staff',
      img_resource_id: r.body.id,
    });
    expect(user.body.img_resource_id).toBe(r.body.id);
  });

  it('refuses unknown types, empty bodies and missing names', async () => {
    const exe = await upload(Buffer.from('MZ\x90\x00 not allowed'), 'virus.exe');
    expect(exe.status).toBe(400);
    expect(exe.body.errors).toEqual({ file: 'Bu turdagi fayl qabul qilinmaydi (PDF, rasm, Excel yoki Word)' });
    expect((await upload(Buffer.alloc(0), 'empty.pdf')).body.message).toBe('Fayl boʻsh');
    expect((await upload(PNG, '')).status).toBe(400);
  });
});

describe('a file a row holds is one its writer may read', () => {
  const FACTS = '/api/ecofund-offences/people-facts';
  const PLANTINGS = '/api/ecofund-plantings/plantings';
  const read = (id: number, token: string) =>
    fetch(`${api.url}/api/resources/${id}`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);
  let r1 = 0;
  let r2 = 0;
  let species = 0;
  const tokens: Record<string, string> = {};
  const planting = (over: Record<string, unknown> = {}) => ({
    species_id: species,
    count: 2,
    planted_on: '2024-04-01',
    region_id: r1,
    location: { lat: 41.3, lng: 69.2 },
    place_type: 'street',
    ...over,
  });

  beforeAll(async () => {
    const k = api.db.knex;
    [r1, r2] = (await k('regions').orderBy('id').limit(2).pluck('id')).map(Number);
    species = Number((await k('tree_species').first('id')).id);
    for (const username of ['pop_a', 'pop_b']) {
      const id = await createUser(k, { username, password: 'secret-pw', roles: ['population'], region_id: r1 });
      await k('users').where({ id }).update({ kind: 'population' });
      tokens[username] = await api.login(username, 'secret-pw');
    }
    tokens.planter = await api.userWithActions('planter_r1', [1677, 7111, 7112], { region_id: r1 });
    tokens.updater = await api.userWithActions('updater_r1', [7112], { region_id: r1 });
  });

  it("a population user cannot take another's file by naming it in their own fact: 400 under the field, as for no file, in uz, uk and ru", async () => {
    const theirs = (await upload(PNG, 'theirs.png', tokens.pop_b)).body.id;
    expect(await read(theirs, tokens.pop_a)).toBe(404);
    const fact = (files: number[]) => ({
      description: 'Daraxtlar kesilmoqda',
      region_id: r1,
      address: 'Navroʻz 12',
      location: { lat: 41.31, lng: 69.28 },
      informant_name: 'Aliyev Vali',
      informant_phone: '(90) 123-45-67',
      files,
    });
    const facts = async () => Number((await api.db.knex('people_facts').count('* as n').first())!.n);
    const before = await facts();
    for (const [lang, text] of [
      ['uz', 'Fayl topilmadi'],
      ['uk', 'Файл топилмади'],
      ['ru', 'Файл не найден'],
    ]) {
      const r = await api.post(FACTS, fact([theirs]), { token: tokens.pop_a, lang });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.errors).toEqual({ files: text });
      // a file that does not exist is answered in the same words: the answer does not tell which
      const none = await api.post(FACTS, fact([theirs + 1]), { token: tokens.pop_a, lang });
      expect(none.body.errors).toEqual({ files: text });
    }
    expect(await facts()).toBe(before);
    expect(await read(theirs, tokens.pop_a)).toBe(404);
    // their own upload they may attach, and read back through the fact
    const mine = (await upload(PNG, 'mine.png', tokens.pop_a)).body.id;
    const ok = await api.post(FACTS, fact([mine]), { token: tokens.pop_a });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.files).toEqual([mine]);
  });

  it("an update checks only the files it adds: those the row holds already stay, another region's row's file is refused", async () => {
    const held = (await upload(PNG, 'held.png')).body.id;
    const elsewhere = (await upload(PNG, 'elsewhere.png')).body.id;
    const row = (await api.post(PLANTINGS, planting({ images: [held] }))).body;
    expect((await api.post(PLANTINGS, planting({ region_id: r2, images: [elsewhere] }))).status).toBe(201);
    // the updater may not read plantings at all: the file the row holds is not theirs to read, yet it stays
    expect(await read(held, tokens.updater)).toBe(404);
    const own = (await upload(PNG, 'own.png', tokens.updater)).body.id;
    const kept = await api.put(`${PLANTINGS}/${row.id}`, { images: [held, own], version: row.version }, { token: tokens.updater });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    const taken = await api.put(
      `${PLANTINGS}/${row.id}`,
      { images: [held, own, elsewhere], version: row.version + 1 },
      { token: tokens.planter, lang: 'ru' },
    );
    expect(taken.status).toBe(400);
    expect(taken.body.errors).toEqual({ images: 'Файл не найден' });
    expect((await api.db.knex('plantings').where({ id: row.id }).first('images')).images.map(Number)).toEqual([held, own]);
    // the region's own row's file is the planter's to read, and so to attach
    expect(await read(held, tokens.planter)).toBe(200);
    const other = (await api.post(PLANTINGS, planting())).body;
    expect((await api.put(`${PLANTINGS}/${other.id}`, { images: [held], version: other.version }, { token: tokens.planter })).status).toBe(
      200,
    );
  });

  it('an import is checked set-wise, rows with no files at no cost, and a bad row is named', async () => {
    const principal = await principalForToken(api.db.knex, tokens.planter);
    const repo = new Repository({ knex: api.db.knex, model: api.model, principal, lang: 'uz' }, api.model.entities.get('plantings')!);
    const elsewhere = (await upload(PNG, 'far.png')).body.id;
    expect((await api.post(PLANTINGS, planting({ region_id: r2, images: [elsewhere] }))).status).toBe(201);
    const mine = (await upload(PNG, 'mine.png', tokens.planter)).body.id;
    const rows = Array.from({ length: 600 }, () => planting());
    rows[6] = planting({ images: [elsewhere] });
    rows[9] = planting({ images: [mine] });
    const err = await repo.createMany(rows).then(
      () => null,
      (e: ApiError) => e,
    );
    expect(err?.fieldErrors).toEqual({ 'rows.7.images': { key: 'validation.file_not_found' } });
    const stream = async function* () {
      yield { payloads: rows.slice(0, 300), rowNumbers: rows.slice(0, 300).map((_, i) => i + 2) };
    };
    expect(
      (
        await repo.createStream(stream()).then(
          () => null,
          (e: ApiError) => e,
        )
      )?.fieldErrors,
    ).toEqual({ 'rows.8.images': { key: 'validation.file_not_found' } });
    rows[6] = planting();
    expect(await repo.createMany(rows)).toHaveLength(600);
  });
});
