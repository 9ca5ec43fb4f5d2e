import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { fixtureModel } from './support/fixture-model.ts';
import { createEntityTables } from '../api/db/entity-tables.ts';
import { seed } from '../seeds/index.ts';

/**
 * Row-level scopes declared in metadata and enforced in SQL: a subject user sees only their
 * subject's rows, a branch user their branch's, a regional user their region's, headquarters all
 * — in lists, exports and by id (404, not 403, for another's row).
 */
const fixture = JSON.parse(readFileSync(new URL('./fixtures/scoped-docs.json', import.meta.url), 'utf8'));
const captions = { 'entity.scoped-docs': 'Hujjatlar', 'fields.title': 'Sarlavha', 'fields.subject_id': 'Subyekt' };
const path = '/api/fixtures/scoped-docs';
const ACTIONS = [9101, 9102, 9103, 9104, 9105];
let api: TestApi;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
let subjectOne = 0;
let subjectTwo = 0;

beforeAll(async () => {
  const model = fixtureModel([fixture], { uz: captions, uk: captions, ru: captions });
  api = await startTestApi(model);
  await createEntityTables(api.db.knex, ['scoped-docs'], model);
  await seed(api.db.knex, model, {});
  const [r1, r2] = await api.db.knex('regions').orderBy('id').limit(2).pluck('id');
  const category = (await api.db.knex('subject_categories').first('id')).id;
  const [s1, s2] = await api.db
    .knex('subjects')
    .insert([
      { inn: '200000001', name: 'Subyekt 1', region_id: r1, category_id: category },
      { inn: '200000002', name: 'Subyekt 2', region_id: r1, category_id: category },
    ])
    .returning('id');
  const [b1] = await api.db
    .knex('branches')
    .insert([{ code: 'B1', name: JSON.stringify({ uz: 'Filial 1' }), region_id: r1 }])
    .returning('id');
  const rows = [
    { title: 'S1 doc', subject_id: s1.id, region_id: r1 },
    { title: 'S1 other', subject_id: s1.id, region_id: r2 },
    { title: 'S2 doc', subject_id: s2.id, region_id: r1 },
    { title: 'Branch doc', branch_id: b1.id, region_id: r1 },
    { title: 'Region 2 doc', region_id: r2 },
  ];
  for (const r of rows) ids[r.title] = (await api.db.knex('scoped_docs').insert(r).returning('id'))[0].id;
  tokens.s1 = await api.userWithActions('subject_1', ACTIONS, { subject_id: s1.id });
  tokens.s2 = await api.userWithActions('subject_2', ACTIONS, { subject_id: s2.id });
  subjectTwo = s2.id;
  subjectOne = s1.id;
  tokens.branch = await api.userWithActions('branch_1', ACTIONS, { branch_id: b1.id });
  tokens.region2 = await api.userWithActions('region_2', ACTIONS, { region_id: r2 });
  tokens.hq = await api.userWithActions('hq_user', ACTIONS);
});
afterAll(async () => {
  await api?.close();
});

const titles = async (who: string) => (await api.get(path, { token: tokens[who] })).body.map((r: { title: string }) => r.title).sort();

describe('row-level scopes', () => {
  it("lists each user's own rows", async () => {
    expect(await titles('s1')).toEqual(['S1 doc', 'S1 other']);
    expect(await titles('s2')).toEqual(['S2 doc']);
    expect(await titles('branch')).toEqual(['Branch doc']);
    expect(await titles('region2')).toEqual(['Region 2 doc', 'S1 other']);
    expect(await titles('hq')).toHaveLength(5);
  });

  it("answers 404, not 403, for another's row, in reads, updates and deletes", async () => {
    expect((await api.get(`${path}/${ids['S1 doc']}`, { token: tokens.s1 })).status).toBe(200);
    expect((await api.get(`${path}/${ids['S1 doc']}`, { token: tokens.s2 })).status).toBe(404);
    expect((await api.put(`${path}/${ids['S1 doc']}`, { title: 'x', version: 1 }, { token: tokens.s2 })).status).toBe(404);
    expect((await api.del(`${path}/${ids['S1 doc']}`, { token: tokens.s2 })).status).toBe(404);
    expect(
      (await api.get(`${path}?filter=${encodeURIComponent(JSON.stringify({ id: [ids['S1 doc']] }))}`, { token: tokens.s2 })).body,
    ).toEqual([]);
  });

  it("exports only the caller's rows", async () => {
    for (const [who, expected] of [
      ['s1', 2],
      ['s2', 1],
      ['hq', 5],
    ] as const) {
      const r = await api.get(`${path}/export`, { token: tokens[who] });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(r.raw);
      expect(wb.worksheets[0].rowCount - 1, who).toBe(expected);
    }
  });

  it("creates rows in the caller's own scope and refuses another's", async () => {
    const own = await api.post(path, { title: 'New S2' }, { token: tokens.s2 });
    expect(own.status).toBe(201);
    expect(own.body.subject_id).toBe(subjectTwo);
    expect((await api.post(path, { title: 'Forged', subject_id: subjectOne }, { token: tokens.s2 })).status).toBe(403);
    expect(await titles('s1')).toEqual(['S1 doc', 'S1 other']);
  });
});
