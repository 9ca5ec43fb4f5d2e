import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { fixtureModel } from './support/fixture-model.ts';
import { createEntityTables } from '../api/db/entity-tables.ts';
import { seed } from '../seeds/index.ts';
import { polygonCell, POLYGON_CELL_MAX } from '../api/engine/export.ts';

/**
 * The `polygon` field kind end to end on a fixture entity: a native PostgreSQL polygon column with
 * a GiST index, written from and read back as an open ring of [lng, lat] pairs in rows, lists,
 * child rows, sorts and exports; invalid rings are field errors; null clears.
 */
const fixture = {
  name: 'polygon-plots',
  module: 'fixtures',
  kind: 'reference',
  caption: 'entity.polygon-plots',
  access: { read: 9101, create: 9102, update: 9103, delete: 9104, export: 9105 },
  fields: {
    name: { type: 'string', required: true, maxLength: 100 },
    shape: { type: 'polygon' },
    location: { type: 'point' },
    parts: {
      type: 'children',
      table: 'polygon_plot_parts',
      fields: {
        label: { type: 'string', required: true, maxLength: 50 },
        outline: { type: 'polygon', required: true },
      },
    },
  },
  list: { columns: ['id', 'name', 'shape'], sort: ['id', 'asc'], perPage: 25, filters: { q: { op: 'search', fields: ['name'] } } },
  titleField: 'name',
};
const base = {
  'entity.polygon-plots': 'Uchastkalar',
  'fields.name': 'Nomi',
  'fields.shape': 'Kontur',
  'fields.location': 'Joylashuv',
  'fields.parts': 'Qismlar',
  'fields.label': 'Belgi',
  'fields.outline': 'Chegara',
};
// the two messages the polygon kind adds (metadata/i18n carries them; given here so the test does not depend on when)
const captions = {
  uz: {
    ...base,
    'validation.polygon_points': 'Kontur {min} tadan {max} tagacha nuqtadan iborat boʻlishi kerak',
    'validation.coordinates': 'Koordinatalar notoʻgʻri: uzunlik −180…180, kenglik −90…90 oraliqda boʻlishi kerak',
  },
  uk: {
    ...base,
    'validation.polygon_points': 'Контур {min} тадан {max} тагача нуқтадан иборат бўлиши керак',
    'validation.coordinates': 'Координаталар нотўғри: узунлик −180…180, кенглик −90…90 оралиқда бўлиши керак',
  },
  ru: {
    ...base,
    'validation.polygon_points': 'Контур должен состоять из {min}–{max} точек',
    'validation.coordinates': 'Неверные координаты: долгота от −180 до 180, широта от −90 до 90',
  },
};
const path = '/api/fixtures/polygon-plots';

/** Yunusobod-ish: four corners, with coordinates that are not round in binary. */
const square: [number, number][] = [
  [69.279712, 41.311081],
  [69.301234, 41.311081],
  [69.301234, 41.330007],
  [69.279712, 41.330007],
];
const triangle: [number, number][] = [
  [-179.999999, -89.5],
  [180, 90],
  [0.00001, -0.000001],
];

let api: TestApi;

beforeAll(async () => {
  const model = fixtureModel([fixture], captions);
  api = await startTestApi(model);
  await createEntityTables(api.db.knex, ['polygon-plots'], model);
  await seed(api.db.knex, model, {});
});
afterAll(async () => {
  await api?.close();
});

describe('polygon fields', () => {
  it('stores a native polygon column with a GiST index', async () => {
    const k = api.db.knex;
    const col = await k.raw(`select udt_name from information_schema.columns where table_name = 'polygon_plots' and column_name = 'shape'`);
    expect(col.rows[0].udt_name).toBe('polygon');
    const idx = await k.raw(`select indexdef from pg_indexes where tablename = 'polygon_plots' and indexname = 'polygon_plots_shape_idx'`);
    expect(idx.rows[0].indexdef).toMatch(/USING gist \(shape\)/);
    const child = await k.raw(
      `select udt_name from information_schema.columns where table_name = 'polygon_plot_parts' and column_name = 'outline'`,
    );
    expect(child.rows[0].udt_name).toBe('polygon');
  });

  it('creates, reads, lists and updates a polygon as an open ring of [lng, lat] pairs', async () => {
    const created = await api.post(path, {
      name: 'Park',
      shape: square,
      location: { lat: 41.32, lng: 69.29 },
      parts: [
        { label: 'A', outline: triangle },
        { label: 'B', outline: [...square, square[0]] },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.shape).toEqual(square);
    expect(created.body.location).toEqual({ lat: 41.32, lng: 69.29 });
    expect(created.body.parts.map((p: { outline: unknown }) => p.outline)).toEqual([triangle, square]);

    const one = await api.get(`${path}/${created.body.id}`);
    expect(one.body.shape).toEqual(square);
    const list = await api.get(path);
    expect(list.status).toBe(200);
    expect(list.body.find((r: { id: number }) => r.id === created.body.id).shape).toEqual(square);

    // the column is a real polygon: geometric operators work on it
    const k = api.db.knex;
    expect(await k('polygon_plots').whereRaw('shape && polygon(box(point(69.28, 41.32), point(69.29, 41.325)))').pluck('id')).toEqual([
      created.body.id,
    ]);
    expect(await k('polygon_plots').whereRaw('shape && polygon(box(point(70, 42), point(71, 43)))').pluck('id')).toEqual([]);

    // a closed ring (first point repeated at the end) is stored open
    const updated = await api.put(`${path}/${created.body.id}`, { shape: [...triangle, triangle[0]], version: 1 });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.shape).toEqual(triangle);
    expect(updated.body.version).toBe(2);
    expect(updated.body.parts).toHaveLength(2);
    expect(await k('polygon_plots').whereRaw('shape @> point(0, 0)').pluck('id')).toEqual([created.body.id]);

    // the audit rows carry the ring as the API shows it
    const audit = await api.db.knex('audit_log').where({ entity: 'polygon-plots', record_id: created.body.id }).orderBy('id');
    const after = typeof audit[1].after === 'string' ? JSON.parse(audit[1].after) : audit[1].after;
    expect(after.shape).toEqual(triangle);
  });

  it('clears a polygon with null (and with an empty string)', async () => {
    const created = await api.post(path, { name: 'To clear', shape: square });
    expect(created.status).toBe(201);
    const cleared = await api.put(`${path}/${created.body.id}`, { shape: null, version: 1 });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.shape).toBeNull();
    expect((await api.db.knex('polygon_plots').where('id', created.body.id).first('shape')).shape).toBeNull();
    const again = await api.put(`${path}/${created.body.id}`, { shape: square, version: 2 });
    expect(again.body.shape).toEqual(square);
    const empty = await api.put(`${path}/${created.body.id}`, { shape: '', version: 3 });
    expect(empty.status).toBe(200);
    expect(empty.body.shape).toBeNull();
    const none = await api.post(path, { name: 'Without' });
    expect(none.status).toBe(201);
    expect(none.body.shape).toBeNull();
  });

  it('accepts 2000 points and refuses 2001', async () => {
    const ring = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const a = (2 * Math.PI * i) / n;
        return [Math.round((69.28 + 0.01 * Math.cos(a)) * 1e6) / 1e6, Math.round((41.31 + 0.01 * Math.sin(a)) * 1e6) / 1e6];
      });
    const big = await api.post(path, { name: 'Big', shape: ring(2000) });
    expect(big.status, JSON.stringify(big.body).slice(0, 300)).toBe(201);
    expect(big.body.shape).toEqual(ring(2000));
    const tooBig = await api.post(path, { name: 'Too big', shape: ring(2001) }, { lang: 'ru' });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.errors).toEqual({ shape: 'Контур должен состоять из 3–2000 точек' });
  });

  it("refuses invalid rings with field errors in the caller's language, and writes nothing", async () => {
    const before = await api.db.knex('polygon_plots').count({ n: '*' });
    const cases: [unknown, string][] = [
      [
        [
          [69.2, 41.3],
          [69.3, 41.3],
        ],
        'Kontur 3 tadan 2000 tagacha nuqtadan iborat boʻlishi kerak',
      ],
      // three points of which the last closes the ring: two are left
      [
        [
          [69.2, 41.3],
          [69.3, 41.3],
          [69.2, 41.3],
        ],
        'Kontur 3 tadan 2000 tagacha nuqtadan iborat boʻlishi kerak',
      ],
      [
        [
          [69.2, 41.3],
          [69.3, 91],
          [69.3, 41.4],
        ],
        'Koordinatalar notoʻgʻri: uzunlik −180…180, kenglik −90…90 oraliqda boʻlishi kerak',
      ],
      [
        [
          [-180.5, 41.3],
          [69.3, 41.3],
          [69.3, 41.4],
        ],
        'Koordinatalar notoʻgʻri: uzunlik −180…180, kenglik −90…90 oraliqda boʻlishi kerak',
      ],
      [
        [
          ['69.2', 41.3],
          [69.3, 41.3],
          [69.3, 41.4],
        ],
        'Notoʻgʻri format',
      ],
      [
        [
          [69.2, 41.3, 5],
          [69.3, 41.3],
          [69.3, 41.4],
        ],
        'Notoʻgʻri format',
      ],
      [[[69.2], [69.3, 41.3], [69.3, 41.4]], 'Notoʻgʻri format'],
      [[{ lng: 69.2, lat: 41.3 }, [69.3, 41.3], [69.3, 41.4]], 'Notoʻgʻri format'],
      [
        [
          [null, 41.3],
          [69.3, 41.3],
          [69.3, 41.4],
        ],
        'Notoʻgʻri format',
      ],
      ['((69.2,41.3),(69.3,41.3),(69.3,41.4))', 'Notoʻgʻri format'],
      [{ type: 'Polygon' }, 'Notoʻgʻri format'],
      // a wrong value beats a short ring: the message says what to fix first
      [
        [
          ['x', 41.3],
          [69.3, 41.3],
        ],
        'Notoʻgʻri format',
      ],
    ];
    for (const [shape, message] of cases) {
      const r = await api.post(path, { name: 'Bad', shape });
      expect(r.status, JSON.stringify(shape)).toBe(400);
      expect(r.body.errors, JSON.stringify(shape)).toEqual({ shape: message });
    }
    const ru = await api.post(
      path,
      {
        name: 'Bad',
        shape: [
          [69.2, 41.3],
          [69.3, 41.3],
        ],
      },
      { lang: 'ru' },
    );
    expect(ru.body.errors).toEqual({ shape: 'Контур должен состоять из 3–2000 точек' });
    const uk = await api.post(
      path,
      {
        name: 'Bad',
        shape: [
          [69.2, 41.3],
          [69.3, 41.3],
          [200, 41],
        ],
      },
      { lang: 'uk' },
    );
    expect(uk.body.errors).toEqual({ shape: 'Координаталар нотўғри: узунлик −180…180, кенглик −90…90 оралиқда бўлиши керак' });

    // a child row's polygon: the error is beside the child's field
    const child = await api.post(path, {
      name: 'Bad child',
      parts: [
        { label: 'A', outline: square },
        {
          label: 'B',
          outline: [
            [1, 2],
            [3, 4],
          ],
        },
      ],
    });
    expect(child.status).toBe(400);
    expect(child.body.errors).toEqual({ 'parts.1.outline': 'Kontur 3 tadan 2000 tagacha nuqtadan iborat boʻlishi kerak' });
    const childNull = await api.post(path, { name: 'Bad child', parts: [{ label: 'A', outline: null }] });
    expect(childNull.status).toBe(400);
    expect(Object.keys(childNull.body.errors)).toEqual(['parts.0.outline']);

    // an update is checked the same way
    const row = (await api.get(path)).body[0];
    const upd = await api.put(`${path}/${row.id}`, {
      shape: [
        [0, 0],
        [1, 1],
      ],
      version: row.version,
    });
    expect(upd.status).toBe(400);
    expect(upd.body.errors).toEqual({ shape: 'Kontur 3 tadan 2000 tagacha nuqtadan iborat boʻlishi kerak' });
    expect(await api.db.knex('polygon_plots').count({ n: '*' })).toEqual(before);
  });

  it('sorts a list by polygon area, empty ones last', async () => {
    const asc = await api.get(`${path}?sort=${encodeURIComponent('["shape","ASC"]')}&range=[0,99]`);
    expect(asc.status, JSON.stringify(asc.body)).toBe(200);
    const names = asc.body.map((r: { name: string }) => r.name);
    // Big (a circle of radius 0.01°) < Park (the triangle spanning the globe); null shapes last
    expect(names.slice(0, 2)).toEqual(['Big', 'Park']);
    expect(new Set(names.slice(2))).toEqual(new Set(['To clear', 'Without']));
    const desc = await api.get(`${path}?sort=${encodeURIComponent('["shape","DESC"]')}`);
    expect(desc.status).toBe(200);
    expect(desc.body.slice(-2).map((r: { name: string }) => r.name)).toEqual(['Park', 'Big']);
  });

  it('exports a polygon as "lng lat; lng lat; …", long rings cut with their point count', async () => {
    const x = await api.get(`${path}/export`, { lang: 'uz' });
    expect(x.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.raw);
    const sheet = wb.worksheets[0];
    expect(sheet.getRow(1).getCell(3).value).toBe('Kontur');
    const cells = new Map<string, unknown>();
    for (let i = 2; i <= sheet.rowCount; i++) cells.set(String(sheet.getRow(i).getCell(2).value), sheet.getRow(i).getCell(3).value);
    expect(cells.get('Park')).toBe('-179.999999 -89.5; 180 90; 0.00001 -0.000001');
    expect(cells.get('Without') ?? null).toBeNull();
    const big = String(cells.get('Big'));
    expect(big.length).toBeLessThanOrEqual(POLYGON_CELL_MAX);
    expect(big).toMatch(/^69\.29 41\.31; .*; … \(2000\)$/);
  });

  it('formats cells of short and long rings', () => {
    expect(
      polygonCell([
        [1, 2],
        [3, 4],
        [5, 6],
      ]),
    ).toBe('1 2; 3 4; 5 6');
    const long = polygonCell(Array.from({ length: 500 }, (_, i) => [69 + i / 1000, 41.123456] as [number, number]));
    expect(long.length).toBeLessThanOrEqual(POLYGON_CELL_MAX);
    expect(long.endsWith('; … (500)')).toBe(true);
    expect(long.startsWith('69 41.123456; 69.001 41.123456; ')).toBe(true);
  });
});
