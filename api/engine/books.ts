import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta, MetaModel } from '../meta/types.ts';
import { bookFile, MetadataInvalid, type DbBook, type MetaProblem } from '../meta/load.ts';
import { bookProblems, BOOK_ACTIONS_FROM, BOOK_ACTIONS_TO } from '../meta/books.ts';
import { META_CHANNEL, readBooks, type LiveModel } from '../meta/live.ts';
import { announceAuthChange } from '../auth/session-cache.ts';
import { addEntityColumns, createEntityTables, dropEntityTables } from '../db/entity-tables.ts';
import { syncActions } from '../../seeds/index.ts';
import { writeAudit } from './audit.ts';
import { ApiError } from '../http/errors.ts';

/**
 * The database-held reference books' one write path (docs/reference-books.md). A save or a removal
 * runs in one transaction under one advisory lock (so two processes never change books at once):
 * the books as they stand are read, the new model is built and checked with the files' JSON Schema
 * and second pass, the book's table is made or altered, its row in `meta_books` written, its action
 * ids put in the catalogue and granted to the administrators' role, one audit row written and the
 * other processes notified (NOTIFY is delivered on commit). Only after the commit is the new model
 * swapped in.
 */

/** The book's definition does not check: every problem, as the files' loader says them. */
export class BookInvalid extends Error {
  constructor(readonly problems: MetaProblem[]) {
    super(problems.map((p) => `${p.file}: ${p.pointer || '/'}: ${p.message}`).join('\n'));
    this.name = 'BookInvalid';
  }
}

/** The entity the audit trail records book changes under. */
const BOOKS_AUDIT = { name: 'meta-books' } as EntityMeta;

const refused = (key: string, args: Record<string, unknown>) => new ApiError('inUse', key, args);

export interface BookWriter {
  knex: Knex;
  live: LiveModel;
  /** who makes the change: recorded in the audit row */
  userId: number | null;
}

/** A free block of ten action ids for a new book. */
function freeBlock(model: MetaModel, taken: DbBook[]): Record<'read' | 'create' | 'update' | 'delete' | 'export', number> {
  const used = new Set<number>([...model.actions.keys()]);
  for (const b of taken) for (const id of Object.values((b.definition.access ?? {}) as Record<string, number>)) used.add(id);
  for (let block = BOOK_ACTIONS_FROM; block <= BOOK_ACTIONS_TO; block += 10) {
    if (![1, 2, 3, 4, 5].some((i) => used.has(block + i))) return { read: block + 1, create: block + 2, update: block + 3, delete: block + 4, export: block + 5 };
  }
  throw new Error('no free action ids left for reference books');
}

/**
 * Saves a book (new or changed). `access` in its definition is filled in: kept from the stored
 * book, or a free block for a new one. `fromFiles` lets a book the files already hold (meta:import)
 * be taken into the database. Returns the stored book.
 */
export async function saveBook(w: BookWriter, input: DbBook, o: { fromFiles?: boolean } = {}): Promise<DbBook> {
  const { knex, live } = w;
  const saved = await knex.transaction(async (trx) => {
    await lock(trx);
    const books = await readBooks(trx);
    const old = books.find((b) => b.name === input.name);
    const before = live.current;
    const fileHeld = before.entities.get(input.name);
    if (!old && fileHeld && !fileHeld.book && !o.fromFiles) throw refused('errors.book_file_held', { book: input.name });
    const kept = old?.definition.access ?? (fileHeld ? fileHeld.access : undefined);
    const given = o.fromFiles && !kept ? input.definition.access as Record<string, number> | undefined : undefined;
    if (given) {
      const taken = Object.entries(given).filter(([, id]) => before.actions.has(id) || books.some((b) => Object.values((b.definition.access ?? {}) as object).includes(id)));
      if (taken.length) throw new BookInvalid(taken.map(([op]) => ({ file: bookFile(input.name), pointer: `/access/${op}`, message: `action id ${given[op]} is already used` })));
    }
    const access = (kept ?? given ?? freeBlock(before, books)) as Record<string, number>;
    const book: DbBook = { ...input, definition: { ...input.definition, access } };
    const next = build(live, before, [...books.filter((b) => b.name !== book.name), book], book);
    const e = next.entities.get(book.name)!;
    await alterTable(trx, e, next, old ? entityOf(before, old.name) : fileHeld);

    const row = { name: book.name, definition: JSON.stringify(book.definition), captions: JSON.stringify(book.captions), menu: book.menu ? JSON.stringify(book.menu) : null };
    let id: number;
    if (old) {
      const [r] = await trx('meta_books').where({ name: book.name }).update({ ...row, version: trx.raw('version + 1'), updated_at: trx.fn.now(), updated_by: w.userId }).returning('id');
      id = r.id;
    } else {
      const [r] = await trx('meta_books').insert({ ...row, created_by: w.userId, updated_by: w.userId }).returning('id');
      id = r.id;
    }
    await syncActions(trx, next);
    await grantToAdministrators(trx, Object.values(access));
    await writeAudit(trx, BOOKS_AUDIT, w.userId, [{ id, op: old ? 'update' : 'create', action: o.fromFiles ? 'import' : null, before: old ? { ...old } as Record<string, unknown> : null, after: { ...book } as Record<string, unknown> }]);
    await trx.raw('SELECT pg_notify(?, ?)', [META_CHANNEL, live.origin]);
    // the catalogue's actions and the administrators' grants changed: every cached session's actions are read again
    await announceAuthChange(trx, { all: true });
    return book;
  });
  await live.reload();
  return saved;
}

/** Removes a book: refused while it holds rows or another entity refers to it. */
export async function deleteBook(w: BookWriter, name: string): Promise<void> {
  const { knex, live } = w;
  await knex.transaction(async (trx) => {
    await lock(trx);
    const books = await readBooks(trx);
    const old = books.find((b) => b.name === name);
    if (!old) throw new ApiError('notFound');
    const before = live.current;
    const e = entityOf(before, name);
    const by = [...before.entities.values()].filter((x) => x.name !== name && refersTo(x, name)).map((x) => x.name);
    if (by.length) throw refused('errors.book_referenced', { book: name, by: by.join(', ') });
    if (e && await trx.schema.hasTable(e.table)) {
      const [{ n }] = await trx(e.table).count<{ n: number }[]>({ n: '*' });
      if (Number(n) > 0) throw refused('errors.book_has_rows', { book: name, count: Number(n) });
    }
    const rest = books.filter((b) => b.name !== name);
    const next = build(live, before, rest);
    if (e) await dropEntityTables(trx, [name], before);
    const [{ id }] = await trx('meta_books').where({ name }).delete().returning('id');
    await syncActions(trx, next);
    await writeAudit(trx, BOOKS_AUDIT, w.userId, [{ id, op: 'delete', before: { ...old } as Record<string, unknown>, after: null }]);
    await trx.raw('SELECT pg_notify(?, ?)', [META_CHANNEL, live.origin]);
    // the catalogue's actions and the administrators' grants changed: every cached session's actions are read again
    await announceAuthChange(trx, { all: true });
  });
  await live.reload();
}

/** One book change at a time across every process on the database. */
async function lock(trx: Knex.Transaction): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext('ecofond.meta_books'))");
}

/** The model with these books, checked; the book's own restrictions first. */
function build(live: LiveModel, before: MetaModel, books: DbBook[], book?: DbBook): MetaModel {
  const own = book ? bookProblems(book, before) : [];
  if (own.length) throw new BookInvalid(own);
  try {
    return live.build(books);
  } catch (err) {
    if (err instanceof MetadataInvalid) throw new BookInvalid(err.problems);
    throw err;
  }
}

function entityOf(model: MetaModel, name: string): EntityMeta | undefined {
  return model.entities.get(name);
}

function refersTo(e: EntityMeta, name: string): boolean {
  const refs = (fields: Record<string, FieldMeta>): boolean => Object.values(fields).some((f) =>
    ((f.type === 'ref' || f.type === 'refs') && f.ref === name) || (f.lookup?.split('.')[0] === name) || (f.type === 'children' && refs(f.fields ?? {})));
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
        const dups = await trx(e.table).whereNotNull(name).groupBy(name).havingRaw('count(*) > 1').select(name).limit(1);
        if (dups.length) throw refused('errors.book_rule_rows', { field: name, count: dups.length });
        await trx.raw('ALTER TABLE ?? ADD CONSTRAINT ?? UNIQUE (??)', [e.table, idx, name]);
      } else await trx.raw('ALTER TABLE ?? DROP CONSTRAINT IF EXISTS ??', [e.table, idx]);
    }
    if (f.type === 'enum' && JSON.stringify(o.values) !== JSON.stringify(f.values)) {
      const values = f.values ?? [];
      const [{ c }] = await trx(e.table).whereNotNull(name).whereNotIn(name, values).count<{ c: number }[]>({ c: '*' });
      if (Number(c) > 0) throw refused('errors.book_rule_rows', { field: name, count: Number(c) });
      const check = `${e.table}_${name}_enum`;
      await trx.raw('ALTER TABLE ?? DROP CONSTRAINT IF EXISTS ??', [e.table, check]);
      await trx.raw(`ALTER TABLE ?? ADD CONSTRAINT ?? CHECK (?? IN (${values.map(() => '?').join(', ')}))`, [e.table, check, name, ...values]);
    }
  }
  for (const name of Object.keys(old)) {
    if (name in e.fields || !(await trx.schema.hasColumn(e.table, name))) continue;
    const [{ c }] = await trx(e.table).whereNotNull(name).count<{ c: number }[]>({ c: '*' });
    if (Number(c) > 0) throw refused('errors.book_field_has_data', { field: name, count: Number(c) });
    await trx.schema.alterTable(e.table, (t) => { t.dropColumn(name); });
  }
  if (added.length) await addEntityColumns(trx, e.name, added, next);
  for (const name of added) {
    const f = e.fields[name];
    if (f.unique) await trx.raw('ALTER TABLE ?? ADD CONSTRAINT ?? UNIQUE (??)', [e.table, `${e.table}_${name}_unique`, name]);
    if (f.type === 'enum') await trx.raw(`ALTER TABLE ?? ADD CONSTRAINT ?? CHECK (?? IN (${(f.values ?? []).map(() => '?').join(', ')}))`, [e.table, `${e.table}_${name}_enum`, name, ...(f.values ?? [])]);
  }
}

/** The administrators' role holds every action of the catalogue: the book's too. */
async function grantToAdministrators(trx: Knex.Transaction, ids: number[]): Promise<void> {
  const role = await trx('roles').where({ code: 'administrator' }).first('id');
  if (!role) return;
  await trx('role_actions').insert(ids.map((action_id) => ({ role_id: role.id, action_id, state: 1 }))).onConflict(['role_id', 'action_id']).ignore();
}

export { bookFile };
