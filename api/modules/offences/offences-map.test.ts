import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';
import { createUser } from '../../../cli/create-user.ts';
import { OFFENCE_GRID, nextZoom } from '../../map/grid.ts';
import { OFFENCE_CELL_SETS, OFFENCE_MAP_LEVELS } from '../../../migrations/20261126000100_offence_map.ts';
import { CELL_SETS, cellTile, splitPeriod } from './map.ts';

/**
 * The offences map (docs/offences.md, "Offences map"): every cluster's count — and its count by
 * state — equals the offences matching the filters, counted here from the offences table on its
 * own; each user sees what their row scope opens (a region's staff their region, the police what
 * was sent to the ministry in theirs, an inspector their own); bad parameters are 400s naming them;
 * and the aggregates stay exact after creates, state changes, moves and deletes.
 */
const MAP = '/api/ecofund-offences/offences/map';
const OFFENCES = '/api/ecofund-offences/offences';
/** all of Uzbekistan and more */
const WIDE = '55,36,75,46';
const STATES = ['draft', 'review', 'returned', 'mvd', 'closed'];

let api: TestApi;
let r1: number;
let r2: number;
let t1: number;
let t2: number;
let fineId: number;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

interface Row {
  id: number;
  lng: number;
  lat: number;
  region_id: number;
  status: string;
  mvd_sent: boolean;
  offence_type_id: number | null;
  offence_date: string;
  inspector_id: number | null;
}
interface Filter {
  region_id?: number;
  offence_type_id?: number;
  status?: string[];
  from?: string;
  to?: string;
}
interface Answer {
  layer: string;
  source?: string;
  items: unknown[][];
  total?: number;
  truncated?: boolean;
  next_zoom?: number;
  size?: number;
  states: string[];
}

async function user(username: string, role: string, region: number, kind = 'staff'): Promise<void> {
  ids[username] = await createUser(api.db.knex, { username, password: 'secret-pw', roles: [role], region_id: region });
  await api.db.knex('users').where({ id: ids[username] }).update({ kind });
  tokens[username] = await api.login(username, 'secret-pw');
}

/** The offences with a place, as the table holds them. */
async function located(): Promise<Row[]> {
  const rows = await api.db
    .knex('offences')
    .whereNotNull('location')
    .select(
      'id',
      api.db.knex.raw('location[0] as lng'),
      api.db.knex.raw('location[1] as lat'),
      'region_id',
      'status',
      'mvd_sent',
      'offence_type_id',
      api.db.knex.raw(`to_char(offence_date, 'YYYY-MM-DD') as offence_date`),
      'inspector_id',
    );
  return rows.map((r: Row) => ({
    ...r,
    id: Number(r.id),
    region_id: Number(r.region_id),
    offence_type_id: r.offence_type_id === null ? null : Number(r.offence_type_id),
    inspector_id: r.inspector_id === null ? null : Number(r.inspector_id),
  }));
}

const matches = (r: Row, f: Filter) =>
  (f.region_id === undefined || r.region_id === f.region_id) &&
  (f.offence_type_id === undefined || r.offence_type_id === f.offence_type_id) &&
  (!f.status || f.status.includes(r.status)) &&
  (!f.from || r.offence_date >= f.from) &&
  (!f.to || r.offence_date <= f.to);

const query = (f: Filter) =>
  [
    f.region_id !== undefined ? `&region_id=${f.region_id}` : '',
    f.offence_type_id !== undefined ? `&offence_type_id=${f.offence_type_id}` : '',
    f.status ? `&status=${f.status.join(',')}` : '',
    f.from ? `&from_offence_date=${f.from}` : '',
    f.to ? `&to_offence_date=${f.to}` : '',
  ].join('');

async function view(bbox: string, zoom: number, f: Filter = {}, token?: string): Promise<Answer> {
  const r = await api.get(`${MAP}?bbox=${bbox}&zoom=${zoom}${query(f)}`, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Answer;
}

type Counts = Map<string, { n: number; by: number[] }>;
const add = (m: Counts, key: string, status: string) => {
  const c = m.get(key) ?? { n: 0, by: STATES.map(() => 0) };
  c.n++;
  c.by[STATES.indexOf(status)]++;
  m.set(key, c);
};

/** What a viewport must show, counted from the rows: per region at zoom ≤ 6, else per cell the viewport touches. */
function expected(rows: Row[], bbox: string, zoom: number): Counts {
  const m: Counts = new Map();
  const [x0, y0, x1, y1] = bbox.split(',').map(Number);
  const level = OFFENCE_GRID.levels.find((l) => zoom <= l.maxZoom && zoom > OFFENCE_GRID.regionsMaxZoom);
  for (const r of rows) {
    if (zoom <= OFFENCE_GRID.regionsMaxZoom) {
      add(m, `r${r.region_id}`, r.status);
      continue;
    }
    const s = level!.size;
    const [cx, cy] = [Math.floor(r.lng / s), Math.floor(r.lat / s)];
    if (cx < Math.floor(x0 / s) || cx > Math.floor(x1 / s) || cy < Math.floor(y0 / s) || cy > Math.floor(y1 / s)) continue;
    add(m, `${cx}:${cy}`, r.status);
  }
  return m;
}

/** What the map answered, keyed as `expected` keys it (a cell by where its centre lies: the centre of points in a cell is in it). */
function shown(a: Answer, zoom: number): Counts {
  const m: Counts = new Map();
  const level = OFFENCE_GRID.levels.find((l) => zoom <= l.maxZoom && zoom > OFFENCE_GRID.regionsMaxZoom);
  for (const [lng, lat, n, by, region] of a.items as [number, number, number, number[], number?][]) {
    const key = a.layer === 'regions' ? `r${region}` : `${Math.floor(lng / level!.size)}:${Math.floor(lat / level!.size)}`;
    expect(m.has(key), `${key} twice`).toBe(false);
    m.set(key, { n, by });
  }
  return m;
}

async function expectView(bbox: string, zoom: number, f: Filter, rows: Row[], token?: string): Promise<Answer> {
  const a = await view(bbox, zoom, f, token);
  const want = expected(
    rows.filter((r) => matches(r, f)),
    bbox,
    zoom,
  );
  expect(Object.fromEntries(shown(a, zoom)), `zoom ${zoom} ${query(f)}`).toEqual(Object.fromEntries(want));
  expect(a.total).toBe([...want.values()].reduce((s, c) => s + c.n, 0));
  return a;
}

/** offence_cells as it must be, recounted from the offences: every level, grouping set and key. */
async function expectAggregatesExact(): Promise<void> {
  const rows = await located();
  const want = new Map<string, { n: number; lng: number }>();
  const levels: [number, number | null][] = [[0, null], ...OFFENCE_MAP_LEVELS.map(([l, s]) => [l, s] as [number, number])];
  for (const r of rows) {
    const month = Number(r.offence_date.slice(0, 4)) * 100 + Number(r.offence_date.slice(5, 7));
    for (const [level, size] of levels) {
      const [cx, cy] = size === null ? [0, 0] : [Math.floor(r.lng / size), Math.floor(r.lat / size)];
      for (const grp of CELL_SETS[level]) {
        const key = [
          level,
          grp,
          cellTile(cx, cy),
          grp & 2 ? month : 0,
          cx,
          cy,
          r.region_id,
          r.status,
          r.mvd_sent,
          grp & 1 ? (r.offence_type_id ?? 0) : 0,
        ].join('|');
        const c = want.get(key) ?? { n: 0, lng: 0 };
        c.n++;
        c.lng += r.lng;
        want.set(key, c);
      }
    }
  }
  const have = await api.db.knex('offence_cells').select('*');
  const got = new Map<string, { n: number; lng: number }>(
    have.map((c: Record<string, unknown>) => [
      [c.level, c.grp, c.tile, c.month, c.cx, c.cy, Number(c.region_id), c.status, c.mvd_sent, Number(c.offence_type_id)].join('|'),
      { n: Number(c.n), lng: Number(c.lng_sum) },
    ]),
  );
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [k, w] of want) {
    expect(got.get(k)!.n, k).toBe(w.n);
    expect(got.get(k)!.lng, k).toBeCloseTo(w.lng, 6);
  }
}

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  [r1, r2] = (await k('regions').orderBy('id').limit(2).pluck('id')).map(Number);
  [{ id: fineId }] = await k('fine')
    .insert({ code: 'MAP-1', article: '65', name: JSON.stringify({ uz: 'Daraxtlarni kesish' }), min_multiple: '5', max_multiple: '10' })
    .returning('id');
  [{ id: t1 }, { id: t2 }] = await k('offence_type')
    .insert([
      { code: 'MAP-A', name: JSON.stringify({ uz: 'Kesish' }) },
      { code: 'MAP-B', name: JSON.stringify({ uz: 'Suv' }) },
    ])
    .returning('id');
  await user('insp1', 'inspector', r1);
  await user('reviewer', 'confirming_staff', r1);
  await user('police1', 'police', r1, 'mvd');
  await user('hq1', 'headquarters', r1);
  await k('users').where({ id: ids.hq1 }).update({ region_id: null });
  tokens.hq = await api.login('hq1', 'secret-pw');
  // 900 offences around the two regions' centres, over 2025, in every state, type (or none) and
  // with a place but every eleventh; the ministry's where sent; every sixth the inspector's
  const [c1, c2] = await Promise.all(
    [r1, r2].map((r) => k('regions').where({ id: r }).first(k.raw('centre[0] as lng'), k.raw('centre[1] as lat'))),
  );
  await k.raw(
    `
    insert into offences (number, offence_date, region_id, fine_id, fine_multiple, status, mvd_sent, offence_type_id, location, inspector_id)
    select 'MAP-' || g, date '2025-01-01' + ((g * 37) % 365), case when g % 3 = 0 then cast(:r2 as bigint) else cast(:r1 as bigint) end, cast(:fine as bigint), 5,
           (array['draft', 'review', 'returned', 'mvd', 'closed'])[1 + g % 5],
           g % 5 = 3 or (g % 5 = 4 and g % 2 = 0) or (g % 5 = 2 and g % 7 = 0),
           case g % 4 when 0 then null when 1 then cast(:t1 as bigint) else cast(:t2 as bigint) end,
           case when g % 11 = 0 then null else point(
             round(cast((case when g % 3 = 0 then cast(:x2 as float8) else cast(:x1 as float8) end) + ((g * 7919) % 20000 - 10000) / 10000.0 * 0.9 as numeric), 4),
             round(cast((case when g % 3 = 0 then cast(:y2 as float8) else cast(:y1 as float8) end) + ((g * 104729) % 12000 - 6000) / 10000.0 * 0.5 as numeric), 4)) end,
           case when g % 6 = 1 then cast(:insp as bigint) end
      from generate_series(1, 900) g`,
    {
      r1,
      r2,
      fine: fineId,
      t1,
      t2,
      insp: ids.insp1,
      x1: Number(c1.lng),
      y1: Number(c1.lat),
      x2: Number(c2.lng),
      y2: Number(c2.lat),
    },
  );
});
afterAll(async () => {
  await api?.close();
});

describe('the offences map', () => {
  it('counts every cluster as the offences matching the filters, at every layer', async () => {
    const rows = await located();
    expect(rows.length).toBeGreaterThan(800);
    const filters: Filter[] = [
      {},
      { status: ['mvd'] },
      { status: ['draft', 'closed'] },
      { region_id: r2 },
      { offence_type_id: t1 },
      // whole months, part months, one month in part, and everything together
      { from: '2025-03-01', to: '2025-05-31' },
      { from: '2025-03-14', to: '2025-07-09' },
      { from: '2025-06-03', to: '2025-06-20' },
      { from: '2025-10-01' },
      { to: '2025-02-10' },
      { region_id: r1, offence_type_id: t2, status: ['review', 'returned'], from: '2025-02-15', to: '2025-11-30' },
    ];
    for (const zoom of [5, 7, 9, 11, 13, 14]) {
      for (const f of filters) {
        const a = await expectView(WIDE, zoom, f, rows);
        expect(a.source).toBe('aggregates');
        expect(a.layer).toBe(zoom <= OFFENCE_GRID.regionsMaxZoom ? 'regions' : 'cells');
        expect(a.next_zoom).toBe(nextZoom(zoom, OFFENCE_GRID));
      }
    }
    // several bounds of the period all hold
    const both = await api.get(`${MAP}?bbox=${WIDE}&zoom=9&offence_date=2025-02-01,2025-10-31&from_offence_date=2025-04-15`);
    expect(both.body.total).toBe(rows.filter((r) => matches(r, { from: '2025-04-15', to: '2025-10-31' })).length);
    // a viewport inside a region: the cells it touches, whole
    const [x, y] = [rows[0].lng, rows[0].lat];
    for (const zoom of [8, 10, 12, 14]) {
      const bbox = [x - 0.3, y - 0.2, x + 0.3, y + 0.2].map((n) => n.toFixed(4)).join(',');
      await expectView(bbox, zoom, {}, rows);
      await expectView(bbox, zoom, { status: ['review'], from: '2025-04-10' }, rows);
    }
  });

  it('shows single offences when zoomed in: id, place, state, type, number', async () => {
    const rows = await located();
    const r = rows[5];
    const bbox = [r.lng - 0.05, r.lat - 0.05, r.lng + 0.05, r.lat + 0.05].join(',');
    const a = await view(bbox, 16);
    expect(a.layer).toBe('offences');
    expect(a.truncated).toBe(false);
    const inside = rows.filter((o) => o.lng >= r.lng - 0.05 && o.lng <= r.lng + 0.05 && o.lat >= r.lat - 0.05 && o.lat <= r.lat + 0.05);
    expect(a.items.map((i) => i[0]).sort()).toEqual(inside.map((o) => o.id).sort());
    const mine = a.items.find((i) => i[0] === r.id)!;
    expect(mine.slice(1, 5)).toEqual([r.lng, r.lat, r.status, r.offence_type_id]);
    expect(mine[5]).toMatch(/^MAP-/);
    const filtered = await view(bbox, 16, { status: ['mvd'], offence_type_id: t2 });
    expect(filtered.items.map((i) => i[0]).sort()).toEqual(
      inside
        .filter((o) => o.status === 'mvd' && o.offence_type_id === t2)
        .map((o) => o.id)
        .sort(),
    );
  });

  it('shows each user the offences of their scope', async () => {
    const rows = await located();
    // a region's reviewer: their region
    for (const zoom of [5, 9, 13]) {
      const a = await expectView(
        WIDE,
        zoom,
        {},
        rows.filter((r) => r.region_id === r1),
        tokens.reviewer,
      );
      expect(a.source).toBe('aggregates');
      await expectView(WIDE, zoom, { region_id: r2 }, [], tokens.reviewer);
    }
    // the police: what was sent to the ministry in their region, also when closed or returned since
    const police = rows.filter((r) => r.region_id === r1 && r.mvd_sent);
    expect(new Set(police.map((r) => r.status))).toEqual(new Set(['mvd', 'closed', 'returned']));
    for (const zoom of [5, 9, 13]) {
      expect((await expectView(WIDE, zoom, {}, police, tokens.police1)).source).toBe('aggregates');
      await expectView(WIDE, zoom, { status: ['closed'], from: '2025-05-05', to: '2025-09-20' }, police, tokens.police1);
    }
    // an inspector: their own, counted from the offences (the aggregates do not keep the inspector)
    const own = rows.filter((r) => r.inspector_id === ids.insp1);
    expect(own.length).toBeGreaterThan(100);
    for (const zoom of [5, 9, 13]) {
      expect((await expectView(WIDE, zoom, {}, own, tokens.insp1)).source).toBe('rows');
      await expectView(WIDE, zoom, { status: ['draft'], from: '2025-03-03' }, own, tokens.insp1);
    }
    const r = own[0];
    const near = await view([r.lng - 0.2, r.lat - 0.2, r.lng + 0.2, r.lat + 0.2].join(','), 16, {}, tokens.insp1);
    expect(near.items.length).toBeGreaterThan(0);
    expect(near.items.every((i) => own.some((o) => o.id === i[0]))).toBe(true);
    // headquarters: every region
    await expectView(WIDE, 5, {}, rows, tokens.hq);
  });

  it('answers a bad viewport or filter with a 400 naming it', async () => {
    const bad = async (q: string, name: string) => {
      const r = await api.get(`${MAP}?${q}`);
      expect(r.status, q).toBe(400);
      expect(Object.keys(r.body.errors ?? {}), q).toEqual([name]);
    };
    await bad('zoom=5', 'bbox');
    await bad('bbox=1,2,3&zoom=5', 'bbox');
    await bad('bbox=70,40,60,30&zoom=5', 'bbox');
    await bad('bbox=a,b,c,d&zoom=5', 'bbox');
    await bad('bbox=60,,70,40&zoom=5', 'bbox');
    await bad(`bbox=${WIDE}`, 'zoom');
    await bad(`bbox=${WIDE}&zoom=x`, 'zoom');
    await bad(`bbox=${WIDE}&zoom=23`, 'zoom');
    await bad(`bbox=${WIDE}&zoom=-1`, 'zoom');
    await bad(`bbox=${WIDE}&zoom=5&inspector_id=1`, 'inspector_id');
    await bad(`bbox=${WIDE}&zoom=5&status=lost`, 'status');
    await bad(`bbox=${WIDE}&zoom=9&region_id=x`, 'region_id');
    await bad(`bbox=${WIDE}&zoom=9&from_offence_date=2025-02-30`, 'from_offence_date');
    // a period that ends before it starts is empty
    expect((await view(WIDE, 9, { from: '2025-05-01', to: '2025-04-01' })).items).toEqual([]);
  });

  it('keeps the aggregates exact through creates, state changes, moves and deletes', async () => {
    await expectAggregatesExact();
    const before = (await view(WIDE, 5, { region_id: r2 })).total!;
    const created = await api.post(OFFENCES, {
      number: 'MAP-NEW',
      offence_date: '2025-09-01',
      region_id: r2,
      fine_id: fineId,
      fine_multiple: '6',
      offence_type_id: t1,
      location: { lat: 40.5, lng: 72.1 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    await expectAggregatesExact();
    const draft = (await view('72,40.4,72.2,40.6', 13, { region_id: r2, offence_type_id: t1 })).items;
    expect(draft.some((i) => (i[3] as number[])[0] >= 1)).toBe(true);
    expect((await view(WIDE, 5, { region_id: r2 })).total).toBe(before + 1);

    // moved (still a draft) to another place and another type
    const moved = await api.put(`${OFFENCES}/${id}`, {
      version: created.body.version,
      location: { lat: 40.9, lng: 71.7 },
      offence_type_id: t2,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await expectAggregatesExact();
    expect((await view('72,40.4,72.2,40.6', 16)).items.some((i) => i[0] === id)).toBe(false);
    expect((await view('71.6,40.8,71.8,41', 16)).items.find((i) => i[0] === id)?.slice(3, 5)).toEqual(['draft', t2]);

    // its state changes: sent for review, then to the ministry
    expect((await api.post(`${OFFENCES}/${id}/actions/send-for-review`, {})).status).toBe(200);
    await expectAggregatesExact();
    expect((await api.post(`${OFFENCES}/${id}/actions/send-to-mvd`, {})).status).toBe(200);
    await expectAggregatesExact();
    expect((await view('71.6,40.8,71.8,41', 16, { status: ['mvd'] })).items.map((i) => i[0])).toContain(id);
    // returned by the police, then deleted
    expect((await api.post(`${OFFENCES}/${id}/actions/mvd-return`, { comment: 'Manzil notoʻgʻri' })).status).toBe(200);
    await expectAggregatesExact();
    expect((await api.del(`${OFFENCES}/${id}`)).status).toBe(200);
    await expectAggregatesExact();
    expect((await view(WIDE, 5, { region_id: r2 })).total).toBe(before);

    // a batch in one statement each: updates of some (state, place, date, no change that matters), deletes, and a place removed
    const k = api.db.knex;
    await k.raw(`update offences set status = 'closed' where number like 'MAP-%' and id % 7 = 0`);
    await k.raw(
      `update offences set location = point(location[0] + 0.013, location[1] - 0.021), offence_date = offence_date - 40 where number like 'MAP-%' and id % 5 = 1`,
    );
    await k.raw(`update offences set description = 'tekshirildi' where number like 'MAP-%' and id % 3 = 0`);
    await k.raw(`update offences set location = null where number like 'MAP-%' and id % 13 = 0`);
    await k.raw(`delete from offences where number like 'MAP-%' and id % 17 = 0`);
    await expectAggregatesExact();
    await expectView(WIDE, 11, { from: '2025-01-20', to: '2025-08-31' }, await located());
  });
});

describe('a period split for the aggregates', () => {
  it('takes whole months from the aggregates and the rest by days', () => {
    expect(splitPeriod('2025-03-01', '2025-05-31')).toEqual({ months: [202503, 202505], edges: [], empty: false });
    expect(splitPeriod('2025-03-14', '2025-07-09')).toEqual({
      months: [202504, 202506],
      edges: [
        ['2025-03-14', '2025-03-31'],
        ['2025-07-01', '2025-07-09'],
      ],
      empty: false,
    });
    expect(splitPeriod('2025-06-03', '2025-06-20')).toEqual({ months: undefined, edges: [['2025-06-03', '2025-06-20']], empty: false });
    expect(splitPeriod('2025-06-01', '2025-06-30')).toEqual({ months: [202506, 202506], edges: [], empty: false });
    expect(splitPeriod('2025-12-15', '2026-01-31')).toEqual({
      months: [202601, 202601],
      edges: [['2025-12-15', '2025-12-31']],
      empty: false,
    });
    expect(splitPeriod('2025-12-15', '2026-01-10')).toEqual({
      months: undefined,
      edges: [
        ['2025-12-15', '2025-12-31'],
        ['2026-01-01', '2026-01-10'],
      ],
      empty: false,
    });
    expect(splitPeriod('2024-02-29', undefined)).toEqual({ months: [202403, 999912], edges: [['2024-02-29', '2024-02-29']], empty: false });
    expect(splitPeriod(undefined, '2025-02-28')).toEqual({ months: [0, 202502], edges: [], empty: false });
    expect(splitPeriod('2025-05-02', '2025-05-01').empty).toBe(true);
  });

  it('agrees with the migration on the grid, the grouping sets and the tiles', () => {
    expect(OFFENCE_GRID.levels.map((l) => [l.level, l.size])).toEqual(OFFENCE_MAP_LEVELS.map(([l, s]) => [l, s]));
    expect(CELL_SETS).toEqual(OFFENCE_CELL_SETS);
    expect([cellTile(0, 0), cellTile(31, 31), cellTile(32, -1), cellTile(-1, -33), cellTile(-33, 64)]).toEqual([0, 0, 8191, -8194, -16382]);
  });
});
