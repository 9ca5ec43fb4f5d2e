import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_META_DIR, loadMetadata, MetadataInvalid } from '../api/meta/load.ts';
import { testDatabase } from './support/db.ts';
import { BooksApp as Instance } from './support/books-app.ts';
import { exportBooks, importBooks } from '../cli/meta-books.ts';
import { specToBook, type BookSpec } from '../api/meta/books.ts';
import { createUser } from '../cli/create-user.ts';
import ExcelJS from 'exceljs';
import { JobWorker } from '../api/jobs/worker.ts';

const kinds: BookSpec = {
  name: 'tree-kinds',
  section: 'ecofund-sprav',
  caption: { uz: 'Daraxt turlari', ru: 'Виды деревьев' },
  fields: [
    { name: 'region_id', type: 'ref', ref: 'regions', required: true, caption: { uz: 'Viloyat', ru: 'Регион' } },
    { name: 'height', type: 'integer', caption: { uz: 'Balandligi', ru: 'Высота' } },
    { name: 'price', type: 'money', caption: { uz: 'Narxi', ru: 'Цена' } },
    { name: 'since', type: 'date', caption: { uz: 'Sanasi', ru: 'Дата' } },
    { name: 'evergreen', type: 'boolean', caption: { uz: 'Doim yashil', ru: 'Вечнозелёное' } },
    {
      name: 'leaf',
      type: 'enum',
      values: [
        { value: 'broad', caption: { uz: 'Keng bargli', ru: 'Широколиственное' } },
        { value: 'needle', caption: { uz: 'Ignabargli', ru: 'Хвойное' } },
      ],
      caption: { uz: 'Bargi', ru: 'Лист' },
    },
  ],
};

describe('reference books made in the back-office', () => {
  let a: Instance;
  beforeAll(async () => {
    a = await Instance.start(await testDatabase(), true);
  }, 120_000);
  afterAll(async () => {
    await a?.close();
  });

  it("refuses invalid definitions with the errors the files get, beside the screen's fields", async () => {
    const root = mkdtempSync(join(tmpdir(), 'refbooks-'));
    cpSync(DEFAULT_META_DIR, join(root, 'metadata'), { recursive: true });
    /** the problems the same definition gets as a metadata file */
    const asFile = (spec: BookSpec) => {
      const book = specToBook(spec, { read: 8991, create: 8992, update: 8993, delete: 8994, export: 8995 });
      const file = join(root, `metadata/entities/ecofund-sprav/${spec.name}.json`);
      writeFileSync(file, JSON.stringify(book.definition));
      try {
        loadMetadata(join(root, 'metadata'));
        return [];
      } catch (err) {
        return (err as MetadataInvalid).problems.filter((p) => p.file.endsWith(`${spec.name}.json`));
      } finally {
        rmSync(file);
      }
    };
    const same = (ps: { pointer: string; message: string }[]) =>
      ps
        .filter((p) => !p.message.startsWith('caption'))
        .map((p) => `${p.pointer} ${p.message}`)
        .sort();
    try {
      // the second pass: a reference to no entity; an empty caption
      const bad: BookSpec = {
        ...kinds,
        name: 'bad-book',
        fields: [{ name: 'region_id', type: 'ref', ref: 'no-such-book', caption: { uz: 'Viloyat', ru: '' } }],
      };
      const r = await a.call('POST', '/api/admin/ref-books', bad);
      expect(r.status).toBe(400);
      // beside the inputs in the caller's language (the forms' own words); the loader's text in problems
      expect(r.body.errors['fields.0.ref']).toBe('Tanlangan yozuv topilmadi');
      expect(r.body.errors['fields.0.caption.ru']).toBe('Ushbu kiritma majburiy');
      expect(r.body.problems.map((p: { message: string }) => p.message)).toEqual(expect.arrayContaining(['no entity "no-such-book"']));
      expect(r.body.problems.map((p: { file: string }) => p.file)).toContain('database:books/bad-book.json');
      expect(same(asFile(bad)).length).toBe(1);
      expect(same(r.body.problems)).toEqual(same(asFile(bad)));
      // the JSON Schema: a length below one, a name not of the pattern
      const badSchema: BookSpec = {
        ...kinds,
        name: 'bad-book',
        fields: [{ name: 'size', type: 'string', maxLength: -1, caption: { uz: 'Oʻlcham', ru: 'Размер' } }],
      };
      const s = await a.call('POST', '/api/admin/ref-books', badSchema);
      expect(s.status).toBe(400);
      expect(s.body.errors['fields.0.maxLength']).toBe('Notoʻgʻri qiymat');
      expect(s.body.problems.map((p: { message: string }) => p.message)).toContain('must be >= 1');
      expect(same(s.body.problems)).toEqual(same(asFile(badSchema)));
      const bad2 = await a.call('POST', '/api/admin/ref-books', { ...kinds, name: 'Bad Name' });
      expect(bad2.status).toBe(400);
      expect(bad2.body.errors.name).toBeTruthy();
      // a reference without its entity: the schema's missing property beside its own input
      const noRef = await a.call(
        'POST',
        '/api/admin/ref-books',
        { ...kinds, name: 'bad-book', fields: [{ name: 'region_id', type: 'ref', caption: { uz: 'Viloyat', ru: 'Регион' } }] },
        a.token,
        'ru',
      );
      expect(noRef.status).toBe(400);
      expect(noRef.body.errors['fields.0.ref']).toBe('Обязательное поле');
      expect(noRef.body.problems.map((p: { message: string }) => p.message)).toContain("must have required property 'ref'");
      // a kind of field a book cannot have
      const bad3 = await a.call('POST', '/api/admin/ref-books', {
        ...kinds,
        name: 'bad-book',
        fields: [{ name: 'doc', type: 'file', caption: { uz: 'Fayl', ru: 'Файл' } }],
      });
      expect(bad3.status).toBe(400);
      expect(bad3.body.errors['fields.0.type']).toBeTruthy();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    expect((await a.call('GET', '/api/meta')).body.entities.some((e: { name: string }) => e.name === 'bad-book')).toBe(false);
    expect(await a.db.knex.schema.hasTable('bad_book')).toBe(false);
  });

  it('makes a book live at once: table, menu, list, filters, export, captions, /api/meta, audit', async () => {
    const r = await a.call('POST', '/api/admin/ref-books', kinds);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.path).toBe('/ecofund-sprav/tree-kinds');
    const meta = (await a.call('GET', '/api/meta', undefined, a.token, 'ru')).body;
    const e = meta.entities.find((x: { name: string }) => x.name === 'tree-kinds');
    expect(e).toBeTruthy();
    expect(JSON.stringify(meta)).toContain('Виды деревьев');
    const menu = (await a.call('GET', '/api/admin/user-modules', undefined, a.token, 'uk')).body;
    expect(menu.some((m: { route: string; name: string }) => m.route === '/ecofund-sprav/tree-kinds' && m.name === 'Дарахт турлари')).toBe(
      true,
    );
    const regions = (await a.call('GET', '/api/references/regions?perPage=3')).body;
    const regionIds: number[] = (Array.isArray(regions) ? regions : await a.db.knex('regions').limit(3).select('id')).map(
      (x: { id: number }) => x.id,
    );
    for (const [i, region] of regionIds.slice(0, 3).entries()) {
      const c = await a.call('POST', '/api/ecofund-sprav/tree-kinds', {
        code: `K${i}`,
        name: { uz: `Tur ${i}`, ru: `Вид ${i}` },
        region_id: region,
        height: 10 + i,
        price: '1500.50',
        since: '2026-01-0' + (i + 1),
        evergreen: i === 0,
        leaf: 'needle',
      });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
    }
    const filtered = await a.call('GET', `/api/ecofund-sprav/tree-kinds?region_id=${regionIds[0]}`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.length).toBe(1);
    const x = await a.call('GET', `/api/ecofund-sprav/tree-kinds/export?region_id=${regionIds[0]}`);
    expect(x.status).toBe(200);
    expect(x.headers.get('content-type')).toContain('spreadsheetml');
    const audit = await a.db.knex('audit_log').where({ entity: 'meta-books' }).select('op');
    expect(audit.map((x: { op: string }) => x.op)).toContain('create');
    // the administrators' role holds its action ids
    const ids = Object.values(e.access ?? {}).length ? Object.values(e.access) : [];
    void ids;
    const granted = await a.db
      .knex('role_actions')
      .join('roles', 'roles.id', 'role_actions.role_id')
      .where('roles.code', 'administrator')
      .whereBetween('action_id', [8000, 9999])
      .count<{ n: number }[]>({ n: '*' });
    expect(Number(granted[0].n)).toBeGreaterThanOrEqual(5);
  });

  it('a book made at run time may be imported from .xlsx: its captions, a reference by title, an enum by caption (docs/reference-books.md)', {
    timeout: 60_000,
  }, async () => {
    const spec: BookSpec = {
      name: 'seed-kinds',
      section: 'ecofund-sprav',
      caption: { uz: 'Urugʻ turlari', ru: 'Виды семян' },
      fields: [
        { name: 'region_id', type: 'ref', ref: 'regions', required: true, caption: { uz: 'Viloyat', ru: 'Регион' } },
        {
          name: 'leaf',
          type: 'enum',
          values: [
            { value: 'broad', caption: { uz: 'Keng bargli', ru: 'Широколиственное' } },
            { value: 'needle', caption: { uz: 'Ignabargli', ru: 'Хвойное' } },
          ],
          caption: { uz: 'Bargi', ru: 'Лист' },
        },
        { name: 'evergreen', type: 'boolean', caption: { uz: 'Doim yashil', ru: 'Вечнозелёное' } },
      ],
    };
    expect((await a.call('POST', '/api/admin/ref-books', spec)).status).toBe(200);
    const meta = (await a.call('GET', '/api/meta?include=api')).body;
    expect(meta.entities.find((e: { name: string }) => e.name === 'seed-kinds').import).toBe(true);
    expect(
      meta.api.some((r: { method: string; path: string }) => r.method === 'post' && r.path === '/ecofund-sprav/seed-kinds/import'),
    ).toBe(true);
    const [region] = (await a.call('GET', '/api/ecofund-sprav/regions?range=[0,0]')).body;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('1');
    ws.addRow(['code', 'name', 'Регион', 'Лист', 'Вечнозелёное']);
    ws.addRow(['S1', 'Сосна', region.name.ru, 'Хвойное', '✓']);
    ws.addRow(['S2', 'Дуб', region.id, 'broad', '']);
    const res = await fetch(`http://127.0.0.1:${(a.server.address() as AddressInfo).port}/api/ecofund-sprav/seed-kinds/import`, {
      method: 'POST',
      body: new Uint8Array(await wb.xlsx.writeBuffer()),
      headers: {
        Authorization: `Bearer ${a.token}`,
        Language: 'ru',
        'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    });
    const job = (await res.json()) as { id: number };
    expect(res.status, JSON.stringify(job)).toBe(202);
    expect(await new JobWorker(a.db.knex, () => a.live.current, { pollMs: 50, heartbeatMs: 20 }).drain()).toBe(1);
    expect((await a.call('GET', `/api/jobs/${job.id}`)).body).toMatchObject({ state: 'done', result: { imported: 2 } });
    const rows = await a.db.knex('seed_kinds').orderBy('code').select('code', 'name', 'region_id', 'leaf', 'evergreen');
    expect(rows).toEqual([
      { code: 'S1', name: { ru: 'Сосна', uz: 'Сосна' }, region_id: region.id, leaf: 'needle', evergreen: true },
      { code: 'S2', name: { ru: 'Дуб', uz: 'Дуб' }, region_id: region.id, leaf: 'broad', evergreen: false },
    ]);
    await a.db.knex('seed_kinds').delete();
    expect((await a.call('DELETE', '/api/admin/ref-books/seed-kinds')).status).toBe(200);
  });

  it("adds a field's column; refuses to remove a field or a book that holds data or is referenced", async () => {
    const more = {
      ...kinds,
      fields: [...kinds.fields, { name: 'note', type: 'string' as const, maxLength: 100, caption: { uz: 'Izoh', ru: 'Примечание' } }],
    };
    const r = await a.call('POST', '/api/admin/ref-books', more);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await a.db.knex.schema.hasColumn('tree_kinds', 'note')).toBe(true);
    const one = await a.call('GET', '/api/ecofund-sprav/tree-kinds?perPage=1');
    const put = await a.call('PUT', `/api/ecofund-sprav/tree-kinds/${one.body[0].id}`, { ...one.body[0], note: 'yozuv' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // removing a field that holds a value: refused, in the caller's language
    const less = await a.call(
      'POST',
      '/api/admin/ref-books',
      { ...more, fields: more.fields.filter((f) => f.name !== 'height') },
      a.token,
      'ru',
    );
    expect(less.status).toBe(409);
    expect(less.body.message).toContain('Поле «height» заполнено');
    expect(await a.db.knex.schema.hasColumn('tree_kinds', 'height')).toBe(true);
    // an empty field goes, and its column with it
    await a.db.knex('tree_kinds').update({ note: null });
    expect((await a.call('POST', '/api/admin/ref-books', kinds)).status).toBe(200);
    expect(await a.db.knex.schema.hasColumn('tree_kinds', 'note')).toBe(false);
    // a book referring to it
    const sorts: BookSpec = {
      name: 'tree-sorts',
      section: 'ecofund-sprav',
      caption: { uz: 'Navlar', ru: 'Сорта' },
      fields: [{ name: 'kind_id', type: 'ref', ref: 'tree-kinds', caption: { uz: 'Turi', ru: 'Вид' } }],
    };
    expect((await a.call('POST', '/api/admin/ref-books', sorts)).status).toBe(200);
    const refused = await a.call('DELETE', '/api/admin/ref-books/tree-kinds', undefined, a.token, 'uz');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('tree-sorts');
    expect((await a.call('DELETE', '/api/admin/ref-books/tree-sorts')).status).toBe(200);
    expect(await a.db.knex.schema.hasTable('tree_sorts')).toBe(false);
    const held = await a.call('DELETE', '/api/admin/ref-books/tree-kinds', undefined, a.token, 'ru');
    expect(held.status).toBe(409);
    expect(held.body.message).toContain('записей: 3');
    expect((await a.call('GET', '/api/ecofund-sprav/tree-sorts')).status).toBe(404);
  });

  it("goes through the one write path: the caller's right, one audit row, nothing half-done", async () => {
    const bookId = (await a.db.knex('meta_books').where({ name: 'tree-kinds' }).first('id')).id;
    const trail = () =>
      a.db.knex('audit_log').where({ entity: 'meta-books', record_id: bookId }).orderBy('id').select('op', 'user_id', 'before', 'after');
    const was = await trail();
    // a change: one audit row, under the caller, with the definition before and after
    const more = {
      ...kinds,
      fields: [...kinds.fields, { name: 'note', type: 'string' as const, maxLength: 50, caption: { uz: 'Izoh', ru: 'Примечание' } }],
    };
    expect((await a.call('POST', '/api/admin/ref-books', more)).status).toBe(200);
    const now = await trail();
    expect(now).toHaveLength(was.length + 1);
    const last = now[now.length - 1];
    const admin = (await a.db.knex('users').where({ username: 'admin' }).first('id')).id;
    expect([last.op, last.user_id]).toEqual(['update', admin]);
    expect(Object.keys(last.before.definition.fields)).not.toContain('note');
    expect(last.after.definition.fields.note).toMatchObject({ type: 'string', maxLength: 50 });
    // a refused change (the DDL's 409) leaves the row, its version and the trail as they were
    const version = (await a.db.knex('meta_books').where({ id: bookId }).first('version')).version;
    const refused = await a.call('POST', '/api/admin/ref-books', { ...more, fields: more.fields.filter((f) => f.name !== 'height') });
    expect(refused.status).toBe(409);
    expect((await a.db.knex('meta_books').where({ id: bookId }).first('version')).version).toBe(version);
    expect(await trail()).toHaveLength(now.length);
    expect((await a.call('POST', '/api/admin/ref-books', kinds)).status).toBe(200);
    // the screen's right (5890) is not the right to make or change a book (meta-books create 5891, update 5892, delete 5893)
    const [role] = await a.db
      .knex('roles')
      .insert({ code: 'books_reader', name: JSON.stringify({ uz: 'Kitoblar', uk: 'Китоблар', ru: 'Книги' }) })
      .returning('id');
    await a.db.knex('role_actions').insert({ role_id: role.id, action_id: 5890, state: 1 });
    await createUser(a.db.knex, { username: 'books_reader', password: 'secret-pw', roles: ['books_reader'] });
    const reader = (await a.call('POST', '/api/admin/auth/login', { username: 'books_reader', password: 'secret-pw' }, '')).body.token;
    expect((await a.call('GET', '/api/admin/ref-books', undefined, reader)).status).toBe(200);
    const denied = await a.call('POST', '/api/admin/ref-books', { ...kinds, name: 'reader-book' }, reader);
    expect(denied.status).toBe(403);
    expect(await a.db.knex.schema.hasTable('reader_book')).toBe(false);
    expect(await a.db.knex('meta_books').where({ name: 'reader-book' }).first('id')).toBeUndefined();
    expect((await a.call('DELETE', '/api/admin/ref-books/tree-kinds', undefined, reader)).status).toBe(403);
  });

  it('the generic routes of meta-books make, keep the name of, and remove a book the same way', async () => {
    const made = await a.call('POST', '/api/admin/meta-books', { name: 'empty-book' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // a book by its name alone: code and name, in the reference books' section, its action ids given
    expect(Object.keys(made.body.definition.fields)).toEqual(['code', 'name']);
    expect(made.body.definition.access.read).toBeGreaterThanOrEqual(8000);
    expect(await a.db.knex.schema.hasTable('empty_book')).toBe(true);
    await a.live.reload();
    expect((await a.call('GET', '/api/ecofund-sprav/empty-book')).status).toBe(200);
    const renamed = await a.call('PUT', `/api/admin/meta-books/${made.body.id}`, { name: 'other-book', version: made.body.version });
    expect(renamed.status).toBe(400);
    expect(Object.keys(renamed.body.errors)).toEqual(['name']);
    expect((await a.call('DELETE', `/api/admin/meta-books/${made.body.id}`)).status).toBe(200);
    expect(await a.db.knex.schema.hasTable('empty_book')).toBe(false);
    expect(await a.db.knex('audit_log').where({ entity: 'meta-books', record_id: made.body.id }).orderBy('id').pluck('op')).toEqual([
      'create',
      'delete',
    ]);
  });

  it('meta:export then meta:import into a fresh database gives the same /api/meta', async () => {
    const root = mkdtempSync(join(tmpdir(), 'refbooks-export-'));
    let b: Instance | undefined;
    try {
      cpSync(DEFAULT_META_DIR, join(root, 'metadata'), { recursive: true });
      const written = await exportBooks(a.db.knex, root);
      expect(written).toContain('metadata/entities/ecofund-sprav/tree-kinds.json');
      // the exported files check on their own
      expect(loadMetadata(join(root, 'metadata')).entities.get('tree-kinds')?.fields.leaf.values).toEqual(['broad', 'needle']);
      b = await Instance.start(await testDatabase());
      await importBooks(b.db.knex, b.live, root, ['tree-kinds']);
      const strip = (m: unknown) => JSON.parse(JSON.stringify(m, (k, v) => (k === 'user' || k === 'token' ? undefined : v)));
      const [ma, mb] = [await a.call('GET', '/api/meta?include=api'), await b.call('GET', '/api/meta?include=api')];
      expect(strip(mb.body)).toEqual(strip(ma.body));
    } finally {
      await b?.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'a second process on the same PostgreSQL database sees a new book without restarting (LISTEN/NOTIFY)',
    async () => {
      // a second app with its own pool and its own model on the same database, as another server process would be
      const { openDatabase } = await import('../api/db/connection.ts');
      const second = await Instance.start(openDatabase({ url: a.db.url!, poolMax: 2 }), true);
      try {
        expect((await second.call('GET', '/api/ecofund-sprav/pine-kinds')).status).toBe(404);
        const spec: BookSpec = {
          name: 'pine-kinds',
          section: 'ecofund-sprav',
          caption: { uz: 'Qaragʻay turlari', ru: 'Виды сосен' },
          fields: [],
        };
        expect((await a.call('POST', '/api/admin/ref-books', spec)).status).toBe(200);
        let seen = false;
        for (let i = 0; i < 50 && !seen; i++) {
          seen = (await second.call('GET', '/api/meta')).body.entities.some((e: { name: string }) => e.name === 'pine-kinds');
          if (!seen) await new Promise((r) => setTimeout(r, 100));
        }
        expect(seen).toBe(true);
        expect((await second.call('GET', '/api/ecofund-sprav/pine-kinds')).status).toBe(200);
      } finally {
        await second.close();
      }
    },
    60_000,
  );
});
