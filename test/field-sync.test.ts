import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { startTestApi, type TestApi } from './support/api.ts';
import { sampleFineArticle } from './support/samples.ts';
import { createUser } from '../cli/create-user.ts';
import { removeExpiredKeys } from '../api/engine/idempotency.ts';
import { removeFinished } from '../api/http/tus.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureMetaDir } from './support/fixture-model.ts';
import { loadMetadata } from '../api/meta/load.ts';
import { buildRegistry } from '../api/registry.ts';
import { MODULES } from '../api/modules/index.ts';

/**
 * Exactly once on the server (issue 30, docs/field-app.md): idempotent creates — a retry whose
 * first answer was lost, two requests racing with one key, a key reused for another body — a
 * create refused while one of its files is not a finished upload of the writer, and the conflict
 * a draft taken before a server-side edit comes back as.
 */
const OFFENCES = '/api/ecofund-offences/offences';
let api: TestApi;
let r1: number;
let fineId: number;
let fileType: number;
let insp: string;
let ecology: string;

const draft = (over: Record<string, unknown> = {}) => ({
  number: 'FS-1',
  offence_date: '2025-09-01',
  opened_on: '2025-09-02',
  region_id: r1,
  address: 'Chilonzor tumani',
  location: { lat: 41.3, lng: 69.2 },
  fine_id: fineId,
  fine_multiple: '6',
  offenders: [{ offender_kind: 'person', full_name: 'Aliyev Vali', passport: 'AA 1234567' }],
  witnesses: [{ full_name: 'Saidova Gulnora' }],
  ...over,
});

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);

async function upload(token: string, bytes = JPEG): Promise<number> {
  const res = await fetch(`${api.url}/api/resources/upload?name=photo.jpg`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
    body: bytes,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const rowsOf = async (number: string) => (await api.db.knex('offences').where({ number }).pluck('id')).map(Number);
const auditOf = async (ids: number[]) =>
  Number((await api.db.knex('audit_log').where({ entity: 'offences', op: 'create' }).whereIn('record_id', ids).count({ n: '*' }))[0].n);

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  [r1] = (await k('regions').orderBy('id').limit(1).pluck('id')).map(Number);
  fineId = await sampleFineArticle(k, 'FS-65-1');
  fileType = Number((await k('offence_files_type').first('id')).id);
  await createUser(k, { username: 'fs-insp', password: 'secret-pw', roles: ['inspector'], region_id: r1 });
  insp = await api.login('fs-insp', 'secret-pw');
  await createUser(k, { username: 'fs-eco', password: 'secret-pw', roles: ['ecology_staff'], region_id: r1 });
  ecology = await api.login('fs-eco', 'secret-pw');
});
afterAll(async () => {
  await api?.close();
});

describe('idempotent creates', () => {
  it('a retried create whose answer was lost gives one row and one audit row, and answers the first result', async () => {
    const key = randomUUID();
    const body = draft({ number: 'FS-RETRY' });
    const first = await api.post(OFFENCES, body, { token: insp, headers: { 'Idempotency-Key': key } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    // the device never saw that answer: it sends the same again, its keys in another order
    const again = await api.post(OFFENCES, Object.fromEntries(Object.entries(body).reverse()), {
      token: insp,
      headers: { 'Idempotency-Key': key },
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.offenders).toHaveLength(1);
    const ids = await rowsOf('FS-RETRY');
    expect(ids).toEqual([first.body.id]);
    expect(await auditOf(ids)).toBe(1);
    // the row as the caller may read it now: an edit made since shows in the replay
    const edited = await api.put(
      `${OFFENCES}/${first.body.id}`,
      { address: 'Yunusobod tumani', version: first.body.version },
      { token: insp },
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const later = await api.post(OFFENCES, body, { token: insp, headers: { 'Idempotency-Key': key } });
    expect(later.body).toMatchObject({ id: first.body.id, address: 'Yunusobod tumani' });
    expect(await rowsOf('FS-RETRY')).toHaveLength(1);
  });

  it('two requests racing with one key give one row, both answered with it', async () => {
    const key = randomUUID();
    const body = draft({ number: 'FS-RACE' });
    const answers = await Promise.all([0, 1, 2].map(() => api.post(OFFENCES, body, { token: insp, headers: { 'Idempotency-Key': key } })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(2);
    const ids = await rowsOf('FS-RACE');
    expect(ids).toHaveLength(1);
    expect(await auditOf(ids)).toBe(1);
  });

  it('the key with another body is a 422 in the caller\u2019s language; a malformed key is a 400 naming the header', async () => {
    const key = randomUUID();
    expect((await api.post(OFFENCES, draft({ number: 'FS-K1' }), { token: insp, headers: { 'Idempotency-Key': key } })).status).toBe(201);
    const other = await api.post(OFFENCES, draft({ number: 'FS-K2' }), { token: insp, lang: 'ru', headers: { 'Idempotency-Key': key } });
    expect(other.status).toBe(422);
    expect(other.body.message).toMatch(/Idempotency-Key уже использован/);
    expect(await rowsOf('FS-K2')).toEqual([]);
    for (const lang of ['uz', 'uk']) {
      const r = await api.post(OFFENCES, draft({ number: 'FS-K2' }), { token: insp, lang, headers: { 'Idempotency-Key': key } });
      expect(r.status).toBe(422);
      expect(r.body.message).not.toMatch(/errors\./);
    }
    const bad = await api.post(OFFENCES, draft({ number: 'FS-K3' }), { token: insp, headers: { 'Idempotency-Key': 'short' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['Idempotency-Key']);
    // keys are each user's: another user's same key is their own create
    const admin = await api.post(OFFENCES, draft({ number: 'FS-K1' }), { headers: { 'Idempotency-Key': key } });
    expect(admin.status).toBe(201);
    expect(admin.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await rowsOf('FS-K1')).toHaveLength(2);
  });

  it('a refused create keeps no key: its corrected retry is created', async () => {
    const key = randomUUID();
    const bad = await api.post(OFFENCES, draft({ number: 'FS-FIX', fine_multiple: '12' }), {
      token: insp,
      headers: { 'Idempotency-Key': key },
    });
    expect(bad.status).toBe(400);
    expect(await api.db.knex('idempotency_keys').where({ key }).first()).toBeUndefined();
    const ok = await api.post(OFFENCES, draft({ number: 'FS-FIX' }), { token: insp, headers: { 'Idempotency-Key': key } });
    expect(ok.status).toBe(201);
  });

  it('expired keys are removed by the cleanup; a retry after that is a new create', async () => {
    const key = randomUUID();
    const body = draft({ number: 'FS-OLD' });
    expect((await api.post(OFFENCES, body, { token: insp, headers: { 'Idempotency-Key': key } })).status).toBe(201);
    await api.db
      .knex('idempotency_keys')
      .where({ key })
      .update({ expires_at: api.db.knex.raw("now() - interval '1 minute'") });
    expect(await removeExpiredKeys(api.db.knex)).toBeGreaterThanOrEqual(1);
    const r = await api.post(OFFENCES, body, { token: insp, headers: { 'Idempotency-Key': key } });
    expect(r.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await rowsOf('FS-OLD')).toHaveLength(2);
  });
});

describe('a module route that creates', () => {
  it('claims the key with its create: a retry is replayed, one row', async () => {
    const dir = fixtureMetaDir([]);
    writeFileSync(
      join(dir, 'modules', 'test-field.json'),
      JSON.stringify({
        module: 'test-field',
        description: 'A route creating an offence as a module would, for the idempotency test.',
        routes: [
          {
            name: 'test-field-create',
            method: 'post',
            path: '/test-field/offences',
            entity: 'offences',
            op: 'create',
            handler: 'testField.create',
          },
        ],
      }),
    );
    const registry = buildRegistry([
      ...MODULES,
      {
        name: 'test-field',
        handlers: {
          'testField.create': async (ctx, { repo }) => {
            ctx.status = 201;
            ctx.body = { created: await repo().create(ctx.request.body as Record<string, unknown>) };
          },
        },
      },
    ]);
    const own = await startTestApi(loadMetadata(dir), registry);
    try {
      const k = own.db.knex;
      const [region] = (await k('regions').orderBy('id').limit(1).pluck('id')).map(Number);
      const [{ id: fine }] = await k('fine')
        .insert({ code: 'FS-M', article: '65', part: '1', name: JSON.stringify({ uz: 'X' }), min_multiple: '5', max_multiple: '10' })
        .returning('id');
      const body = { ...draft({ number: 'FS-MODULE', region_id: region, fine_id: fine }) };
      const key = randomUUID();
      const first = await own.post('/api/test-field/offences', body, { headers: { 'Idempotency-Key': key } });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      const again = await own.post('/api/test-field/offences', body, { headers: { 'Idempotency-Key': key } });
      expect(again.status).toBe(201);
      expect(again.headers.get('Idempotent-Replayed')).toBe('true');
      expect(again.body.id).toBe(first.body.created.id);
      expect((await k('offences').where({ number: 'FS-MODULE' }).pluck('id')).map(Number)).toEqual([first.body.created.id]);
      const other = await own.post('/api/test-field/offences', { ...body, address: 'boshqa' }, { headers: { 'Idempotency-Key': key } });
      expect(other.status).toBe(422);
    } finally {
      await own.close();
    }
  });
});

describe('the field forms of a planting finding and a felling violation', () => {
  const INSPECTIONS = '/api/ecofund-plantings/planting-inspections';
  const FELLINGS = '/api/ecofund-plantings/tree-cutting-violations';

  it('are created once with their photos, whatever the retries; an offence takes its witnesses and a type per photo', async () => {
    const k = api.db.knex;
    const species = Number((await k('tree_species').orderBy('id').first('id')).id);
    const me = Number((await k('users').where({ username: 'fs-insp' }).first('id')).id);
    const inspection = {
      inspected_on: '2025-09-01',
      // as the device sends it: the inspector is the signed-in user
      inspector_id: me,
      region_id: r1,
      trees_checked: 12,
      trees_alive: 10,
      trees_dead: 2,
      result: 'deficiencies',
      findings: 'FS-INSP: ikki koʻchat qurigan',
      images: [await upload(insp, Buffer.concat([JPEG, Buffer.from('insp')]))],
    };
    const felling = {
      found_on: '2025-09-02',
      region_id: r1,
      location: { lat: 41.3205, lng: 69.2401 },
      violator_kind: 'person',
      violator_name: 'FS-FELL Karimov',
      species_id: species,
      trees: 3,
      images: [await upload(insp, Buffer.concat([JPEG, Buffer.from('fell')]))],
    };
    for (const [path, table, body, column, value, wrong] of [
      [INSPECTIONS, 'planting_inspections', inspection, 'findings', inspection.findings, { trees_alive: 13 }],
      [FELLINGS, 'tree_cutting_violations', felling, 'violator_name', felling.violator_name, { trees: 0 }],
    ] as const) {
      const key = randomUUID();
      const answers = [];
      // the first answer lost, then two retries racing
      answers.push(await api.post(path, body, { token: insp, headers: { 'Idempotency-Key': key } }));
      answers.push(...(await Promise.all([0, 1].map(() => api.post(path, body, { token: insp, headers: { 'Idempotency-Key': key } })))));
      expect(
        answers.map((a) => a.status),
        `${path} ${JSON.stringify(answers[0].body)}`,
      ).toEqual([201, 201, 201]);
      expect(new Set(answers.map((a) => a.body.id)).size, path).toBe(1);
      expect(
        answers.filter((a) => a.headers.get('Idempotent-Replayed') === 'true'),
        path,
      ).toHaveLength(2);
      const ids = (
        await k(table)
          .where({ [column]: value })
          .pluck('id')
      ).map(Number);
      expect(ids, path).toEqual([answers[0].body.id]);
      expect(answers[0].body.images, path).toHaveLength(1);
      const entity = path === INSPECTIONS ? 'planting-inspections' : 'tree-cutting-violations';
      expect(Number((await k('audit_log').where({ entity, op: 'create', record_id: ids[0] }).count({ n: '*' }))[0].n), path).toBe(1);
      // refused while a field is wrong, in the caller's language, naming it; no key kept
      const badKey = randomUUID();
      const bad = await api.post(path, { ...body, ...wrong }, { token: insp, lang: 'ru', headers: { 'Idempotency-Key': badKey } });
      expect(bad.status, path).toBe(400);
      expect(Object.keys(bad.body.errors), path).toEqual(Object.keys(wrong));
      expect(await k('idempotency_keys').where({ key: badKey }).first(), path).toBeUndefined();
    }
    // the ecology staff may not record an inspector's finding
    expect((await api.post(INSPECTIONS, inspection, { token: ecology })).status).toBe(403);

    // an offence with a witness and two photos of different types
    const types = (await k('offence_files_type').orderBy('id').limit(2).pluck('id')).map(Number);
    const files = [
      {
        type_id: types[0],
        file: await upload(insp, Buffer.concat([JPEG, Buffer.from('w1')])),
        note: 'EXIF 2026-11-30 09:15 (UTC+5); GPS 41.3205, 69.2401',
      },
      { type_id: types[1] ?? types[0], file: await upload(insp, Buffer.concat([JPEG, Buffer.from('w2')])) },
    ];
    const body = draft({
      number: 'FS-WITNESS',
      witnesses: [{ full_name: 'Saidova Gulnora', phone: '901234567', passport: 'AB1234567' }],
      files,
    });
    const key = randomUUID();
    const first = await api.post(OFFENCES, body, { token: insp, headers: { 'Idempotency-Key': key } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await api.post(OFFENCES, body, { token: insp, headers: { 'Idempotency-Key': key } });
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.witnesses).toEqual([
      expect.objectContaining({ full_name: 'Saidova Gulnora', phone: '901234567', passport: 'AB1234567' }),
    ]);
    expect(again.body.files.map((f: { type_id: number; note: string | null }) => [f.type_id, f.note ?? null])).toEqual(
      files.map((f) => [f.type_id, f.note ?? null]),
    );
    expect(await rowsOf('FS-WITNESS')).toHaveLength(1);
    // a witness without a name is a 400 naming that witness's field
    const bad = await api.post(OFFENCES, draft({ number: 'FS-WITNESS2', witnesses: [{ full_name: '' }] }), { token: insp });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['witnesses.0.full_name']);
  });
});

describe('a record is created only with all its files', () => {
  it('a file id that is no finished upload of the writer is a 400 naming the field; the writer\u2019s own upload is taken', async () => {
    const mine = await upload(insp);
    const others = await upload(api.adminToken);
    for (const file of [others, 987654321]) {
      const r = await api.post(OFFENCES, draft({ number: 'FS-FILES', files: [{ type_id: fileType, file }] }), {
        token: insp,
        headers: { 'Idempotency-Key': randomUUID() },
      });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors)).toEqual(['files.0.file']);
    }
    expect(await rowsOf('FS-FILES')).toEqual([]);
    const ok = await api.post(OFFENCES, draft({ number: 'FS-FILES', files: [{ type_id: fileType, file: mine }] }), { token: insp });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.files[0].file).toBe(mine);
  });
});

const TUS = '/api/uploads/tus';
const tus = (method: string, path: string, token: string, headers: Record<string, string> = {}, body?: Buffer) =>
  fetch(api.url + path, {
    method,
    headers: { 'Tus-Resumable': '1.0.0', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body,
  });
const chunk = (location: string, token: string, offset: number, bytes: Buffer) =>
  tus('PATCH', location, token, { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(offset) }, bytes);

/** A PATCH whose connection drops after `sent` of its `bytes`: the device lost its signal mid-chunk. */
function interrupted(location: string, token: string, offset: number, bytes: Buffer, sent: number): Promise<void> {
  return new Promise((resolve) => {
    const req = request(api.url + location, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/offset+octet-stream',
        'Upload-Offset': String(offset),
        'Content-Length': String(bytes.length),
      },
    });
    req.on('error', () => resolve());
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.write(bytes.subarray(0, sent), () => setTimeout(() => req.destroy(), 150));
  });
}

describe('resumable uploads (tus)', () => {
  const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(300_000)]);
  const meta = `filename ${Buffer.from('IMG_0001.jpg').toString('base64')}`;

  it('uploads in chunks, resumes after an interrupted chunk, and the completion (also sent again) is one file of the uploader', async () => {
    expect((await tus('POST', TUS, '', { 'Upload-Length': String(photo.length), 'Upload-Metadata': meta })).status).toBe(401);
    const created = await tus('POST', TUS, insp, { 'Upload-Length': String(photo.length), 'Upload-Metadata': meta });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/api\/uploads\/tus\/\d+-[0-9a-f]+$/);
    // someone else's upload does not exist for them; nobody's without a token
    const other = await api.userWithActions('fs-other', []);
    expect((await tus('HEAD', location, other)).status).toBe(404);
    expect((await tus('HEAD', location, '')).status).toBe(401);
    const first = await chunk(location, insp, 0, photo.subarray(0, 100_000));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe('100000');
    // the second chunk is cut off midway
    await interrupted(location, insp, 100_000, photo.subarray(100_000, 200_000), 40_000);
    const head = await tus('HEAD', location, insp);
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(100_000);
    expect(offset).toBeLessThan(200_000);
    expect(head.headers.get('ecofond-resource-id')).toBeNull();
    // a create naming a file still uploading is refused: it is no file yet
    const early = await api.post(OFFENCES, draft({ number: 'FS-TUS', files: [{ type_id: fileType, file: 424242424242 }] }), {
      token: insp,
    });
    expect(early.status).toBe(400);
    expect(Object.keys(early.body.errors)).toEqual(['files.0.file']);
    // resumed from where the server is
    const last = await chunk(location, insp, offset, photo.subarray(offset));
    expect(last.status).toBe(204);
    const resourceId = Number(last.headers.get('ecofond-resource-id'));
    expect(resourceId).toBeGreaterThan(0);
    // the completion's answer was lost: sent again, and asked with HEAD, it is the same file
    const again = await chunk(location, insp, photo.length, Buffer.alloc(0));
    expect(Number(again.headers.get('ecofond-resource-id'))).toBe(resourceId);
    expect(Number((await tus('HEAD', location, insp)).headers.get('ecofond-resource-id'))).toBe(resourceId);
    const sha = (await api.db.knex('resources').where({ id: resourceId }).first()) as {
      sha256: string;
      created_by: number;
      mime: string;
      size: number;
    };
    expect(sha).toMatchObject({ mime: 'image/jpeg', size: photo.length });
    expect(Number(sha.created_by)).toBe(Number((await api.db.knex('users').where({ username: 'fs-insp' }).first('id')).id));
    expect(Number((await api.db.knex('resources').where({ sha256: sha.sha256 }).count({ n: '*' }))[0].n)).toBe(1);
    // the bytes are the photo's, read back as any file
    const back = await api.get(`/api/resources/${resourceId}`, { token: insp });
    expect(Buffer.from(back.raw).equals(photo)).toBe(true);
    // once its days are over, the finished upload's staged bytes go; the file stays
    expect(removeFinished(Date.now() + 1000)).toBeGreaterThanOrEqual(1);
    expect((await tus('HEAD', location, insp)).status).toBe(404);
    expect((await api.get(`/api/resources/${resourceId}`, { token: insp })).status).toBe(200);
    const ok = await api.post(OFFENCES, draft({ number: 'FS-TUS', files: [{ type_id: fileType, file: resourceId }] }), {
      token: insp,
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('refuses what a plain upload refuses: a type that is not allowed, a size over the limit, no name', async () => {
    const text = Buffer.from('just some text, not a photo');
    const created = await tus('POST', TUS, insp, { 'Upload-Length': String(text.length), 'Upload-Metadata': meta });
    const done = await chunk(created.headers.get('location')!, insp, 0, text);
    expect(done.status).toBe(400);
    expect(((await done.json()) as { errors: Record<string, string> }).errors.file).toBeTruthy();
    expect((await tus('POST', TUS, insp, { 'Upload-Length': String(500 * 1024 * 1024), 'Upload-Metadata': meta })).status).toBe(413);
    const nameless = await tus('POST', TUS, insp, { 'Upload-Length': '10' });
    expect(nameless.status).toBe(400);
  });
});

describe('reference data for the device', () => {
  it('answers the books a field form needs in the caller’s scope, and a 304 while nothing changed', async () => {
    const k = api.db.knex;
    const mine = await api.get('/api/field/reference', { token: insp });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const { books, version } = mine.body;
    expect(Object.keys(books).sort()).toEqual([
      'areas',
      'fine',
      'mahalla',
      'offence-files-type',
      'offence-type',
      'regions',
      'tree-species',
    ]);
    // an inspector of one region: their region, its districts and its mahallas only
    expect(books.regions.map((r: { id: number }) => Number(r.id))).toEqual([r1]);
    const areas = (await k('areas').where({ region_id: r1 }).pluck('id')).map(Number).sort((a, b) => a - b);
    expect(areas.length).toBeGreaterThan(0);
    expect(books.areas.map((r: { id: number }) => Number(r.id))).toEqual(areas);
    const mahallas = Number((await k('mahallas').where({ region_id: r1 }).count({ n: '*' }))[0].n);
    expect(books.mahalla).toHaveLength(mahallas);
    expect(books.mahalla.every((m: { region_id: number }) => Number(m.region_id) === r1)).toBe(true);
    // the create schemas of the field forms the caller may create: an inspector's offences, planting
    // findings and felling violations, not tree passports (the ecology staff's)
    expect(Object.keys(mine.body.schemas)).toEqual(['offences', 'planting-inspections', 'tree-cutting-violations']);
    expect(mine.body.schemas['planting-inspections'].required).toEqual(
      expect.arrayContaining(['inspected_on', 'region_id', 'trees_checked', 'trees_alive', 'result', 'findings']),
    );
    expect(mine.body.schemas['tree-cutting-violations'].required).toEqual(
      expect.arrayContaining(['found_on', 'region_id', 'violator_kind', 'violator_name', 'trees']),
    );
    expect(mine.body.schemas.offences.properties.witnesses.items.required).toEqual(['full_name']);
    // the ecology staff: tree passports and felling violations, no offences nor planting findings
    const eco = await api.get('/api/field/reference', { token: ecology });
    expect(Object.keys(eco.body.schemas)).toEqual(['plantings', 'tree-cutting-violations']);
    expect(mine.body.schemas.offences.required).toEqual(expect.arrayContaining(['number', 'region_id', 'fine_id', 'fine_multiple']));
    // the articles with their fine intervals
    expect(books.fine.find((f: { code: string }) => f.code === 'FS-65-1')).toMatchObject({ min_multiple: '5.00', max_multiple: '10.00' });
    // the whole country for the administrator
    const all = await api.get('/api/field/reference');
    expect(Object.keys(all.body.schemas).sort()).toEqual(['offences', 'planting-inspections', 'plantings', 'tree-cutting-violations']);
    expect(all.body.books.regions.length).toBe(Number((await k('regions').count({ n: '*' }))[0].n));
    expect(all.body.version).not.toBe(version);
    // unchanged: 304, by ETag or by the version the device keeps
    const etag = mine.headers.get('etag')!;
    expect(etag).toBe(`"${version}"`);
    expect((await api.get('/api/field/reference', { token: insp, headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await api.get(`/api/field/reference?since=${version}`, { token: insp })).status).toBe(304);
    expect((await api.get('/api/field/reference?since=not-a-version', { token: insp })).status).toBe(400);
    // a book changed: a new version
    await k('fine').where({ code: 'FS-65-1' }).update({ max_multiple: '12' });
    const changed = await api.get('/api/field/reference', { token: insp, headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.body.version).not.toBe(version);
    expect((await api.get('/api/field/reference', { token: '' })).status).toBe(401);
  });
});

describe('conflicts', () => {
  it('a draft taken before a server-side edit comes back as a 409 with the current row and the fields that differ', async () => {
    const created = await api.post(OFFENCES, draft({ number: 'FS-CONFLICT' }), { token: insp });
    const taken = created.body;
    // someone edits the record on the server
    const server = await api.put(`${OFFENCES}/${taken.id}`, { address: 'Mirobod tumani', fine_multiple: '8', version: taken.version });
    expect(server.status, JSON.stringify(server.body)).toBe(200);
    // the device sends its draft, edited from the version it took
    const mine = await api.put(
      `${OFFENCES}/${taken.id}`,
      { address: 'Sergeli tumani', fine_multiple: '6', number: 'FS-CONFLICT', version: taken.version },
      { token: insp, lang: 'ru' },
    );
    expect(mine.status).toBe(409);
    expect(mine.body.message).toMatch(/изменена другим пользователем/);
    expect(mine.body.current).toMatchObject({ id: taken.id, address: 'Mirobod tumani', fine_multiple: '8.00', version: taken.version + 1 });
    expect(mine.body.version).toBe(taken.version + 1);
    expect([...mine.body.differs].sort()).toEqual(['address', 'fine_multiple']);
    // personal fields of the current row are shown as the caller may see them
    expect(mine.body.current.offenders[0].full_name).toBeDefined();
    // nothing was overwritten
    expect((await api.get(`${OFFENCES}/${taken.id}`)).body.address).toBe('Mirobod tumani');
  });
});
