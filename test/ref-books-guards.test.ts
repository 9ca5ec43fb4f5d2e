import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from './support/db.ts';
import { BooksApp } from './support/books-app.ts';
import { specToBook, type BookSpec, type BookFieldSpec } from '../api/meta/books.ts';
import { ENGINE_COLUMNS } from '../api/db/entity-tables.ts';
import { up as markBookTables } from '../migrations/20261204000100_book_tables_marked.ts';

/**
 * What a reference book made at run time may not do to the database (docs/reference-books.md,
 * "A book's table is its own"): take over a table, view, sequence, index or partition of the
 * system, drop a table it did not make, shadow a system or built-in column — and what an ordinary
 * edit of a filled book answers: 200 when the rows allow it, a 409 naming the rows in the way,
 * never a 500; every answer in uz, uk and ru.
 */

const caption = (uz: string, ru: string) => ({ uz, ru });
const field = (name: string, more: Partial<BookFieldSpec> = {}): BookFieldSpec => ({
  name,
  type: 'string',
  caption: caption(`Maydon ${name}`, `Поле ${name}`),
  ...more,
});
const book = (name: string, fields: BookFieldSpec[] = []): BookSpec => ({
  name,
  section: 'ecofund-sprav',
  caption: caption(`Kitob ${name}`, `Книга ${name}`),
  fields,
});

/** The columns and the row count of a table, to see it untouched. */
async function tableState(app: BooksApp, table: string) {
  const cols = await app.db
    .knex('information_schema.columns')
    .where({ table_schema: app.db.knex.raw('current_schema()'), table_name: table })
    .orderBy('column_name')
    .select('column_name', 'is_nullable', 'data_type');
  const [{ n }] = await app.db.knex(table).count<{ n: number }[]>({ n: '*' });
  return { cols, rows: Number(n) };
}

describe("a reference book's table is its own", () => {
  let a: BooksApp;
  beforeAll(async () => {
    a = await BooksApp.start(await testDatabase());
  }, 120_000);
  afterAll(async () => {
    await a?.close();
  });

  it('refuses rate-limits and jobs (400 under name, in uz/uk/ru), leaving the tables as they were', async () => {
    await a.db.knex('rate_limits').insert({ key: 'guard-test', bucket: 1, n: 3 });
    const before = { rate_limits: await tableState(a, 'rate_limits'), jobs: await tableState(a, 'jobs') };
    expect(before.rate_limits.rows).toBeGreaterThan(0);
    const messages = new Set<string>();
    for (const name of ['rate-limits', 'jobs']) {
      for (const lang of ['uz', 'uk', 'ru']) {
        const r = await a.call('POST', '/api/admin/ref-books', book(name), a.token, lang);
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(Object.keys(r.body.errors)).toEqual(['name']);
        messages.add(r.body.errors.name);
      }
      // the generic route of the books' rows: the same refusal
      const g = await a.call('POST', '/api/admin/meta-books', { name });
      expect(g.status, JSON.stringify(g.body)).toBe(400);
      expect(Object.keys(g.body.errors)).toEqual(['name']);
    }
    expect(messages.size).toBe(6);
    expect([...messages].join('\n')).toMatch(/rate_limits[^\n]*\n.*rate_limits[^\n]*\n.*rate_limits/);
    expect([...messages].some((m) => /[ўқғҳ]/.test(m))).toBe(true); // Uzbek Cyrillic
    expect([...messages].some((m) => m.includes('Таблица'))).toBe(true); // Russian
    expect({ rate_limits: await tableState(a, 'rate_limits'), jobs: await tableState(a, 'jobs') }).toEqual(before);
    expect(await a.db.knex('meta_books').whereIn('name', ['rate-limits', 'jobs']).first('id')).toBeUndefined();
  });

  it('refuses every relation of the schema the catalogue lists, future partitions and system names', { timeout: 120_000 }, async () => {
    // the catalogue itself names what is taken: every table, partitioned table, partition, view, materialized view, and samples of sequences and indexes
    const rels = (
      await a.db.knex.raw(`
      SELECT c.relname, c.relkind::text AS kind FROM pg_class c
       WHERE c.relnamespace = current_schema()::regnamespace AND c.relname ~ '^[a-z][a-z0-9_]*$'
       ORDER BY c.relname`)
    ).rows as { relname: string; kind: string }[];
    const pick = (kind: string, n = Infinity) =>
      rels
        .filter((r) => r.kind === kind)
        .slice(0, n)
        .map((r) => r.relname);
    const partitioned = pick('p');
    expect(partitioned.length).toBeGreaterThan(0);
    const names = [...pick('r'), ...partitioned, ...pick('v'), ...pick('m'), ...pick('S', 5), ...pick('i', 5)].map((t) =>
      t.replace(/_/g, '-'),
    );
    // a partition a partitioned table will make next year (and its default one), a child table of the model, system names
    names.push(`${partitioned[0]}-y2099`, `${partitioned[0]}-other`, 'pg-class', 'pg-anything', 'information-schema', 'tables');
    const child = [...a.live.current.entities.values()]
      .flatMap((e) => Object.values(e.fields))
      .find((f) => f.type === 'children' && f.table)?.table;
    if (child) names.push(child.replace(/_/g, '-'));
    const accepted: string[] = [];
    for (const name of names) {
      const r = await a.call('POST', '/api/admin/ref-books', book(name));
      if (r.status !== 400 || !r.body.errors?.name) accepted.push(`${name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    }
    expect(accepted).toEqual([]);
    expect(
      await a.db
        .knex('meta_books')
        .count<{ n: number }[]>({ n: '*' })
        .then(([x]) => Number(x.n)),
    ).toBe(0);
  });

  it("a book's delete drops only the table the book made", async () => {
    // a book that took a system table before these checks (a row written by hand, as it was stored then)
    const before = await tableState(a, 'rate_limits');
    const taken = specToBook(book('rate-limits'), { read: 8991, create: 8992, update: 8993, delete: 8994, export: 8995 });
    await a.db.knex('meta_books').insert({
      name: taken.name,
      definition: JSON.stringify(taken.definition),
      captions: JSON.stringify(taken.captions),
      menu: JSON.stringify(taken.menu),
    });
    await markBookTables(a.db.knex);
    expect(await a.db.knex.raw(`SELECT obj_description('rate_limits'::regclass, 'pg_class') AS c`).then((r) => r.rows[0].c)).toBeNull();
    await a.live.reload();
    const r = await a.call('DELETE', '/api/admin/ref-books/rate-limits');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await a.db.knex.schema.hasTable('rate_limits')).toBe(true);
    expect(await tableState(a, 'rate_limits')).toEqual(before);
    // a book made here is marked as its own and goes with its table
    expect((await a.call('POST', '/api/admin/ref-books', book('own-book'))).status).toBe(200);
    expect(await a.db.knex.raw(`SELECT obj_description('own_book'::regclass, 'pg_class') AS c`).then((x) => x.rows[0].c)).toBe(
      'ecofond:book:own-book',
    );
    // the columns the engine gives a table beside its fields are those no field may be named as
    const cols = (
      await a.db.knex.raw(`SELECT attname FROM pg_attribute WHERE attrelid = 'own_book'::regclass AND attnum > 0 AND NOT attisdropped`)
    ).rows.map((r: { attname: string }) => r.attname);
    expect(cols.filter((c: string) => c !== 'code' && c !== 'name').sort()).toEqual(
      ENGINE_COLUMNS.filter((c) => c !== 'deleted_at').sort(),
    );
    // a book stored before the mark: the migration marks its table, whose columns are the book's own
    await a.db.knex.raw('COMMENT ON TABLE own_book IS NULL');
    await markBookTables(a.db.knex);
    expect(await a.db.knex.raw(`SELECT obj_description('own_book'::regclass, 'pg_class') AS c`).then((x) => x.rows[0].c)).toBe(
      'ecofond:book:own-book',
    );
    expect((await a.call('DELETE', '/api/admin/ref-books/own-book')).status).toBe(200);
    expect(await a.db.knex.schema.hasTable('own_book')).toBe(false);
  });

  it('refuses a field named as a system column, an engine column or the built-in code and name: 400 under the field, in uz/uk/ru', {
    timeout: 60_000,
  }, async () => {
    const system = (await a.db.knex.raw('SELECT DISTINCT attname FROM pg_attribute WHERE attnum < 0')).rows.map(
      (r: { attname: string }) => r.attname,
    ) as string[];
    expect(system).toEqual(expect.arrayContaining(['ctid', 'xmin', 'xmax', 'cmin', 'cmax', 'tableoid']));
    const names = [...system, 'code', 'name', 'id', 'version', 'created_at', 'created_by', 'updated_at', 'updated_by', 'deleted_at'];
    const wrong: string[] = [];
    for (const n of names) {
      const r = await a.call('POST', '/api/admin/ref-books', book('col-book', [field('alpha'), field('beta'), field(n)]));
      if (r.status !== 400 || !r.body.errors?.['fields.2.name'] || Object.keys(r.body.errors).length !== 1)
        wrong.push(`${n}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    }
    expect(wrong).toEqual([]);
    const said = await Promise.all(
      ['uz', 'uk', 'ru'].map((l) => a.call('POST', '/api/admin/ref-books', book('col-book', [field('code')]), a.token, l)),
    );
    const texts = said.map((r) => r.body.errors['fields.0.name'] as string);
    expect(new Set(texts).size).toBe(3);
    for (const t of texts) expect(t).toContain('code');
    expect(texts[1]).toMatch(/[ўқғҳ]/);
    expect(texts[2]).toMatch(/[а-я]/);
    // an empty name and a name given twice: under their own rows, not at the top of the form
    const empty = await a.call(
      'POST',
      '/api/admin/ref-books',
      book('col-book', [field('alpha'), field(''), field('alpha')]),
      a.token,
      'ru',
    );
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['fields.1.name', 'fields.2.name']);
    expect(empty.body.errors['fields.1.name']).toMatch(/[а-я]/);
    expect(await a.db.knex.schema.hasTable('col_book')).toBe(false);
  });

  it('ordinary edits of a filled book: 200 when the rows allow, a 409 naming the rows in the way, never a 500', {
    timeout: 90_000,
  }, async () => {
    const kind = (values: string[]) =>
      field('kind', { type: 'enum', values: values.map((v) => ({ value: v, caption: caption(`Tur ${v}`, `Вид ${v}`) })) });
    const base = [kind(['a', 'b']), field('label', { maxLength: 50 }), field('num', { type: 'integer' })];
    expect((await a.call('POST', '/api/admin/ref-books', book('edit-book', base))).status).toBe(200);
    const rows = [
      { code: 'R1', kind: 'a', label: 'twelve chars' },
      { code: 'R2', kind: 'b', label: 'twelve chars' },
      { code: 'R3', kind: 'a' },
    ];
    for (const r of rows) {
      const c = await a.call('POST', '/api/ecofund-sprav/edit-book', { ...r, name: { uz: r.code, ru: r.code } });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
    }
    const save = (fields: BookFieldSpec[], lang = 'uz') => a.call('POST', '/api/admin/ref-books', book('edit-book', fields), a.token, lang);
    // an enum value added: the check follows it
    const c3 = [kind(['a', 'b', 'c']), base[1], base[2]];
    const added = await save(c3);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect((await a.call('POST', '/api/ecofund-sprav/edit-book', { code: 'R4', name: { uz: 'R4', ru: 'R4' }, kind: 'c' })).status).toBe(
      201,
    );
    expect((await a.call('POST', '/api/ecofund-sprav/edit-book', { code: 'R5', name: { uz: 'R5', ru: 'R5' }, kind: 'z' })).status).toBe(
      400,
    );
    // an enum value a row holds taken away: 409 naming the row
    const gone = await save([kind(['a', 'b']), base[1], base[2]], 'ru');
    expect(gone.status, JSON.stringify(gone.body)).toBe(409);
    expect(gone.body.message).toContain('kind');
    expect(gone.body.message).toContain(': 1');
    // required and unique at once: two rows empty (R3, R4), two alike (R1, R2)
    const strict = [c3[0], field('label', { maxLength: 50, required: true, unique: true }), base[2]];
    const answers = await Promise.all(['uz', 'uk', 'ru'].map((l) => save(strict, l)));
    for (const r of answers) {
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.message).toContain('label');
      expect(r.body.message).toContain('2');
    }
    expect(new Set(answers.map((r) => r.body.message)).size).toBe(3);
    await a.db.knex('edit_book').where({ code: 'R3' }).update({ label: 'three' });
    await a.db.knex('edit_book').where({ code: 'R4' }).update({ label: 'four' });
    const dup = await save(strict);
    expect(dup.status, JSON.stringify(dup.body)).toBe(409);
    expect(dup.body.message).toContain('2 ta');
    await a.db.knex('edit_book').where({ code: 'R2' }).update({ label: 'two' });
    const ok = await save(strict);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await a.call('POST', '/api/ecofund-sprav/edit-book', { code: 'R6', name: { uz: 'R6', ru: 'R6' }, label: 'four' })).status).toBe(
      400,
    );
    // a maxLength under the data: 409 naming the row; one the data fits: 200
    const short = await save([c3[0], field('label', { maxLength: 5, required: true, unique: true }), base[2]], 'ru');
    expect(short.status, JSON.stringify(short.body)).toBe(409);
    expect(short.body.message).toContain('label');
    expect(short.body.message).toContain(': 1');
    const fits = await save([c3[0], field('label', { maxLength: 20, required: true, unique: true }), base[2]]);
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    expect(
      (
        await a.db.knex.raw(
          `SELECT character_maximum_length AS n FROM information_schema.columns WHERE table_name = 'edit_book' AND column_name = 'label'`,
        )
      ).rows[0].n,
    ).toBe(20);
    // a required field added to a filled book: 409 with the count of rows; an optional one: 200
    const now = [c3[0], field('label', { maxLength: 20, required: true, unique: true }), base[2]];
    const req = await Promise.all(['uz', 'uk', 'ru'].map((l) => save([...now, field('extra', { required: true })], l)));
    for (const r of req) {
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.message).toContain('extra');
      expect(r.body.message).toContain('4');
    }
    expect(await a.db.knex.schema.hasColumn('edit_book', 'extra')).toBe(false);
    const opt = await save([...now, field('extra')]);
    expect(opt.status, JSON.stringify(opt.body)).toBe(200);
    expect(await a.db.knex.schema.hasColumn('edit_book', 'extra')).toBe(true);
    // a 500 would have left its trace
    expect(
      await a.db
        .knex('app_errors')
        .where('path', 'like', '/api/admin/%')
        .count<{ n: number }[]>({ n: '*' })
        .then(([x]) => Number(x.n)),
    ).toBe(0);
  });
});
