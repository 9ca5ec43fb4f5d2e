import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta, Lang, MetaModel } from '../meta/types.ts';
import { bookFile, DEFAULT_META_DIR, MetadataInvalid, type DbBook } from '../meta/load.ts';
import { bookProblems, loaderText, specToBook, BOOK_ACTIONS_FROM, BOOK_ACTIONS_TO, type BookProblem } from '../meta/books.ts';
import { buildModel, META_CHANNEL, readBooks, reloadAfterCommit, type LiveModel } from '../meta/live.ts';
import { announceAuthChange } from '../auth/session-cache.ts';
import pg from 'pg';
import { addEntityColumns, createEntityTables, dropEntityTables, ENGINE_COLUMNS } from '../db/entity-tables.ts';
import { syncActions } from '../db/actions.ts';
import { ApiError, validationError, type FieldError } from '../kernel/errors.ts';
import type { Principal } from '../auth/ability.ts';
import { pluginsOf, Repository, type HookContext, type HookResult } from './repository.ts';
import { LIST_PARAMS } from './list-params.ts';

/**
 * The database-held reference books (docs/reference-books.md). Their rows are the `meta-books`
 * entity's, written like every row through the Repository (the caller's right before and after,
 * validation, one audit row, one transaction); the entity's hooks do what a book's change means
 * for the database, in that transaction and under one advisory lock (so two processes never change
 * books at once): the new model is built and checked with the files' JSON Schema and second pass,
 * the book's table is made or altered (or dropped), its action ids put in the catalogue and granted
 * to the administrators' role, and the other processes notified (NOTIFY is delivered on commit).
 * Only after the commit is the new model swapped in.
 */

/** The caption key and arguments of a problem: its own, or the loader's text under its pointer. */
export const problemText = (p: BookProblem): FieldError =>
  p.key
    ? { key: p.key, args: p.args }
    : (loaderText(p.message) ?? { key: 'errors.book_problem', args: { pointer: p.pointer || '/', message: p.message } });

/**
 * The book's definition does not check: every problem, as the files' loader says them. A 400: the
 * screen's call puts each beside its input (api/modules/system/books.ts); the generic route of
 * `meta-books` (a book by its name alone) says them under `name`, or `definition`.
 */
export class BookInvalid extends ApiError {
  constructor(readonly problems: BookProblem[]) {
    const errors: Record<string, FieldError> = {};
    for (const p of problems) errors[p.pointer === '/name' ? 'name' : 'definition'] ??= problemText(p);
    super('validation', 'errors.validation', {}, errors, 'errors.validation_description');
    this.message = problems.map((p) => `${p.file}: ${p.pointer || '/'}: ${p.message}`).join('\n');
    this.name = 'BookInvalid';
  }
}

const refused = (key: string, args: Record<string, unknown>) => new ApiError('inUse', key, args);

/** The entity of the books' rows (metadata/entities/admin/meta-books.json): their one write path is the Repository's. */
export const BOOKS_ENTITY = 'meta-books';

export interface BookWriter {
  knex: Knex;
  live: LiveModel;
  /** who makes the change: their right (the entity's create, update or delete) is checked and the audit row is theirs */
  principal: Principal;
  lang?: Lang;
  /** a write on someone's behalf whose right was checked elsewhere (the CLI's meta:import) */
  trusted?: boolean;
}

/** What the save's hook is told beside the row: a book the files hold may be taken in (meta:import). */
const saving = new AsyncLocalStorage<{ fromFiles?: boolean }>();

/** A free block of ten action ids for a new book. */
function freeBlock(model: MetaModel, taken: DbBook[]): Record<'read' | 'create' | 'update' | 'delete' | 'export', number> {
  const used = new Set<number>([...model.actions.keys()]);
  for (const b of taken) for (const id of Object.values((b.definition.access ?? {}) as Record<string, number>)) used.add(id);
  for (let block = BOOK_ACTIONS_FROM; block <= BOOK_ACTIONS_TO; block += 10) {
    if (![1, 2, 3, 4, 5].some((i) => used.has(block + i)))
      return { read: block + 1, create: block + 2, update: block + 3, delete: block + 4, export: block + 5 };
  }
  throw new Error('no free action ids left for reference books');
}

const repoOf = (w: BookWriter, trx: Knex.Transaction) => {
  const model = w.live.current;
  return new Repository(
    { knex: w.knex, model, principal: w.principal, lang: w.lang ?? 'uz', trx, trusted: w.trusted },
    model.entities.get(BOOKS_ENTITY)!,
  );
};

/**
 * Saves a book (new or changed) through the Repository: the caller's right to create or update
 * `meta-books` checked before and after, one audit row, one transaction — the book's table, action
 * ids, grants and the other processes' notice are its hook's (`system.bookSaved`, below), in the
 * same transaction. `access` in its definition is filled in by the hook: kept from the stored book,
 * or a free block for a new one. `fromFiles` lets a book the files already hold (meta:import) be
 * taken into the database. Returns the stored book.
 */
export async function saveBook(w: BookWriter, input: DbBook, o: { fromFiles?: boolean } = {}): Promise<DbBook> {
  const saved = await w.knex.transaction(async (trx) => {
    await lock(trx);
    const old = await trx('meta_books').where({ name: input.name }).first('id');
    const values = { name: input.name, definition: input.definition, captions: input.captions, menu: input.menu ?? null };
    const opts = { fields: ['definition', 'captions', 'menu'], action: o.fromFiles ? 'import' : undefined };
    const repo = repoOf(w, trx);
    await saving.run({ fromFiles: o.fromFiles }, () =>
      old ? repo.update(old.id, values, undefined, { ...opts, anyVersion: true }) : repo.create(values, opts),
    );
    return (await readBooks(trx)).find((b) => b.name === input.name)!;
  });
  await w.live.reload();
  return saved;
}

/** Removes a book through the Repository (its hook `system.bookRemoved` refuses it while it holds rows or another entity refers to it). */
export async function deleteBook(w: BookWriter, name: string): Promise<void> {
  await w.knex.transaction(async (trx) => {
    await lock(trx);
    const row = await trx('meta_books').where({ name }).first('id');
    if (!row) throw new ApiError('notFound');
    await repoOf(w, trx).remove([row.id]);
  });
  await w.live.reload();
}

const bookOfRow = (r: Record<string, unknown>): DbBook => ({
  name: String(r.name),
  definition: (r.definition ?? {}) as Record<string, unknown>,
  captions: (r.captions ?? {}) as DbBook['captions'],
  ...(r.menu ? { menu: r.menu as DbBook['menu'] } : {}),
});

/** The entity a stored book is in the model as it stood; built from the stored books when the model has not caught up yet. */
function entityBefore(model: MetaModel, books: DbBook[], name: string): EntityMeta | undefined {
  const e = model.entities.get(name);
  if (e || !books.some((b) => b.name === name)) return e;
  return build(model, books).entities.get(name);
}

/**
 * `meta-books`' afterWrite hook: the book's DDL and its catalogue, in the write's transaction. The
 * new model is built with the book and checked (the files' schema and second pass: BookInvalid with
 * every problem); the table is made or altered; its action ids go in the catalogue and to the
 * administrators' role; the other processes are told (NOTIFY, on commit). A book written by its
 * name alone (the generic `POST /api/admin/meta-books`) is an empty one — code and name — in the
 * reference books' section, captioned with its name. Answers the stored definition with its action ids.
 */
export async function bookSaved(ctx: HookContext): Promise<HookResult> {
  const { trx, model, row, before } = ctx;
  await lock(trx);
  const name = String(row.name);
  if (before && before.name !== row.name) throw validationError({ name: { key: 'errors.book_name_fixed' } });
  const o = saving.getStore() ?? {};
  const stored = await readBooks(trx);
  const others = stored.filter((b) => b.name !== name);
  let book = bookOfRow(row);
  if (!book.definition.fields) {
    book = specToBook(
      { name, section: DEFAULT_SECTION, caption: { uz: name, ru: name }, fields: [] },
      { read: 0, create: 0, update: 0, delete: 0, export: 0 },
    );
    delete (book.definition as { access?: unknown }).access;
  }
  const old = before ? bookOfRow(before) : undefined;
  const fileHeld = model.entities.get(name);
  if (!old && fileHeld && !fileHeld.book && !o.fromFiles)
    throw new BookInvalid([
      {
        file: bookFile(name),
        pointer: '/name',
        message: `"${name}" is an entity of the metadata files`,
        key: 'errors.book_file_held',
        args: { book: name },
      },
    ]);
  const table = String(book.definition.table ?? name.replace(/-/g, '_'));
  await ownTable(trx, model, name, table, fileHeld && !fileHeld.book ? fileHeld : undefined, !!old || !!o.fromFiles);
  await reservedColumns(trx, name, book.definition.fields as Record<string, unknown>);
  const kept = old?.definition.access ?? (fileHeld ? fileHeld.access : undefined);
  const given = o.fromFiles && !kept ? (book.definition.access as Record<string, number> | undefined) : undefined;
  if (given) {
    const taken = Object.entries(given).filter(
      ([, id]) => model.actions.has(id) || others.some((b) => Object.values((b.definition.access ?? {}) as object).includes(id)),
    );
    if (taken.length)
      throw new BookInvalid(
        taken.map(([op]) => ({ file: bookFile(name), pointer: `/access/${op}`, message: `action id ${given[op]} is already used` })),
      );
  }
  const access = (kept ?? given ?? freeBlock(model, others)) as Record<string, number>;
  book = { ...book, definition: { ...book.definition, access } };
  const next = build(model, [...others, book], book);
  const was = old ? entityBefore(model, [...others, old], name) : fileHeld;
  await alterTable(trx, next.entities.get(name)!, next, was).catch((err) => {
    // a relation of the same name the book's table would make (an index, a sequence) that no check above foresaw
    const code = (err as { code?: string }).code;
    if (code !== '42P07' && code !== '42710') throw err;
    throw new BookInvalid([
      {
        file: bookFile(name),
        pointer: '/name',
        message: String((err as Error).message),
        key: 'errors.book_table_taken',
        args: { table, by: /"([^"]+)"/.exec(String((err as Error).message))?.[1] ?? table },
      },
    ]);
  });
  await syncActions(trx, next);
  await grantToAdministrators(trx, Object.values(access));
  await told(trx);
  return { definition: book.definition, captions: book.captions, menu: book.menu ?? null };
}

/** `meta-books`' beforeDelete hook: refused while the book holds rows or another entity refers to it; else its table dropped and its actions out of the catalogue. */
export async function bookRemoved(ctx: HookContext): Promise<void> {
  const { trx, model, row } = ctx;
  await lock(trx);
  const name = String(row.name);
  const stored = await readBooks(trx);
  const e = entityBefore(model, stored, name);
  const by = [...model.entities.values()].filter((x) => x.name !== name && refersTo(x, name)).map((x) => x.name);
  if (by.length) throw refused('errors.book_referenced', { book: name, by: by.join(', ') });
  // a table the book did not make (a file's, or the system's it once took) is never dropped, nor counted
  const own = !!e && (await tableMark(trx, e.table)) === bookTableMark(name);
  if (e && own) {
    const [{ n }] = await trx(e.table).count<{ n: number }[]>({ n: '*' });
    if (Number(n) > 0) throw refused('errors.book_has_rows', { book: name, count: Number(n) });
  }
  const next = build(
    model,
    stored.filter((b) => b.name !== name),
  );
  if (e && own) await dropEntityTables(trx, [name], entityModel(model, e));
  await syncActions(trx, next);
  await told(trx);
}

/**
 * The mark a book's table carries (its comment, set when the book makes it): the one table the
 * book may alter freely and the only one its removal drops. Migration
 * 20261204000100_book_tables_marked marks the tables of books stored before the mark.
 */
export const bookTableMark = (name: string) => `ecofond:book:${name}`;

/** The comment of a table of the schema (null without a table or a comment). */
async function tableMark(trx: Knex.Transaction, table: string): Promise<string | null> {
  const { rows } = await trx.raw(
    `SELECT obj_description(c.oid, 'pg_class') AS mark FROM pg_class c
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ? AND c.relkind IN ('r', 'p')`,
    [table],
  );
  return rows[0]?.mark ?? null;
}

/**
 * What holds a name a book's table would take, read from the database's own catalogue (so a table
 * added next year is protected as it is made) and the model: a relation of the schema (table,
 * partitioned table, partition, view, materialized view, sequence, index, foreign table), a type,
 * a future partition of a partitioned table (`<table>_y2031`, `<table>_other`), a schema, a
 * relation of pg_catalog or information_schema, any `pg_` name, a table an entity of the model
 * uses (its own, a child table, a join table). Undefined when the name is free.
 */
export async function tableHolder(
  db: Knex | Knex.Transaction,
  table: string,
  model: MetaModel,
  book?: string,
): Promise<string | undefined> {
  if (table.startsWith('pg_')) return 'PostgreSQL';
  for (const e of model.entities.values()) {
    if (e.name === book) continue;
    const tables = [e.table, ...Object.values(e.fields).flatMap((f) => [f.table, f.through?.table])];
    if (tables.includes(table)) return e.name;
  }
  const { rows } = await db.raw(
    `WITH t AS (SELECT ?::text AS name)
    SELECT c.relname AS holder FROM t, pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE (n.nspname = current_schema() AND (c.relname = t.name OR (c.relkind = 'p' AND left(t.name, length(c.relname) + 1) = c.relname || '_')))
        OR (n.nspname IN ('pg_catalog', 'information_schema') AND c.relname = t.name)
    UNION ALL SELECT ty.typname FROM t, pg_type ty WHERE ty.typnamespace = current_schema()::regnamespace AND ty.typname = t.name
    UNION ALL SELECT n.nspname FROM t, pg_namespace n WHERE n.nspname = t.name
    LIMIT 1`,
    [table],
  );
  return rows[0]?.holder;
}

/**
 * A book's table is its own: the one it made (its mark says so), or — for a book the files hold
 * too (meta:import) — the files' entity's; any other name the system holds is refused, 400 under
 * `name`, before anything is written.
 */
async function ownTable(
  trx: Knex.Transaction,
  model: MetaModel,
  name: string,
  table: string,
  fileHeld: EntityMeta | undefined,
  existing: boolean,
): Promise<void> {
  if ((await tableMark(trx, table)) === bookTableMark(name)) return;
  if (existing && table === (fileHeld ?? filesEntity(model, name))?.table) return;
  const by = await tableHolder(trx, table, model, name);
  if (by)
    throw new BookInvalid([
      {
        file: bookFile(name),
        pointer: '/name',
        message: `table "${table}" is held by "${by}"`,
        key: 'errors.book_table_taken',
        args: { table, by },
      },
    ]);
}

/** The entity of that name the metadata files hold, if any (a book also written as a file). */
function filesEntity(model: MetaModel, name: string): EntityMeta | undefined {
  if (!model.entities.get(name)?.book) return undefined;
  try {
    return buildModel(model.dir ?? DEFAULT_META_DIR, [], pluginsOf(model)).entities.get(name);
  } catch {
    return undefined;
  }
}

/**
 * No field is named as a column every table has (PostgreSQL's system columns, read from the
 * catalogue: `ctid`, `xmin`, `tableoid`…), one the engine gives every entity's table (the id, the
 * version, the times and authors) or a list's query parameter: 400 under the field.
 */
async function reservedColumns(trx: Knex.Transaction, name: string, fields: Record<string, unknown> = {}): Promise<void> {
  // every table has the same system columns: those of the books' own table, by its index
  const { rows } = await trx.raw("SELECT attname FROM pg_attribute WHERE attrelid = 'meta_books'::regclass AND attnum < 0");
  const reserved = new Set<string>([...rows.map((r: { attname: string }) => r.attname), ...ENGINE_COLUMNS, ...LIST_PARAMS, 'q']);
  const bad = Object.keys(fields).filter((f) => reserved.has(f));
  if (bad.length)
    throw new BookInvalid(
      bad.map((f) => ({
        file: bookFile(name),
        pointer: `/fields/${f}`,
        message: `"${f}" is a name the system keeps for itself`,
        key: 'errors.book_field_reserved',
        args: { field: f },
      })),
    );
}

/** The section a book made by its name alone is shown in. */
const DEFAULT_SECTION = 'ecofund-sprav';

/** A model holding the entity (to drop its table by it). */
function entityModel(model: MetaModel, e: EntityMeta): MetaModel {
  if (model.entities.get(e.name) === e) return model;
  return { ...model, entities: new Map([...model.entities, [e.name, e]]) };
}

/** The other processes reload when this transaction commits (NOTIFY is delivered then); this one's live models too. */
async function told(trx: Knex.Transaction): Promise<void> {
  await trx.raw('SELECT pg_notify(?, ?)', [META_CHANNEL, '']);
  // the catalogue's actions and the administrators' grants changed: every cached session's actions are read again
  await announceAuthChange(trx, { all: true });
  reloadAfterCommit(trx);
}

/** One book change at a time across every process on the database. */
async function lock(trx: Knex.Transaction): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext('ecofond.meta_books'))");
}

/** The model with these books, checked; the book's own restrictions first. */
function build(before: MetaModel, books: DbBook[], book?: DbBook): MetaModel {
  const own = book ? bookProblems(book, before) : [];
  if (own.length) throw new BookInvalid(own);
  try {
    return buildModel(before.dir ?? DEFAULT_META_DIR, books, pluginsOf(before));
  } catch (err) {
    if (err instanceof MetadataInvalid) throw new BookInvalid(err.problems);
    throw err;
  }
}

function refersTo(e: EntityMeta, name: string): boolean {
  const refs = (fields: Record<string, FieldMeta>): boolean =>
    Object.values(fields).some(
      (f) =>
        ((f.type === 'ref' || f.type === 'refs') && f.ref === name) ||
        f.lookup?.split('.')[0] === name ||
        (f.type === 'children' && refs(f.fields ?? {})),
    );
  return refs(e.fields);
}

/**
 * Makes the table follow the book: a new book's table with its indexes; a changed one's new fields'
 * columns, a removed field's column dropped when it holds no value, a rule changed (required,
 * unique, length, enum values) applied to the column. A field's kind or reference does not change
 * under its data. Refusals are answers in the caller's language, never a half-changed table.
 */
async function alterTable(trx: Knex.Transaction, e: EntityMeta, next: MetaModel, was: EntityMeta | undefined): Promise<void> {
  if (!(await trx.schema.hasTable(e.table))) {
    await createEntityTables(trx, [e.name], next);
    // the book's own table: the mark its edits and its removal go by
    await trx.raw(`COMMENT ON TABLE ?? IS ${literal(bookTableMark(e.name))}`, [e.table]);
    return;
  }
  const [{ n }] = await trx(e.table).count<{ n: number }[]>({ n: '*' });
  const rows = Number(n);
  const old = was?.fields ?? {};
  const added: string[] = [];
  for (const [name, f] of Object.entries(e.fields)) {
    const o = old[name];
    const exists = await trx.schema.hasColumn(e.table, name);
    if (!exists) {
      if (f.required && rows > 0) throw refused('errors.book_required_on_rows', { field: name, count: rows });
      added.push(name);
      continue;
    }
    if (!o) continue;
    if (o.type !== f.type || (o.ref ?? '') !== (f.ref ?? '')) throw refused('errors.book_field_kind', { field: name });
    if (!!o.required !== !!f.required) {
      if (f.required) {
        const [{ c }] = await trx(e.table).whereNull(name).count<{ c: number }[]>({ c: '*' });
        if (Number(c) > 0) throw refused('errors.book_rule_rows', { field: name, count: Number(c) });
        await trx.raw('ALTER TABLE ?? ALTER COLUMN ?? SET NOT NULL', [e.table, name]);
      } else await trx.raw('ALTER TABLE ?? ALTER COLUMN ?? DROP NOT NULL', [e.table, name]);
    }
    if (f.type === 'string' && o.maxLength !== f.maxLength) {
      const max = f.maxLength ?? 255;
      const [{ c }] = await trx(e.table).whereRaw('char_length(??) > ?', [name, max]).count<{ c: number }[]>({ c: '*' });
      if (Number(c) > 0) throw refused('errors.book_rule_rows', { field: name, count: Number(c) });
      await trx.raw(`ALTER TABLE ?? ALTER COLUMN ?? TYPE ${max > 2000 ? 'text' : `varchar(${Number(max)})`}`, [e.table, name]);
    }
    if (!!o.unique !== !!f.unique) {
      const idx = `${e.table}_${name}_unique`;
      if (f.unique) {
        // the rows in the way: every row whose value another row holds too
        const [{ c }] = await trx(e.table)
          .whereIn(name, trx(e.table).whereNotNull(name).groupBy(name).havingRaw('count(*) > 1').select(name))
          .count<{ c: number }[]>({ c: '*' });
        if (Number(c) > 0) throw refused('errors.book_rule_rows', { field: name, count: Number(c) });
        await trx.raw('ALTER TABLE ?? ADD CONSTRAINT ?? UNIQUE (??)', [e.table, idx, name]);
      } else await trx.raw('ALTER TABLE ?? DROP CONSTRAINT IF EXISTS ??', [e.table, idx]);
    }
    if (f.type === 'enum' && JSON.stringify(o.values) !== JSON.stringify(f.values)) {
      const values = f.values ?? [];
      const [{ c }] = await trx(e.table).whereNotNull(name).whereNotIn(name, values).count<{ c: number }[]>({ c: '*' });
      if (Number(c) > 0) throw refused('errors.book_rule_rows', { field: name, count: Number(c) });
      const check = `${e.table}_${name}_enum`;
      await trx.raw('ALTER TABLE ?? DROP CONSTRAINT IF EXISTS ??', [e.table, check]);
      await trx.raw(`ALTER TABLE ?? ADD CONSTRAINT ?? CHECK (?? IN (${values.map(literal).join(', ')}))`, [e.table, check, name]);
    }
  }
  for (const name of Object.keys(old)) {
    if (name in e.fields || !(await trx.schema.hasColumn(e.table, name))) continue;
    const [{ c }] = await trx(e.table).whereNotNull(name).count<{ c: number }[]>({ c: '*' });
    if (Number(c) > 0) throw refused('errors.book_field_has_data', { field: name, count: Number(c) });
    await trx.schema.alterTable(e.table, (t) => {
      t.dropColumn(name);
    });
  }
  if (added.length) await addEntityColumns(trx, e.name, added, next);
  for (const name of added) {
    const f = e.fields[name];
    if (f.unique) await trx.raw('ALTER TABLE ?? ADD CONSTRAINT ?? UNIQUE (??)', [e.table, `${e.table}_${name}_unique`, name]);
    if (f.type === 'enum')
      await trx.raw(`ALTER TABLE ?? ADD CONSTRAINT ?? CHECK (?? IN (${(f.values ?? []).map(literal).join(', ')}))`, [
        e.table,
        `${e.table}_${name}_enum`,
        name,
      ]);
  }
}

/**
 * A value written into DDL as a quoted literal: PostgreSQL takes no bound parameter ($1) in ALTER
 * TABLE or COMMENT, and knex's `?` becomes one. The pg client's quoting (doubled quotes, and E''
 * with doubled backslashes when the value holds one).
 */
const literal = (v: string): string => pg.escapeLiteral(String(v));

/** The administrators' role holds every action of the catalogue: the book's too. */
async function grantToAdministrators(trx: Knex.Transaction, ids: number[]): Promise<void> {
  const role = await trx('roles').where({ code: 'administrator' }).first('id');
  if (!role) return;
  await trx('role_actions')
    .insert(ids.map((action_id) => ({ role_id: role.id, action_id, state: 1 })))
    .onConflict(['role_id', 'action_id'])
    .ignore();
}

export { bookFile };
