import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadMetadata } from '../api/meta/load.ts';
import { latinToCyrillic } from '../api/i18n/transliterate.ts';
import { readCaptions, writeCaptions } from './i18n-files.ts';

export interface MakeReferenceOptions {
  name: string;
  module: string;
  uz: string;
  ru: string;
  uk?: string;
  root: string;
  /** migration timestamp; defaults to now */
  now?: Date;
}

/** Where each module's reference books take their action ids: blocks of ten, one per book. */
const ACTION_BASES: Record<string, number> = { 'ecofund-sprav': 3000, 'ecoinspection-dictionaries': 3400 };
const OTHER_BASE = 7000;

/**
 * Scaffolds a reference book — code, name in three languages, active flag — as metadata, captions,
 * a menu item in its module's section and a migration that creates its table. After `migrate`
 * (and a restart) the book has its API, menu entry, list, form, filters and export.
 * Returns the files written, relative to root.
 */
export function makeReference(o: MakeReferenceOptions): string[] {
  if (!/^[a-z][a-z0-9-]*$/.test(o.name)) throw new Error(`"${o.name}": use lower-case letters, digits and dashes (e.g. tree-species)`);
  if (!/^[a-z][a-z0-9-]*$/.test(o.module)) throw new Error(`"${o.module}": not a module name`);
  const metaDir = join(o.root, 'metadata');
  const model = loadMetadata(metaDir);
  if (model.entities.has(o.name)) throw new Error(`entity "${o.name}" already exists`);
  const table = o.name.replace(/-/g, '_');
  if ([...model.entities.values()].some((e) => e.table === table)) throw new Error(`table "${table}" is already used`);

  const base = ACTION_BASES[o.module] ?? OTHER_BASE;
  const used = [...model.actions.keys()].filter((id) => id >= base && id < base + (ACTION_BASES[o.module] ? 400 : 3000));
  const block = (used.length ? Math.floor(Math.max(...used) / 10) * 10 : base - 10) + 10;
  const access = { read: block + 1, create: block + 2, update: block + 3, delete: block + 4, export: block + 5 };

  const entity = {
    $schema: '../../schema/entity.schema.json',
    name: o.name,
    module: o.module,
    kind: 'reference',
    caption: `entity.${o.name}`,
    access,
    fields: {
      code: { type: 'string', required: true, maxLength: 20, unique: true },
      name: { type: 'text3', required: true, maxLength: 500 },
      is_active: { type: 'boolean', default: true },
    },
    list: {
      columns: ['id', 'code', 'name', 'is_active'],
      sort: ['code', 'asc'],
      perPage: 25,
      filters: { q: { op: 'search', fields: ['code', 'name'], alwaysOn: true }, is_active: 'bool' },
    },
  };
  const written: string[] = [];
  const entityDir = join(metaDir, 'entities', o.module);
  mkdirSync(entityDir, { recursive: true });
  const entityFile = join(entityDir, `${o.name}.json`);
  writeFileSync(entityFile, `${JSON.stringify(entity, null, 2)}\n`);
  written.push(entityFile);

  const captions = { uz: o.uz, ru: o.ru, uk: o.uk ?? latinToCyrillic(o.uz) };
  for (const lang of ['uz', 'uk', 'ru'] as const) {
    const flat = readCaptions(o.root, lang);
    flat[`entity.${o.name}`] = captions[lang];
    writeCaptions(o.root, lang, flat);
    written.push(join(metaDir, 'i18n', `${lang}.json`));
  }

  const menuFile = join(metaDir, 'menu.json');
  if (existsSync(menuFile)) {
    const menu = JSON.parse(readFileSync(menuFile, 'utf8'));
    const section = menu.sections.find((s: { route: string }) => s.route === `/${o.module}`);
    if (section) {
      const ordering = Math.max(0, ...section.children.map((c: { ordering?: number }) => c.ordering ?? 0)) + 10;
      section.children.push({ route: o.name, caption: `entity.${o.name}`, action: access.read, entity: o.name, ordering });
      writeFileSync(menuFile, `${JSON.stringify(menu, null, 2)}\n`);
      written.push(menuFile);
    }
  }

  written.push(writeCreateMigration(o.root, table, o.name, `Reference book "${o.name}" (${o.uz})`, 'make:reference', o.now));
  loadMetadata(metaDir); // what was written must itself be valid
  return written.map((f) => relative(o.root, f));
}

/** A scaffolded migration creating one entity's tables (and dropping them on the way down); answers its path. */
export function writeCreateMigration(root: string, table: string, name: string, what: string, command: string, now?: Date): string {
  const stamp = (now ?? new Date()).toISOString().replace(/\D/g, '').slice(0, 14);
  const migrationsDir = join(root, 'migrations');
  mkdirSync(migrationsDir, { recursive: true });
  const migrationFile = join(migrationsDir, `${stamp}_create_${table}.ts`);
  writeFileSync(
    migrationFile,
    `import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/** ${what}, scaffolded by \`ecofond ${command}\`. */
export async function up(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(['${name}']);
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityTables(['${name}']);
}
`,
  );
  return migrationFile;
}
