import { PUBLIC_DATA, ensureVersionTriggers, publicTables } from './data-version.ts';
import type { Knex } from 'knex';
import { readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MetaModel } from '../meta/types.ts';
import { addEntityColumns, createEntityTables, dropEntityColumns, dropEntityTables } from './entity-tables.ts';
import { partitionByYear, unpartition } from './partitions.ts';

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/**
 * What a migration's `up(knex, h)` and `down(knex, h)` receive besides knex: the metadata-driven
 * table builder bound to the model being migrated. Migration files import nothing at run time,
 * so a scaffolded one works wherever it is written.
 */
export interface MigrationHelpers {
  model: MetaModel;
  createEntityTables(names: string[]): Promise<void>;
  dropEntityTables(names: string[]): Promise<void>;
  /** adds fields an existing entity gained since its table was made */
  addEntityColumns(name: string, fields: string[]): Promise<void>;
  dropEntityColumns(name: string, fields: string[]): Promise<void>;
  /** partitions a table by the year of a date column, rows, indexes, keys and triggers kept (api/db/partitions.ts) */
  partitionByYear(table: string, column: string): Promise<void>;
  /** makes a partitioned table one table again */
  unpartition(table: string): Promise<void>;
}

type MigrationModule = {
  up(knex: Knex, h: MigrationHelpers): Promise<void>;
  down?(knex: Knex, h: MigrationHelpers): Promise<void>;
};

class DirectorySource implements Knex.MigrationSource<string> {
  constructor(
    private dirs: string[],
    private model: MetaModel,
  ) {}
  async getMigrations(): Promise<string[]> {
    const files = this.dirs.flatMap((d) =>
      existsSync(d)
        ? readdirSync(d)
            .filter((f) => /^\d+_[\w-]+\.(ts|js|mjs)$/.test(f))
            .map((f) => join(d, f))
        : [],
    );
    return files.sort((a, b) => name(a).localeCompare(name(b)));
  }
  getMigrationName(file: string): string {
    return name(file);
  }
  async getMigration(file: string): Promise<Knex.Migration> {
    const mod = (await import(pathToFileURL(resolve(file)).href)) as MigrationModule;
    const helpers = (knex: Knex): MigrationHelpers => ({
      model: this.model,
      createEntityTables: (names) => createEntityTables(knex, names, this.model),
      dropEntityTables: (names) => dropEntityTables(knex, names, this.model),
      addEntityColumns: (n, fields) => addEntityColumns(knex, n, fields, this.model),
      dropEntityColumns: (n, fields) => dropEntityColumns(knex, n, fields, this.model),
      partitionByYear: (table, column) => partitionByYear(knex, table, column),
      unpartition: (table) => unpartition(knex, table),
    });
    return {
      up: (knex: Knex) => mod.up(knex, helpers(knex)),
      down: (knex: Knex) => (mod.down ? mod.down(knex, helpers(knex)) : Promise.resolve()),
    };
  }
}

const name = (file: string) =>
  file
    .split(/[\\/]/)
    .pop()!
    .replace(/\.(ts|js|mjs)$/, '');

export async function migrate(knex: Knex, model: MetaModel, dirs: string[] = [DEFAULT_MIGRATIONS_DIR]): Promise<string[]> {
  const [, done] = await knex.migrate.latest({ migrationSource: new DirectorySource(dirs, model), tableName: 'knex_migrations' });
  // the version triggers of the public statistics' tables follow the reports' metadata (api/db/data-version.ts)
  if (await knex.schema.hasTable('data_versions')) await ensureVersionTriggers(knex, PUBLIC_DATA, publicTables(model));
  return done as string[];
}

export async function rollbackAll(knex: Knex, model: MetaModel, dirs: string[] = [DEFAULT_MIGRATIONS_DIR]): Promise<void> {
  await knex.migrate.rollback({ migrationSource: new DirectorySource(dirs, model), tableName: 'knex_migrations' }, true);
}
