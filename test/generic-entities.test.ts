import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { freeUniqueEnum, samplePayload } from './support/samples.ts';
import { filterMeta, fieldCaption } from '../api/meta/load.ts';
import { translate } from '../api/meta/captions.ts';
import { writableFields } from '../api/engine/payload-schema.ts';
import type { EntityMeta } from '../api/meta/types.ts';

/**
 * Every entity of the metadata, generically: list, sort, filter and paging in both protocols,
 * create, read, update (with a stale version refused), delete, validation errors in three
 * languages, export read back with exceljs, and 401/403/404. Grows by itself with the metadata.
 */
let api: TestApi;
let noActions: string;
beforeAll(async () => {
  api = await startTestApi();
  noActions = await api.userWithActions('nobody', []);
});
afterAll(async () => {
  await api?.close();
});

const entities = () => [...api.model.entities.values()];
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

function filterSample(e: EntityMeta, name: string, payload: Record<string, unknown>): Record<string, string> {
  const f = filterMeta(e.list.filters![name]);
  const col = (f.fields ?? [name])[0];
  const v = payload[col];
  switch (f.op) {
    case 'search':
      return { [name]: 'a' };
    case 'bool':
      return { [name]: 'true' };
    case 'range':
      return v == null ? {} : { [`from_${name}`]: String(v), [`to_${name}`]: String(v) };
    default:
      return v == null || typeof v === 'object' ? {} : { [name]: String(v) };
  }
}

describe('every entity through the generic API', () => {
  it('has entities to test', () => {
    expect(api.model.entities.size).toBeGreaterThan(20);
  });

  it('lists, sorts, filters and pages in both protocols', { timeout: 180_000 }, async () => {
    for (const e of entities()) {
      const path = `/api${e.path}`;
      const first = await api.get(`${path}?range=${enc([0, 4])}`);
      expect(first.status, `${e.name} list`).toBe(200);
      expect(first.headers.get('content-range'), e.name).toMatch(new RegExp(`^${e.name} (\\d+-\\d+|\\*)/\\d+$`));
      const sortable = new Set([...e.list.columns, ...(e.list.sortable ?? []), e.list.sort[0]]);
      for (const field of sortable) {
        for (const dir of ['ASC', 'DESC']) {
          const r = await api.get(`${path}?sort=${enc([field, dir])}&range=${enc([0, 9])}`);
          expect(r.status, `${e.name} sort ${field} ${dir}`).toBe(200);
        }
        const r2 = await api.get(`${path}?options=${encodeURIComponent(`sortBy=${field};descending=true;page=1;perPage=10`)}`);
        expect(r2.status, `${e.name} spec sort ${field}`).toBe(200);
      }
      const payload = await samplePayload(api.db.knex, api.model, e);
      for (const name of Object.keys(e.list.filters ?? {})) {
        const sample = filterSample(e, name, payload);
        const simple = await api.get(`${path}?filter=${enc(sample)}`);
        expect(simple.status, `${e.name} filter ${name} ${JSON.stringify(sample)}`).toBe(200);
        const spec = await api.get(`${path}?${new URLSearchParams(sample)}`);
        expect(spec.status, `${e.name} spec filter ${name}`).toBe(200);
        expect(spec.headers.get('content-range')).toBe(simple.headers.get('content-range'));
      }
    }
  });

  it('creates, reads, updates (409 when stale) and deletes a row of every entity', { timeout: 180_000 }, async () => {
    for (const e of entities()) {
      const path = `/api${e.path}`;
      if (e.access.create === undefined) {
        // nobody may create rows here (logs, the action catalogue): not even the administrator
        expect((await api.post(path, {})).status, `${e.name} create`).toBe(403);
        continue;
      }
      // a unique enum (e.g. one category per danger level) needs its seeded rows out of the way
      await freeUniqueEnum(api.db.knex, e);
      const payload = await samplePayload(api.db.knex, api.model, e);
      const created = await api.post(path, payload);
      expect(created.status, `${e.name} create ${JSON.stringify(created.body)}`).toBe(201);
      const id = created.body.id;
      expect(created.body.version).toBe(1);
      expect(created.body.created_by).toBeTypeOf('number');

      const got = await api.get(`${path}/${id}`);
      expect(got.status).toBe(200);
      for (const [name, f] of writableFields(e)) {
        if (f.type === 'password') {
          expect(got.body).not.toHaveProperty(name);
          continue;
        }
        if (f.type === 'decimal' || f.type === 'money') expect(Number(got.body[name]), `${e.name}.${name}`).toBe(Number(payload[name]));
        else if (f.type === 'text3') expect(got.body[name]).toMatchObject(payload[name] as object);
        // child rows come back with their ids, order and every column
        else if (f.type === 'children') expect(got.body[name], `${e.name}.${name}`).toMatchObject(payload[name] as object);
        else if (f.type === 'datetime') expect(Date.parse(got.body[name]), `${e.name}.${name}`).toBe(Date.parse(payload[name] as string));
        else expect(got.body[name], `${e.name}.${name}`).toEqual(payload[name]);
      }

      const many = await api.get(`${path}?filter=${enc({ id: [id] })}`);
      expect(many.body.map((r: { id: number }) => r.id)).toEqual([id]);

      if (e.access.update === undefined || e.access.delete === undefined) {
        // written once, never changed or removed (a chat's messages): not even by the administrator
        if (e.access.update === undefined) expect((await api.put(`${path}/${id}`, { ...got.body })).status, `${e.name} update`).toBe(403);
        if (e.access.delete === undefined) expect((await api.del(`${path}/${id}`)).status, `${e.name} delete`).toBe(403);
        if (e.access.update === undefined && e.access.delete === undefined) continue;
      }
      const updated = await api.put(`${path}/${id}`, { ...got.body });
      expect(updated.status, `${e.name} update ${JSON.stringify(updated.body)}`).toBe(200);
      expect(updated.body.version).toBe(2);
      const stale = await api.put(`${path}/${id}`, { ...got.body });
      expect(stale.status, `${e.name} stale update`).toBe(409);
      expect(stale.body.code).toBe(-106);
      const noVersion = await api.put(`${path}/${id}`, { ...got.body, version: undefined });
      expect(noVersion.status).toBe(400);

      expect((await api.del(`${path}/${id}`)).status).toBe(200);
      expect((await api.get(`${path}/${id}`)).status).toBe(404);
      expect((await api.del(`${path}/${id}`)).status).toBe(404);
      expect((await api.get(`${path}/abc`)).status).toBe(400);
    }
  });

  it('refuses missing required fields with messages in uz, uk and ru and writes nothing', async () => {
    for (const e of entities().filter((x) => x.access.create !== undefined)) {
      const required = writableFields(e)
        .filter(([, f]) => f.required && f.default === undefined && f.type !== 'boolean')
        .map(([n]) => n);
      if (!required.length) continue;
      const before = await api.db.knex(e.table).count({ n: '*' });
      const answers: Record<string, string> = {};
      for (const lang of ['uz', 'uk', 'ru']) {
        const r = await api.post(`/api${e.path}`, {}, { lang });
        expect(r.status, e.name).toBe(400);
        expect(r.body.code).toBe(-105);
        expect(Object.keys(r.body.errors).sort()).toEqual([...required].sort());
        answers[lang] = r.body.errors[required[0]];
        expect(answers[lang]).toBe(translate(api.model, lang as 'uz', 'validation.required'));
      }
      expect(answers.uz).toBe('Ushbu kiritma majburiy');
      expect(answers.ru).toBe('Обязательное поле');
      expect(answers.uk).toBe('Ушбу киритма мажбурий');
      expect(await api.db.knex(e.table).count({ n: '*' })).toEqual(before);
    }
  });

  it('refuses unknown sort and filter names with a 400, never SQL', async () => {
    for (const e of entities()) {
      const path = `/api${e.path}`;
      const sort = await api.get(`${path}?sort=${enc(['password_hash', 'ASC'])}`);
      expect(sort.status).toBe(400);
      expect(sort.body.code).toBe(-108);
      const inject = await api.get(`${path}?options=${encodeURIComponent('sortBy=id;drop table users;descending=false')}`);
      expect(inject.status).toBe(400);
      expect((await api.get(`${path}?nope=1`)).status).toBe(400);
      expect((await api.get(`${path}?filter=${enc({ 'id) or (1=1': 1 })}`)).status).toBe(400);
      expect((await api.get(`${path}?range=${enc([0, 500])}`)).status).toBe(400);
    }
  });

  it("exports the filtered list as an .xlsx with captions in the caller's language", { timeout: 180_000 }, async () => {
    for (const e of entities()) {
      const r = await api.get(`/api${e.path}/export?sort=${enc([e.list.sort[0], 'ASC'])}`, { lang: 'ru' });
      expect(r.status, e.name).toBe(200);
      expect(r.headers.get('content-type')).toContain('spreadsheetml');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(r.raw);
      const sheet = wb.worksheets[0];
      const headers = (sheet.getRow(1).values as unknown[]).slice(1);
      expect(headers).toEqual(
        e.list.columns.map((c) => translate(api.model, 'ru', e.fields[c] ? fieldCaption(c, e.fields[c]) : `fields.${c}`)),
      );
      const list = await api.get(`/api${e.path}?range=${enc([0, 99])}`);
      expect(sheet.rowCount - 1, e.name).toBe(Number(list.headers.get('x-total-count')));
    }
  });

  it('answers 401 without a token and 403 without the action id, for every route', async () => {
    for (const e of entities()) {
      const path = `/api${e.path}`;
      expect((await api.get(path, { token: '' })).status).toBe(401);
      for (const [method, p, body] of [
        ['GET', path],
        ['GET', `${path}/1`],
        ['GET', `${path}/export`],
        ['POST', path, {}],
        ['PUT', `${path}/1`, { version: 1 }],
        ['DELETE', `${path}/1`],
        ['POST', `${path}/delete-many`, { ids: [1] }],
      ] as const) {
        const r = await api.call(method, p, { token: noActions, body });
        expect(r.status, `${e.name} ${method} ${p}`).toBe(403);
        expect(r.body.code).toBe(-103);
      }
    }
  });
});
