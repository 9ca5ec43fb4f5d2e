import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeEntity, makeModule, parseField } from './make-entity.ts';
import { loadMetadata } from '../api/meta/load.ts';
import { migrate } from '../api/db/migrator.ts';
import { seed } from '../seeds/index.ts';
import { startTestApi, type TestApi } from '../test/support/api.ts';
import { sampleValue } from '../test/support/samples.ts';

/** `make:module` then `make:entity` in it write a module and an entity that work end to end. */
const repo = fileURLToPath(new URL('../', import.meta.url));
let root: string;
let api: TestApi;
let moduleFiles: string[];
let entityFiles: string[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ecofond-make-entity-'));
  for (const d of ['metadata', 'migrations', 'api']) cpSync(join(repo, d), join(root, d), { recursive: true });
  moduleFiles = makeModule({ name: 'green-belts', uz: 'Yashil belbogʻlar', ru: 'Зелёные пояса', root });
  entityFiles = makeEntity({
    name: 'belt-plots',
    module: 'green-belts',
    uz: 'Belbogʻ uchastkalari',
    ru: 'Участки поясов',
    root,
    now: new Date('2030-01-02T00:00:00Z'),
    fields: ['region_id:ref=regions:Viloyat:Регион', 'area:decimal:Maydoni:Площадь', 'planted_on:date', 'is_active:boolean'].map(
      parseField,
    ),
  });
  const model = loadMetadata(join(root, 'metadata'));
  // the scaffolded module's handler is registered in the copy of api/modules/index.ts, not in this process's: its route is tried on its own below
  model.routes = model.routes.filter((r) => r.module !== 'green-belts');
  api = await startTestApi(model);
  expect(await migrate(api.db.knex, model, [join(root, 'migrations')])).toEqual(['20300102000000_create_belt_plots']);
  await seed(api.db.knex, model, {});
}, 120_000);
afterAll(async () => {
  await api?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('make:module and make:entity', () => {
  it('write the module, its registration, menu section and captions; the entity, its captions, menu item, migration and test', async () => {
    expect(moduleFiles).toEqual([
      'metadata/modules/green-belts.json',
      'metadata/menu.json',
      'metadata/i18n/uz.json',
      'metadata/i18n/uk.json',
      'metadata/i18n/ru.json',
      'api/modules/green-belts/hooks.ts',
      'api/modules/green-belts/index.ts',
      'api/modules/green-belts/green-belts.test.ts',
      'api/modules/index.ts',
    ]);
    expect(entityFiles).toEqual([
      'metadata/entities/green-belts/belt-plots.json',
      'metadata/i18n/uz.json',
      'metadata/i18n/uk.json',
      'metadata/i18n/ru.json',
      'metadata/menu.json',
      'migrations/20300102000000_create_belt_plots.ts',
      'test/belt-plots.test.ts',
    ]);
    const index = readFileSync(join(root, 'api/modules/index.ts'), 'utf8');
    expect(index).toContain("import { greenBeltsModule } from './green-belts/index.ts';");
    expect(index).toMatch(/MODULES: ModuleDef\[\] = \[[^\]]*, greenBeltsModule\]/);
    const uk = JSON.parse(readFileSync(join(root, 'metadata/i18n/uk.json'), 'utf8'));
    expect(uk.menu.green_belts).toBe('Яшил белбоғлар');
    expect(uk.entity['belt-plots']).toBe('Белбоғ участкалари');
    // a caption the catalogues have is shared, not rewritten
    expect(JSON.parse(readFileSync(join(root, 'metadata/i18n/ru.json'), 'utf8')).fields.region_id).toBe(
      JSON.parse(readFileSync(join(repo, 'metadata/i18n/ru.json'), 'utf8')).fields.region_id,
    );
    expect(() => makeModule({ name: 'green-belts', uz: 'x', ru: 'x', root })).toThrow(/already exists/);
    expect(() => makeEntity({ name: 'x-plots', module: 'no-such', uz: 'x', ru: 'x', root, fields: [] })).toThrow(/make:module/);
    expect(() => parseField('Area:decimal')).toThrow(/lower-case/);
    expect(() => parseField('region_id:ref')).toThrow(/names its entity/);
    // the module's handler, loaded from where it was written
    const mod = await import(pathToFileURL(join(root, 'api/modules/green-belts/index.ts')).href);
    const ctx = { body: undefined as unknown };
    await mod.greenBeltsModule.handlers['green-belts.summary'](ctx, { model: api.model, lang: 'ru' });
    expect(ctx.body).toEqual({ module: 'green-belts', name: 'Зелёные пояса', entities: ['belt-plots'] });
    // its hook, by the name an entity's afterWrite gives it
    expect(mod.greenBeltsModule.hooks['green-belts.written']).toBeTypeOf('function');
  });

  it('the entity is live after the migration: menu, CRUD with its reference, filters, export', async () => {
    const meta = await api.get('/api/meta', { lang: 'ru' });
    const entity = meta.body.entities.find((e: { name: string }) => e.name === 'belt-plots');
    expect(entity).toMatchObject({ path: '/api/green-belts/belt-plots', can: { read: true, create: true } });
    expect(meta.body.menu.find((s: { route: string }) => s.route === '/green-belts').children[0]).toMatchObject({ entity: 'belt-plots' });
    const e = api.model.entities.get('belt-plots')!;
    const region = (await api.db.knex('regions').first('id')).id;
    const body = Object.fromEntries(Object.entries(e.fields).map(([n, f]) => [n, sampleValue(n, f, { regions: region })]));
    const created = await api.post(entity.path, body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await api.get(`${entity.path}?region_id=${region}`)).body.map((r: { id: number }) => r.id)).toContain(created.body.id);
    expect((await api.get(`${entity.path}/export`)).status).toBe(200);
  });
});
