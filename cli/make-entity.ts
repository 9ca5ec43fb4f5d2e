import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadMetadata } from '../api/meta/load.ts';
import { latinToCyrillic } from '../api/i18n/transliterate.ts';
import { readCaptions, writeCaptions } from './i18n-files.ts';
import { writeCreateMigration } from './make-reference.ts';

/**
 * `make:entity` and `make:module` (docs/reference-books.md), beside `make:reference`: scaffolds of
 * metadata, captions in uz / uk / ru (uk transliterated unless given), the menu, a migration and a
 * test, which check with the loader before they are left on disk.
 */

const KINDS = ['string', 'text', 'text3', 'integer', 'decimal', 'money', 'date', 'boolean', 'ref'] as const;

export interface FieldArg {
  name: string;
  type: (typeof KINDS)[number];
  ref?: string;
  uz?: string;
  ru?: string;
}

/** `name:type[=ref][:uz caption[:ru caption]]`, e.g. `region_id:ref=regions:Viloyat:Регион`. */
export function parseField(s: string): FieldArg {
  const [name, kind, uz, ru] = s.split(':');
  const [type, ref] = (kind ?? '').split('=');
  if (!/^[a-z][a-z0-9_]*$/.test(name ?? '')) throw new Error(`"${s}": a field is name:type (lower-case name)`);
  if (!(KINDS as readonly string[]).includes(type)) throw new Error(`"${s}": the type is one of ${KINDS.join(', ')}`);
  if (type === 'ref' && !ref) throw new Error(`"${s}": a ref names its entity (region_id:ref=regions)`);
  return { name, type: type as FieldArg['type'], ...(ref ? { ref } : {}), ...(uz ? { uz } : {}), ...(ru ? { ru } : {}) };
}

export interface MakeEntityOptions {
  name: string;
  module: string;
  uz: string;
  ru: string;
  uk?: string;
  kind?: 'reference' | 'document';
  fields: FieldArg[];
  root: string;
  now?: Date;
}

/** A free block of ten action ids from 7000 (the scaffolds' range). */
function actionBlock(used: number[], from = 7000, to = 7990): number {
  const taken = new Set(used);
  for (let b = from; b <= to; b += 10) if (![0, 1, 2, 3, 4, 5].some((i) => taken.has(b + i))) return b;
  throw new Error('no free block of action ids between 7000 and 7999');
}

function setCaptions(root: string, entries: Record<string, { uz: string; ru: string; uk?: string }>, keepExisting: boolean): string[] {
  const out: string[] = [];
  for (const lang of ['uz', 'uk', 'ru'] as const) {
    const flat = readCaptions(root, lang);
    for (const [key, c] of Object.entries(entries)) {
      if (keepExisting && key in flat) continue;
      flat[key] = lang === 'uk' ? (c.uk ?? latinToCyrillic(c.uz)) : c[lang];
    }
    writeCaptions(root, lang, flat);
    out.push(join(root, 'metadata', 'i18n', `${lang}.json`));
  }
  return out;
}

/**
 * An entity of any fields: its metadata (access ids, list, search and reference filters), captions
 * of the entity and of fields the catalogues do not name yet, a menu item in its module's section,
 * a migration creating its table, and a test creating, listing and exporting a row.
 */
export function makeEntity(o: MakeEntityOptions): string[] {
  if (!/^[a-z][a-z0-9-]*$/.test(o.name)) throw new Error(`"${o.name}": use lower-case letters, digits and dashes (e.g. tree-species)`);
  const metaDir = join(o.root, 'metadata');
  const model = loadMetadata(metaDir);
  if (model.entities.has(o.name)) throw new Error(`entity "${o.name}" already exists`);
  const table = o.name.replace(/-/g, '_');
  if ([...model.entities.values()].some((e) => e.table === table)) throw new Error(`table "${table}" is already used`);
  const section = model.menu.find((s) => s.route === `/${o.module}`);
  if (!section) throw new Error(`no menu section "/${o.module}": make it with \`ecofond make:module ${o.module}\``);
  for (const f of o.fields) if (f.ref && !model.entities.has(f.ref)) throw new Error(`field ${f.name}: no entity "${f.ref}"`);

  const block = actionBlock([...model.actions.keys()]);
  const access = { read: block + 1, create: block + 2, update: block + 3, delete: block + 4, export: block + 5 };
  const fields: Record<string, Record<string, unknown>> = {};
  if (!o.fields.some((f) => f.name === 'name')) fields.name = { type: 'text3', required: true, maxLength: 500 };
  const captions: Record<string, { uz: string; ru: string; uk?: string }> = { [`entity.${o.name}`]: { uz: o.uz, ru: o.ru, uk: o.uk } };
  const filters: Record<string, unknown> = {};
  for (const f of o.fields) {
    fields[f.name] = { type: f.type, ...(f.type === 'string' ? { maxLength: 255 } : {}), ...(f.ref ? { ref: f.ref } : {}) };
    captions[`fields.${f.name}`] = { uz: f.uz ?? f.name, ru: f.ru ?? f.uz ?? f.name };
    if (f.type === 'ref') filters[f.name] = 'eq';
    if (f.type === 'boolean') filters[f.name] = 'bool';
    if (f.type === 'date') filters[f.name] = 'range';
  }
  const searchable = Object.entries(fields)
    .filter(([, f]) => ['string', 'text3'].includes(String(f.type)))
    .map(([n]) => n);
  if (searchable.length) filters.q = { op: 'search', fields: searchable, alwaysOn: true };
  const entity = {
    $schema: '../../schema/entity.schema.json',
    name: o.name,
    module: o.module,
    kind: o.kind ?? 'document',
    caption: `entity.${o.name}`,
    access,
    fields,
    list: {
      columns: ['id', ...Object.keys(fields)],
      sort: ['id', 'desc'],
      perPage: 25,
      ...(Object.keys(filters).length ? { filters } : {}),
    },
  };
  const written: string[] = [];
  const entityDir = join(metaDir, 'entities', o.module);
  mkdirSync(entityDir, { recursive: true });
  const entityFile = join(entityDir, `${o.name}.json`);
  writeFileSync(entityFile, `${JSON.stringify(entity, null, 2)}\n`);
  written.push(entityFile);
  // a field's caption the catalogues already have is shared, not rewritten
  const entityOwn = { [`entity.${o.name}`]: captions[`entity.${o.name}`] };
  written.push(...setCaptions(o.root, entityOwn, false));
  setCaptions(o.root, Object.fromEntries(Object.entries(captions).filter(([k]) => k.startsWith('fields.'))), true);

  const menuFile = join(metaDir, 'menu.json');
  const menu = JSON.parse(readFileSync(menuFile, 'utf8'));
  const s = menu.sections.find((x: { route: string }) => x.route === `/${o.module}`);
  const ordering = Math.max(0, ...s.children.map((c: { ordering?: number }) => c.ordering ?? 0)) + 10;
  s.children.push({ route: o.name, caption: `entity.${o.name}`, action: access.read, entity: o.name, ordering });
  writeFileSync(menuFile, `${JSON.stringify(menu, null, 2)}\n`);
  written.push(menuFile);

  written.push(writeCreateMigration(o.root, table, o.name, `Entity "${o.name}" (${o.uz})`, 'make:entity', o.now));

  const testDir = join(o.root, 'test');
  mkdirSync(testDir, { recursive: true });
  const testFile = join(testDir, `${o.name}.test.ts`);
  writeFileSync(
    testFile,
    `import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { sampleValue } from './support/samples.ts';

/** "${o.name}" (${o.uz}), scaffolded by \`ecofond make:entity\`: a row made, listed, read back and exported. */
let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api?.close(); });

describe('${o.name}', () => {
  it('creates, lists, reads and exports a row', async () => {
    const e = api.model.entities.get('${o.name}')!;
    const refIds: Record<string, number> = {};
    for (const f of Object.values(e.fields)) if (f.type === 'ref' && f.ref) refIds[f.ref] = (await api.db.knex(api.model.entities.get(f.ref)!.table).first('id')).id;
    const body = Object.fromEntries(Object.entries(e.fields).map(([n, f]) => [n, sampleValue(n, f, refIds)]));
    const created = await api.post('/api' + e.path, body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await api.get('/api' + e.path)).body.some((r: { id: number }) => r.id === created.body.id)).toBe(true);
    expect((await api.get(\`/api\${e.path}/\${created.body.id}\`)).status).toBe(200);
    expect((await api.get(\`/api\${e.path}/export\`)).status).toBe(200);
  });
});
`,
  );
  written.push(testFile);
  loadMetadata(metaDir); // what was written must itself be valid
  return [...new Set(written)].map((f) => relative(o.root, f));
}

export interface MakeModuleOptions {
  name: string;
  uz: string;
  ru: string;
  uk?: string;
  icon?: string;
  root: string;
  now?: Date;
}

/**
 * A module: its routes file (one route, `GET /<module>/summary`, behind an action id of its own),
 * its folder in api/modules with a hook, the handler and a test, its registration, a menu section with
 * captions. Its first entity is `make:entity <name> --module <module>`.
 */
export function makeModule(o: MakeModuleOptions): string[] {
  if (!/^[a-z][a-z0-9-]*$/.test(o.name)) throw new Error(`"${o.name}": use lower-case letters, digits and dashes`);
  const metaDir = join(o.root, 'metadata');
  const model = loadMetadata(metaDir);
  const routesFile = join(metaDir, 'modules', `${o.name}.json`);
  if (existsSync(routesFile) || model.menu.some((s) => s.route === `/${o.name}`)) throw new Error(`module "${o.name}" already exists`);
  const ident = o.name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const key = o.name.replace(/-/g, '_');
  const action = actionBlock([...model.actions.keys()]);
  const written: string[] = [];

  writeFileSync(
    routesFile,
    `${JSON.stringify(
      {
        $schema: '../schema/module.schema.json',
        module: o.name,
        description: `${o.uz}: scaffolded by ecofond make:module.`,
        routes: [
          {
            name: 'summary',
            method: 'get',
            path: `/${o.name}/summary`,
            action,
            caption: `actions.${key}_summary`,
            body: 'none',
            handler: `${o.name}.summary`,
          },
        ],
      },
      null,
      2,
    )}\n`,
  );
  written.push(routesFile);

  const menuFile = join(metaDir, 'menu.json');
  const menu = JSON.parse(readFileSync(menuFile, 'utf8'));
  const ordering = Math.max(0, ...menu.sections.map((s: { ordering?: number }) => s.ordering ?? 0)) + 10;
  menu.sections.push({ route: `/${o.name}`, caption: `menu.${key}`, icon: o.icon ?? 'Folder', ordering, children: [] });
  writeFileSync(menuFile, `${JSON.stringify(menu, null, 2)}\n`);
  written.push(menuFile);
  written.push(
    ...setCaptions(
      o.root,
      {
        [`menu.${key}`]: { uz: o.uz, ru: o.ru, uk: o.uk },
        [`actions.${key}_summary`]: { uz: `${o.uz}: umumiy maʼlumot`, ru: `${o.ru}: сводка` },
      },
      false,
    ),
  );

  const dir = join(o.root, 'api', 'modules', o.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'hooks.ts'),
    `import type { Hook } from '../types.ts';

/**
 * ${o.uz}: the module's hooks, found by name — an entity of the module names one in its metadata
 * (\`"afterWrite": "${o.name}.written"\`, or a workflow action's \`hook\`). A hook runs in the write's
 * transaction, returns the values it computes and writes other entities through \`ctx.repo(...)\`.
 */
export const HOOKS: Record<string, Hook> = {
  '${o.name}.written': async () => {
    // nothing to compute yet: return the row's computed fields here ({ field: value })
  },
};
`,
  );
  written.push(join(dir, 'hooks.ts'));
  writeFileSync(
    join(dir, 'index.ts'),
    `import type { ModuleDef, RouteHandler } from '../types.ts';
import { translate } from '../../meta/captions.ts';
import { HOOKS } from './hooks.ts';

/** ${o.uz} (metadata/modules/${o.name}.json), scaffolded by \`ecofond make:module\`. */
const HANDLERS: Record<string, RouteHandler> = {
  '${o.name}.summary': async (ctx, { model, lang }) => {
    ctx.body = { module: '${o.name}', name: translate(model, lang, 'menu.${key}'), entities: [...model.entities.values()].filter((e) => e.module === '${o.name}').map((e) => e.name) };
  },
};

/** What start-up's registry (api/registry.ts) takes in from the module: its hooks and route handlers by name. */
export const ${ident}Module: ModuleDef = {
  name: '${o.name}',
  hooks: HOOKS,
  handlers: HANDLERS,
  // start-up work beyond names (subscribing to another module's callbacks), run once by the registry
  load: () => {},
};
`,
  );
  written.push(join(dir, 'index.ts'));
  writeFileSync(
    join(dir, `${o.name}.test.ts`),
    `import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';
import { buildRegistry } from '../../registry.ts';
import { loadMetadata } from '../../meta/load.ts';

/** Module "${o.name}", scaffolded by \`ecofond make:module\`: start-up registers it, and its route answers the administrator, and nobody unsigned. */
let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api?.close(); });

describe('module ${o.name}', () => {
  it('is registered by start-up: its hook and handler by name, the metadata checked against them', () => {
    const registry = buildRegistry();
    expect(registry.hooks['${o.name}.written']).toBeTypeOf('function');
    expect(registry.handlers['${o.name}.summary']).toBeTypeOf('function');
    expect(registry.check(loadMetadata())).toEqual([]);
  });

  it('answers its summary to the administrator only', async () => {
    const r = await api.get('/api/${o.name}/summary', { lang: 'ru' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ module: '${o.name}', name: ${JSON.stringify(o.ru)} });
    expect((await api.get('/api/${o.name}/summary', { token: '' })).status).toBe(401);
  });
});
`,
  );
  written.push(join(dir, `${o.name}.test.ts`));

  const indexFile = join(o.root, 'api', 'modules', 'index.ts');
  if (existsSync(indexFile)) {
    let src = readFileSync(indexFile, 'utf8');
    const imports = [...src.matchAll(/^import \{ \w+Module \} from '\.\/[\w-]+\/index\.ts';$/gm)];
    const last = imports.at(-1);
    if (!last || !/export const MODULES: ModuleDef\[\] = \[/.test(src))
      throw new Error(`${relative(o.root, indexFile)}: cannot find the MODULES list to register the module in`);
    const at = last.index! + last[0].length;
    src = `${src.slice(0, at)}\nimport { ${ident}Module } from './${o.name}/index.ts';${src.slice(at)}`;
    src = src.replace(/(export const MODULES: ModuleDef\[\] = \[[^\]]*)\]/, `$1, ${ident}Module]`);
    writeFileSync(indexFile, src);
    written.push(indexFile);
  }
  loadMetadata(metaDir);
  return written.map((f) => relative(o.root, f));
}
