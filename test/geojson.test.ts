import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { samplePayload } from './support/samples.ts';
import { geometryFields, polygonGeometry, signedArea, type Position } from '../api/engine/geojson.ts';
import { publicFilters } from '../api/http/public-entity-routes.ts';
import { filterMeta } from '../api/meta/load.ts';
import { badFilterValues, filterKind } from './support/fuzz-values.ts';

/**
 * GeoJSON (RFC 7946) of the lists of entities with a point or polygon field: `GET path/export.geojson`
 * streams the list's rows — its filters, the caller's scope, the Excel export's row limit — as a
 * FeatureCollection whose features are exactly the list's rows; and the public side's
 * `GET /api/public/entities/:entity/geojson` gives the public rows with their public fields only.
 */

type Feature = {
  type: 'Feature';
  id: number;
  geometry: { type: string; coordinates: unknown } | null;
  properties: Record<string, unknown>;
};
type Collection = { type: 'FeatureCollection'; features: Feature[]; truncated?: boolean };

const ENTITY = 'green-areas';
let api: TestApi;
let path = '';
let regionA = 0;
let regionB = 0;
/** a clockwise ring (as a user may draw it), open as stored */
const CLOCKWISE: Position[] = [
  [69.2, 41.3],
  [69.2, 41.31],
  [69.21, 41.31],
  [69.21, 41.3],
];

const parse = (raw: ArrayBuffer): Collection => JSON.parse(Buffer.from(raw).toString('utf8'));
const q = (o: Record<string, unknown>) => `filter=${encodeURIComponent(JSON.stringify(o))}`;

beforeAll(async () => {
  api = await startTestApi();
  const e = api.model.entities.get(ENTITY)!;
  path = `/api${e.path}`;
  [regionA, regionB] = await api.db.knex('regions').orderBy('id').limit(2).pluck('id');
  const base = await samplePayload(api.db.knex, api.model, e);
  const area = async (region: number) => (await api.db.knex('areas').where({ region_id: region }).first('id'))?.id ?? null;
  const [areaA, areaB] = [await area(regionA), await area(regionB)];
  const make = async (over: Record<string, unknown>) => {
    const r = await api.post(path, { ...base, ...over });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  // region A: three gardens (one with a clockwise polygon, one a point only), a park; region B: two gardens
  await make({ region_id: regionA, area_id: areaA, kind: 'garden', shape: CLOCKWISE, location: { lat: 41.305, lng: 69.205 } });
  await make({ region_id: regionA, area_id: areaA, kind: 'garden', shape: null, location: { lat: 41.2, lng: 69.1 } });
  await make({
    region_id: regionA,
    area_id: areaA,
    kind: 'garden',
    shape: [
      [69.3, 41.4],
      [69.31, 41.4],
      [69.31, 41.41],
    ],
  });
  await make({ region_id: regionA, area_id: areaA, kind: 'park' });
  await make({ region_id: regionB, area_id: areaB, kind: 'garden', shape: null, location: { lat: 42.5, lng: 59.6 } });
  await make({ region_id: regionB, area_id: areaB, kind: 'garden', shape: null, location: { lat: 42.6, lng: 59.7 } });
});

afterAll(async () => {
  await api?.close();
});

describe('the geometry', () => {
  it('a stored ring becomes an RFC 7946 exterior: closed and counterclockwise, whichever way it was drawn', () => {
    const g = polygonGeometry(CLOCKWISE);
    const ring = g.coordinates[0] as Position[];
    expect(ring).toHaveLength(CLOCKWISE.length + 1);
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    expect(signedArea(ring.slice(0, -1))).toBeGreaterThan(0);
    expect(new Set(ring.map((p) => p.join()))).toEqual(new Set(CLOCKWISE.map((p) => p.join())));
    // already counterclockwise: kept as it is
    const ccw = [...CLOCKWISE].reverse();
    expect(polygonGeometry(ccw).coordinates[0]).toEqual([...ccw, ccw[0]]);
    // given closed: not closed twice
    expect(polygonGeometry([...ccw, ccw[0]]).coordinates[0]).toEqual([...ccw, ccw[0]]);
  });
});

describe('the back-office export', () => {
  it('parses, and holds one feature per row of the list with the same filter', async () => {
    for (const filter of [{ region_id: regionA, kind: 'garden' }, { region_id: regionA }, { kind: 'garden' }]) {
      const list = await api.get(`${path}?${q(filter)}&range=[0,99]`);
      expect(list.status).toBe(200);
      const total = Number(list.headers.get('x-total-count'));
      const a = await api.get(`${path}/export.geojson?${q(filter)}`);
      expect(a.status).toBe(200);
      expect(a.headers.get('content-type')).toContain('application/geo+json');
      expect(a.headers.get('content-disposition')).toMatch(/attachment; filename="green-areas-\d{4}-\d{2}-\d{2}\.geojson"/);
      const doc = parse(a.raw);
      expect(doc.type).toBe('FeatureCollection');
      expect(doc.features).toHaveLength(total);
      expect(doc.features.map((f) => f.id).sort()).toEqual((list.body as { id: number }[]).map((r) => r.id).sort());
      for (const f of doc.features) for (const [k, v] of Object.entries(filter)) expect(f.properties[k], `${k} of ${f.id}`).toBe(v);
    }
  });

  it("draws a row by its polygon (closed, counterclockwise), else its point as [lng, lat]; the list's columns as properties", async () => {
    const doc = parse(
      (await api.get(`${path}/export.geojson?${q({ region_id: regionA, kind: 'garden' })}&sort=${encodeURIComponent('["id","ASC"]')}`)).raw,
    );
    expect(doc.features).toHaveLength(3);
    const [withShape, pointOnly, shapeOnly] = doc.features;
    expect(withShape.geometry!.type).toBe('Polygon');
    const ring = (withShape.geometry!.coordinates as Position[][])[0];
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    expect(signedArea(ring.slice(0, -1))).toBeGreaterThan(0);
    expect(pointOnly.geometry).toEqual({ type: 'Point', coordinates: [69.1, 41.2] });
    expect(shapeOnly.geometry!.type).toBe('Polygon');
    // id, name (in the caller's language), kind, region_id with its name, area_id with its name, area_ha (exact), trees
    expect(Object.keys(withShape.properties).sort()).toEqual(
      ['area_ha', 'area_id', 'area_id_name', 'id', 'kind', 'name', 'region_id', 'region_id_name', 'trees'].sort(),
    );
    expect(typeof withShape.properties.name).toBe('string');
    expect(withShape.properties.area_ha).toMatch(/^\d+\.\d{4}$/);
    expect(typeof withShape.properties.region_id_name).toBe('string');
    // in the order of the list's sort
    expect(doc.features.map((f) => f.id)).toEqual([...doc.features.map((f) => f.id)].sort((x, y) => x - y));
  });

  it("is the region-scoped user's rows only: their list's total, none of another region", async () => {
    const e = api.model.entities.get(ENTITY)!;
    const token = await api.userWithActions('geo_region_b', [e.access.read, e.access.export!], { region_id: regionB });
    const list = await api.get(`${path}?range=[0,99]`, { token });
    const doc = parse((await api.get(`${path}/export.geojson`, { token })).raw);
    expect(Number(list.headers.get('x-total-count'))).toBeGreaterThanOrEqual(2);
    expect(doc.features).toHaveLength(Number(list.headers.get('x-total-count')));
    expect(doc.features.every((f) => f.properties.region_id === regionB)).toBe(true);
    // a filter naming region A finds nothing of it
    const theirs = parse((await api.get(`${path}/export.geojson?${q({ region_id: regionA })}`, { token })).raw);
    expect(theirs.features).toEqual([]);
    // with the filter and the scope together
    const gardens = await api.get(`${path}?${q({ kind: 'garden' })}`, { token });
    expect(parse((await api.get(`${path}/export.geojson?${q({ kind: 'garden' })}`, { token })).raw).features).toHaveLength(
      Number(gardens.headers.get('x-total-count')),
    );
  });

  it('needs the export right, refuses unknown filters, and exists only for entities drawn on a map', async () => {
    const e = api.model.entities.get(ENTITY)!;
    const reader = await api.userWithActions('geo_reader', [e.access.read]);
    expect((await api.get(`${path}/export.geojson`, { token: reader })).status).toBe(403);
    expect((await api.get(`${path}/export.geojson`, { token: '' })).status).toBe(401);
    const bad = await api.get(`${path}/export.geojson?no_such=1`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('no_such');
    // an entity without a point or polygon has no such export: the name is taken for a row's id (400 naming it)
    const species = api.model.entities.get('tree-species')!;
    const none = await api.get(`/api${species.path}/export.geojson`);
    expect(none.status).toBe(400);
    expect(none.body.errors).toHaveProperty('id');
  });
});

describe('the public GeoJSON', () => {
  it('holds the public rows with their public fields only, as many as the public list finds', async () => {
    const e = api.model.entities.get(ENTITY)!;
    const list = await api.get(`/api/public/entities/${ENTITY}?kind=garden&perPage=100`, { token: '' });
    expect(list.status).toBe(200);
    const a = await api.get(`/api/public/entities/${ENTITY}/geojson?kind=garden`, { token: '' });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toContain('application/geo+json');
    const doc = parse(a.raw);
    expect(doc.features).toHaveLength(list.body.total);
    expect(doc.truncated).toBe(false);
    const allowed = new Set(['id', ...e.public!.fields.flatMap((f) => [f, `${f}_name`, `${f}_names`])]);
    for (const f of doc.features) {
      for (const k of Object.keys(f.properties)) expect(allowed.has(k), `${k} is not a public field`).toBe(true);
      expect(f.properties).not.toHaveProperty('created_by');
      expect(f.properties).not.toHaveProperty('shape');
      expect(f.properties).not.toHaveProperty('location');
    }
  });

  it('within a viewport, up to a limit, saying when more rows matched', async () => {
    const inA = parse((await api.get(`/api/public/entities/${ENTITY}/geojson?bbox=69.0,41.0,69.5,41.5`, { token: '' })).raw);
    expect(inA.features.length).toBe(4);
    expect(inA.features.every((f) => f.properties.region_id === regionA)).toBe(true);
    const one = parse((await api.get(`/api/public/entities/${ENTITY}/geojson?bbox=69.0,41.0,69.5,41.5&limit=1`, { token: '' })).raw);
    expect(one.features).toHaveLength(1);
    expect(one.truncated).toBe(true);
    expect((await api.get(`/api/public/entities/${ENTITY}/geojson?bbox=1,2`, { token: '' })).status).toBe(400);
    expect((await api.get(`/api/public/entities/${ENTITY}/geojson?limit=5000`, { token: '' })).status).toBe(400);
    // only the public filters
    const priv = await api.get(`/api/public/entities/${ENTITY}/geojson?created_by=1`, { token: '' });
    expect(priv.status).toBe(400);
    // an entity without a public geometry: none
    expect((await api.get('/api/public/entities/publications/geojson', { token: '' })).status).toBe(404);
  });

  it('refuses a malformed filter with a 400 naming it before any of the answer is sent, on every public map entity', {
    timeout: 120_000,
  }, async () => {
    const mapped = [...api.model.entities.values()].filter((e) => e.public && geometryFields(e, e.public.fields));
    expect(mapped.length).toBeGreaterThanOrEqual(10);
    let probes = 0;
    for (const e of mapped) {
      const bad: [string, string][] = [];
      for (const name of publicFilters(e)) {
        const meta = filterMeta(e.list.filters![name]);
        const col = (meta.fields ?? [name])[0];
        const params = meta.op === 'range' ? [`from_${name}`, `to_${name}`] : [name];
        for (const param of params) for (const v of badFilterValues(filterKind(meta.op, e.fields[col], col))) bad.push([param, v]);
      }
      // the reported one: SQL in a reference's filter
      if (publicFilters(e).has('region_id')) bad.push(['region_id', '1 OR 1=1']);
      expect(bad.length, `${e.name} has public filters`).toBeGreaterThan(0);
      for (const [param, v] of bad) {
        probes++;
        const r = await api.get(`/api/public/entities/${e.name}/geojson?${param}=${encodeURIComponent(v)}`, { token: '', lang: 'ru' });
        // a dropped answer would throw in fetch, or end as unparsable GeoJSON with a 200
        expect([e.name, param, v.slice(0, 30), r.status]).toEqual([e.name, param, v.slice(0, 30), 400]);
        expect(Object.keys(r.body.errors ?? {}), `${e.name} ${param}`).toContain(param);
        expect(r.body.message).toMatch(/[а-яА-Я]/);
      }
    }
    expect(probes).toBeGreaterThan(50);
  });
});
