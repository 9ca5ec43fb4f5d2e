import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { makeReference } from './make-reference.ts';
import { loadMetadata } from '../api/meta/load.ts';
import { migrate } from '../api/db/migrator.ts';
import { seed } from '../seeds/index.ts';
import { startTestApi, type TestApi } from '../test/support/api.ts';

/** `make:reference` writes a book that works end to end: table, API, menu, captions and export. */
const repo = fileURLToPath(new URL('../', import.meta.url));
let root: string;
let api: TestApi;
let written: string[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ecofond-scaffold-'));
  cpSync(join(repo, 'metadata'), join(root, 'metadata'), { recursive: true });
  cpSync(join(repo, 'migrations'), join(root, 'migrations'), { recursive: true });
  written = makeReference({
    name: 'shrub-kinds',
    module: 'ecofund-sprav',
    uz: 'Buta turlari',
    ru: 'Виды кустарников',
    root,
    now: new Date('2030-01-01T00:00:00Z'),
  });
  const model = loadMetadata(join(root, 'metadata'));
  api = await startTestApi(model);
  const done = await migrate(api.db.knex, model, [join(root, 'migrations')]);
  expect(done).toEqual(['20300101000000_create_shrub_kinds']);
  await seed(api.db.knex, model, {});
});
afterAll(async () => {
  await api?.close();
});

describe('make:reference', () => {
  it('writes metadata, captions in three languages, a menu item and a migration', () => {
    expect(written).toEqual([
      'metadata/entities/ecofund-sprav/shrub-kinds.json',
      'metadata/i18n/uz.json',
      'metadata/i18n/uk.json',
      'metadata/i18n/ru.json',
      'metadata/menu.json',
      'migrations/20300101000000_create_shrub_kinds.ts',
    ]);
    const uk = JSON.parse(readFileSync(join(root, 'metadata/i18n/uk.json'), 'utf8'));
    expect(uk.entity['shrub-kinds']).toBe('Бута турлари');
    expect(() => makeReference({ name: 'shrub-kinds', module: 'ecofund-sprav', uz: 'x', ru: 'x', root })).toThrow(/already exists/);
    expect(() => makeReference({ name: 'Bad Name', module: 'ecofund-sprav', uz: 'x', ru: 'x', root })).toThrow(/lower-case/);
  });

  it('is live after the migration: menu, metadata, CRUD, filters and export', async () => {
    const meta = await api.get('/api/meta', { lang: 'ru' });
    const entity = meta.body.entities.find((e: { name: string }) => e.name === 'shrub-kinds');
    expect(entity).toMatchObject({
      path: '/api/ecofund-sprav/shrub-kinds',
      can: { read: true, create: true, update: true, delete: true, export: true },
    });
    const sprav = meta.body.menu.find((s: { route: string }) => s.route === '/ecofund-sprav');
    expect(sprav.children.at(-1)).toMatchObject({ route: 'shrub-kinds', entity: 'shrub-kinds' });
    expect(meta.body.captions['entity.shrub-kinds']).toBe('Виды кустарников');

    const path = entity.path;
    const created = await api.post(path, { code: 'PIN', name: { uz: 'Qaragʻay', ru: 'Сосна' } });
    expect(created.status).toBe(201);
    expect((await api.post(path, { code: 'PIN', name: { uz: 'Yana' } })).body.errors).toEqual({ code: 'Bunday qiymat allaqachon mavjud' });
    expect((await api.get(`${path}?q=${encodeURIComponent("qarag'ay")}`)).body).toHaveLength(1);
    const x = await api.get(`${path}/export`, { lang: 'ru' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.raw);
    expect((wb.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual(['ID', 'Код', 'Наименование', 'Активен']);
    expect(wb.worksheets[0].getRow(2).getCell(3).value).toBe('Сосна');
    const actions = await api.db.knex('app_actions').where('module', 'ecofund-sprav').max('id as max').first();
    expect(entity.access.read).toBe(actions!.max - 4);
  });
});
