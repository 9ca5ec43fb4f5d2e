import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta, MetaModel } from '../meta/types.ts';
import { filterMeta, loadMetadata } from '../meta/load.ts';
import { searchExpression, refTable } from '../engine/sql.ts';
import { dropReferencesFrom, partitionedTables, referencePartitioned } from './partitions.ts';

/**
 * Creates the tables of the named entities from their metadata: columns by field kind, the
 * engine's system columns, foreign keys, unique indexes, one index per declared filter, sort
 * and scope column, CHECK constraints, and child tables with a cascading parent key.
 *
 * A migration calls this with the entities it introduces; it builds them from the metadata as it
 * is when the migration runs. A later change to an existing entity's fields needs a migration of
 * its own that alters the table (the schema-drift test shows what is missing).
 */
export async function createEntityTables(knex: Knex, names: string[], model: MetaModel = loadMetadata()): Promise<void> {
  await ensureExtensions(knex);
  for (const name of orderByReferences(names, model)) {
    const e = model.entities.get(name);
    if (!e) throw new Error(`createEntityTables: no entity "${name}" in the metadata`);
    await createEntityTable(knex, e, model);
  }
}

/**
 * The columns createEntityTable gives every entity's table beside its fields (the id, the version,
 * who made and changed the row and when, a soft delete's time): no field may be named as one.
 */
export const ENGINE_COLUMNS = ['id', 'version', 'created_at', 'updated_at', 'created_by', 'updated_by', 'deleted_at'] as const;

export async function dropEntityTables(knex: Knex, names: string[], model: MetaModel = loadMetadata()): Promise<void> {
  for (const name of orderByReferences(names, model).reverse()) {
    const e = model.entities.get(name);
    if (!e) continue;
    for (const [, f] of childFields(e))
      if (!f.parentKey) {
        await dropReferencesFrom(knex, f.table!);
        await knex.schema.dropTableIfExists(f.table!);
      }
    await dropReferencesFrom(knex, e.table);
    await knex.schema.dropTableIfExists(e.table);
  }
}

/**
 * Adds fields an existing entity gained to its table: the columns, as createEntityTables would
 * have made them, and their indexes (refs, points and polygons get one each).
 */
export async function addEntityColumns(knex: Knex, name: string, fields: string[], model: MetaModel = loadMetadata()): Promise<void> {
  const e = model.entities.get(name);
  if (!e) throw new Error(`addEntityColumns: no entity "${name}" in the metadata`);
  for (const field of fields) if (!e.fields[field]) throw new Error(`addEntityColumns: "${name}" has no field "${field}"`);
  // a database made after the field was declared has it already
  const missing: string[] = [];
  for (const field of fields) if (!(await knex.schema.hasColumn(e.table, field))) missing.push(field);
  if (!missing.length) return;
  const partitioned = await partitionedTables(knex);
  await knex.schema.alterTable(e.table, (t) => {
    for (const field of missing) addColumn(t as unknown as Knex.CreateTableBuilder, field, e.fields[field], model, knex, partitioned);
  });
  for (const field of missing) await referToPartitioned(knex, e.table, field, e.fields[field], model, partitioned);
  for (const field of missing) {
    const f = e.fields[field];
    const idx = `${e.table}_${field}_idx`;
    // a field added later is empty on the rows before it: a partial index skips them (and their inserts)
    if (f.type === 'ref' && !f.required)
      await knex.raw('CREATE INDEX ?? ON ?? (??, id) WHERE ?? IS NOT NULL', [idx, e.table, field, field]);
    else if (f.type === 'ref') await knex.raw('CREATE INDEX ?? ON ?? (??, id)', [idx, e.table, field]);
    else if (f.type === 'point' || f.type === 'polygon') await knex.raw('CREATE INDEX ?? ON ?? USING gist (??)', [idx, e.table, field]);
  }
}

/** Drops fields' columns (a migration's down of addEntityColumns). */
export async function dropEntityColumns(knex: Knex, name: string, fields: string[], model: MetaModel = loadMetadata()): Promise<void> {
  const e = model.entities.get(name);
  if (!e) return;
  for (const field of fields) await dropReferencesFrom(knex, e.table, field);
  await knex.schema.alterTable(e.table, (t) => {
    for (const field of fields) t.dropColumn(field);
  });
}

export async function ensureExtensions(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
}

function childFields(e: EntityMeta): [string, FieldMeta][] {
  return Object.entries(e.fields).filter(([, f]) => f.type === 'children');
}

/** Referenced entities first, so that foreign keys find their tables. */
function orderByReferences(names: string[], model: MetaModel): string[] {
  const wanted = new Set(names);
  const done = new Set<string>();
  const out: string[] = [];
  const visit = (n: string, path: string[]) => {
    if (done.has(n) || !wanted.has(n)) return;
    if (path.includes(n)) return; // a cycle: the later table adds its key when it is created
    const e = model.entities.get(n);
    if (e) {
      const deps = [...Object.values(e.fields), ...childFields(e).flatMap(([, c]) => Object.values(c.fields ?? {}))]
        .filter((f) => f.type === 'ref' && f.ref && f.ref !== n)
        .map((f) => f.ref!);
      for (const d of deps) visit(d, [...path, n]);
    }
    done.add(n);
    out.push(n);
  };
  for (const n of names) visit(n, []);
  return out;
}

/**
 * A reference to a partitioned table (api/db/partitions.ts) cannot be a foreign key: it is kept by
 * the triggers doing what the key would (the same constraint name, the same answers).
 */
async function referToPartitioned(
  knex: Knex,
  table: string,
  name: string,
  f: FieldMeta,
  model: MetaModel,
  partitioned: Set<string>,
): Promise<void> {
  if (f.type !== 'ref' || f.through || !partitioned.has(refTable(model, f.ref!))) return;
  await referencePartitioned(knex, table, name, refTable(model, f.ref!), f.onDelete ?? 'restrict');
}

function addColumn(
  t: Knex.CreateTableBuilder,
  name: string,
  f: FieldMeta,
  model: MetaModel,
  knex: Knex,
  partitioned: Set<string> = new Set(),
): void {
  let col: Knex.ColumnBuilder;
  switch (f.type) {
    case 'string':
      col = f.maxLength && f.maxLength > 2000 ? t.text(name) : t.string(name, f.maxLength ?? 255);
      break;
    case 'text':
    case 'password':
      col = t.text(name);
      break;
    case 'integer':
      col = t.integer(name);
      break;
    case 'decimal':
      col = t.decimal(name, f.precision ?? 20, f.scale ?? 4);
      break;
    case 'money':
      col = t.decimal(name, 18, 2);
      break;
    case 'boolean':
      col = t.boolean(name);
      break;
    case 'date':
      col = t.date(name);
      break;
    case 'datetime':
      col = t.timestamp(name, { useTz: true });
      break;
    case 'enum':
      col = t.string(name, 40);
      break;
    case 'text3':
    case 'json':
      col = t.jsonb(name);
      break;
    case 'ref': {
      col = t.bigInteger(name);
      const target = refTable(model, f.ref!);
      if (!partitioned.has(target))
        col
          .references('id')
          .inTable(target)
          .onDelete((f.onDelete ?? 'restrict').toUpperCase());
      break;
    }
    case 'file':
    case 'image':
      col = t.bigInteger(name);
      col.references('id').inTable('resources').onDelete('SET NULL');
      break;
    case 'refs':
    case 'files':
      if (f.through) return; // kept in its join table
      col = t.specificType(name, 'bigint[]');
      break;
    case 'point':
      col = t.specificType(name, 'point');
      break;
    case 'polygon':
      col = t.specificType(name, 'polygon');
      break;
    default:
      return;
  }
  if (f.lookup) {
    const [target, column] = f.lookup.split('.');
    col.references(column).inTable(refTable(model, target)).onDelete('RESTRICT').onUpdate('CASCADE');
  }
  if (f.required && !f.computedBy && !f.from) col.notNullable();
  else col.nullable();
  if (f.default !== undefined && f.type !== 'text3') {
    col.defaultTo(f.default as Knex.Value);
  } else if (f.default !== undefined) {
    col.defaultTo(knex.raw('?::jsonb', [JSON.stringify(f.default)]));
  }
  if (f.type === 'boolean' && f.default === undefined) col.notNullable().defaultTo(false);
}

async function createEntityTable(knex: Knex, e: EntityMeta, model: MetaModel): Promise<void> {
  if (e.view) return; // a view of a table its owner creates
  // a reference to a table a later migration makes is a field a later migration adds (addEntityColumns)
  const later = new Set<string>();
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.type !== 'ref' || f.through) continue;
    const target = refTable(model, f.ref!);
    if (target !== e.table && !(await knex.schema.hasTable(target))) later.add(name);
  }
  const partitioned = await partitionedTables(knex);
  await knex.schema.createTable(e.table, (t) => {
    t.bigIncrements('id');
    for (const [name, f] of Object.entries(e.fields)) if (!later.has(name)) addColumn(t, name, f, model, knex, partitioned);
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // who made and changed the row: a record of the past, not a key (migrations/20261203000200_actor_columns_unbound.ts)
    t.bigInteger('created_by').nullable();
    t.bigInteger('updated_by').nullable();
    if (e.softDelete) t.timestamp('deleted_at', { useTz: true }).nullable();
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.unique) t.unique([name], { indexName: `${e.table}_${name}_unique` });
      if (f.type === 'enum') t.check(`?? in (${f.values!.map(() => '?').join(', ')})`, [name, ...f.values!], `${e.table}_${name}_enum`);
    }
    for (const c of e.constraints ?? []) t.check(c.check, [], `${e.table}_${c.name}`);
  });
  await createIndexes(knex, e, later);
  for (const [name, f] of Object.entries(e.fields))
    if (!later.has(name)) await referToPartitioned(knex, e.table, name, f, model, partitioned);
  for (const f of Object.values(e.fields)) {
    if (!f.through || (await knex.schema.hasTable(f.through.table))) continue;
    const { table, key, refKey } = f.through;
    await knex.schema.createTable(table, (t) => {
      t.bigInteger(key).notNullable().references('id').inTable(e.table).onDelete('CASCADE');
      t.bigInteger(refKey).notNullable().references('id').inTable(refTable(model, f.ref!)).onDelete('CASCADE');
      t.primary([key, refKey]);
      t.index([refKey]);
    });
  }
  for (const [name, f] of childFields(e)) {
    // a child table with a key of its own is one the engine keeps: its migration makes it
    if (f.parentKey) continue;
    await knex.schema.createTable(f.table!, (t) => {
      t.bigIncrements('id');
      t.bigInteger('parent_id').notNullable().references('id').inTable(e.table).onDelete('CASCADE');
      t.integer('ordering').notNullable().defaultTo(0);
      for (const [cn, cf] of Object.entries(f.fields ?? {})) addColumn(t, cn, cf, model, knex, partitioned);
      t.index(['parent_id', 'ordering'], `${f.table}_parent_idx`);
    });
    for (const [cn, cf] of Object.entries(f.fields ?? {})) await referToPartitioned(knex, f.table!, cn, cf, model, partitioned);
    void name;
  }
}

/** One index per column a list filters, sorts or scopes on; trigram indexes for search filters. */
async function createIndexes(knex: Knex, e: EntityMeta, later: Set<string> = new Set()): Promise<void> {
  const cols = new Set<string>();
  const skip = new Set(
    Object.entries(e.fields)
      .filter(([, f]) => f.unique)
      .map(([n]) => n),
  );
  skip.add('id');
  for (const [name, raw] of Object.entries(e.list.filters ?? {})) {
    const f = filterMeta(raw);
    if (f.op === 'search') {
      const expr = searchExpression(e, f.fields ?? [name]);
      await knex.raw(`CREATE INDEX ?? ON ?? USING gin ((${expr}) gin_trgm_ops)`, [`${e.table}_${name}_search`, e.table]);
    } else {
      for (const c of f.fields ?? [name]) cols.add(c);
    }
  }
  for (const c of [e.list.sort[0], ...(e.list.sortable ?? []), ...Object.values(e.scope ?? {})]) cols.add(c);
  for (const [name, f] of Object.entries(e.fields))
    if (f.type === 'ref' || f.lookup || f.type === 'point' || f.type === 'polygon' || f.type === 'files') cols.add(name);

  // a scoped user's default list: their rows in the default order, without a scan of everyone's
  const sortCol = e.list.sort[0];
  for (const scopeCol of new Set(Object.values(e.scope ?? {}))) {
    // sorted by id, the scope column's own (scope, id) index below is that index already
    if (scopeCol !== sortCol && sortCol !== 'id' && e.fields[sortCol]?.type !== 'text3') {
      await knex.raw('CREATE INDEX ?? ON ?? (??, ??, id)', [`${e.table}_${scopeCol}_${sortCol}_idx`, e.table, scopeCol, sortCol]);
    }
  }
  for (const c of cols) {
    if (skip.has(c) || later.has(c)) continue;
    const f = e.fields[c];
    const idx = `${e.table}_${c}_idx`;
    if (f?.through) continue;
    if (f?.type === 'refs' || f?.type === 'files') await knex.raw('CREATE INDEX ?? ON ?? USING gin (??)', [idx, e.table, c]);
    else if (f?.type === 'point' || f?.type === 'polygon') await knex.raw('CREATE INDEX ?? ON ?? USING gist (??)', [idx, e.table, c]);
    else if (f?.type === 'text3') await knex.raw(`CREATE INDEX ?? ON ?? ((??->>'uz'))`, [idx, e.table, c]);
    else await knex.raw('CREATE INDEX ?? ON ?? (??, id)', [idx, e.table, c]);
  }
  // who may read a file is a look-up of the rows that hold it (api/engine/files.ts)
  for (const [name, f] of Object.entries(e.fields)) {
    if ((f.type === 'file' || f.type === 'image') && !later.has(name))
      await knex.raw('CREATE INDEX IF NOT EXISTS ?? ON ?? (??) WHERE ?? IS NOT NULL', [`${e.table}_${name}_idx`, e.table, name, name]);
  }
}
