import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApi, type Answer, type TestApi } from './support/api.ts';
import { RouteFixtures, callOf, send, told, type Call, type Row } from './support/access.ts';
import { samplePayload } from './support/samples.ts';
import { loadMetadata } from '../api/meta/load.ts';
import { mayCall, routeCatalogue, type ApiRoute } from '../api/http/catalogue.ts';
import { toColumnValue } from '../api/engine/sql.ts';
import type { EntityMeta } from '../api/meta/types.ts';
import type { Principal } from '../api/auth/ability.ts';

/**
 * The OpenAPI document (`GET /api/openapi.json`, api/http/openapi.ts) is generated from the
 * metadata for the caller: it passes a real OpenAPI 3.1 validator, it holds exactly the routes the
 * caller may call (the public ones without a token; entities the caller cannot read are absent),
 * its schemas compile, and every documented path of the sample entities answers as documented —
 * each called, its status one the document gives, its body matching the documented schema (ajv
 * with the document's own components), its request bodies too.
 */

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, Resp> };
};
type Resp = { description: string; content?: Record<string, { schema?: unknown }>; $ref?: string };
type Op = {
  operationId: string;
  responses: Record<string, Resp>;
  requestBody?: { content: Record<string, { schema?: unknown }> };
  parameters?: { name?: string; in?: string; $ref?: string }[];
  'x-entity'?: string;
};

/** The entities whose every documented path is called: CRUD with a polygon, text3, decimals and a public block; and a workflow with bulk moves and no create. */
const SAMPLES = ['green-areas', 'public-plantings'];

const model = loadMetadata();
const CATALOGUE = routeCatalogue(model);
let api: TestApi;
let fx: RouteFixtures;
let adminDoc: Doc;
let publicDoc: Doc;
/** What /api/meta offers the administrator */
let adminApi: ApiRoute[];

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020, formats?: string[]) => Ajv2020;
let ajv: Ajv2020;
const compiled = new Map<string, ValidateFunction>();

/** A schema of the document compiled with the document's components as its `#/components/...`. */
function validatorOf(schema: unknown): ValidateFunction {
  const text = JSON.stringify(schema ?? {}).replaceAll('"#/components/', '"openapi.json#/components/');
  let v = compiled.get(text);
  if (!v) compiled.set(text, (v = ajv.compile(JSON.parse(text))));
  return v;
}

function expectMatches(schema: unknown, value: unknown, what: string): void {
  const v = validatorOf(schema);
  expect(v(value), `${what}: ${JSON.stringify(v.errors?.slice(0, 3))} in ${JSON.stringify(value)?.slice(0, 600)}`).toBe(true);
}

const docPath = (r: Pick<ApiRoute, 'path'>) => `/api${r.path.replace(/:([A-Za-z_]\w*)/g, '{$1}')}`;
const keysOf = (d: Doc) =>
  Object.entries(d.paths)
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
    .sort();
const keyOf = (r: ApiRoute) => `${r.method.toUpperCase()} ${docPath(r)}`;

beforeAll(async () => {
  api = await startTestApi(model);
  fx = new RouteFixtures(api);
  await fx.prepare();
  const [admin, anonymous, meta] = await Promise.all([
    api.get('/api/openapi.json'),
    api.get('/api/openapi.json', { token: '' }),
    api.get('/api/meta?include=api'),
  ]);
  adminApi = (meta.body as { api: ApiRoute[] }).api;
  expect(admin.status).toBe(200);
  expect(anonymous.status).toBe(200);
  adminDoc = admin.body as Doc;
  publicDoc = anonymous.body as Doc;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: adminDoc.components });
});

afterAll(async () => {
  await api?.close();
});

describe('the document', () => {
  it('passes an OpenAPI 3.1 validator, for the administrator and for nobody signed in', async () => {
    for (const doc of [adminDoc, publicDoc]) {
      expect(doc.openapi).toBe('3.1.0');
      const result = await new Validator().validate(doc as never);
      expect(result.errors ?? [], 'OpenAPI validation').toEqual([]);
      expect(result.valid).toBe(true);
    }
  });

  it('compiles: every schema of its components is a JSON Schema 2020-12', () => {
    const names = Object.keys(adminDoc.components.schemas);
    expect(() => validatorOf({ anyOf: names.map((n) => ({ $ref: `#/components/schemas/${n}` })) })).not.toThrow();
  });

  it('holds, for the administrator, every route of the catalogue they may call, and no other', () => {
    expect(keysOf(adminDoc)).toEqual([...new Set(adminApi.map(keyOf))].sort());
  });

  it('holds, without a token, the public calls only: public and optional routes', () => {
    const open = CATALOGUE.filter((r) => r.auth !== 'session');
    expect(keysOf(publicDoc)).toEqual([...new Set(open.map(keyOf))].sort());
    expect(publicDoc.paths['/api/openapi.json']?.get).toBeDefined();
    expect(publicDoc.paths['/api/docs']?.get).toBeDefined();
    expect(Object.keys(publicDoc.components.schemas)).not.toContain('green-areas');
    expect(Object.keys(publicDoc.components.schemas)).toContain('public.green-areas');
  });

  it('leaves out, for a user holding only some rights, the entities they cannot read', async () => {
    const e = model.entities.get('green-areas')!;
    const token = await api.userWithActions('openapi_reader', [e.access.read, e.access.export!]);
    const doc = (await api.get('/api/openapi.json', { token })).body as Doc;
    const p: Principal = {
      id: 0,
      username: '',
      region_id: null,
      branch_id: null,
      subject_id: null,
      actions: new Set([e.access.read, e.access.export!]),
    };
    const theirs = CATALOGUE.filter((r) => mayCall(model, r, p));
    expect(keysOf(doc)).toEqual([...new Set(theirs.map(keyOf))].sort());
    const entities = new Set(
      Object.values(doc.paths).flatMap((ops) =>
        Object.values(ops)
          .map((o) => o['x-entity'])
          .filter(Boolean),
      ),
    );
    expect([...entities]).toEqual(['green-areas']);
    expect(doc.paths[`/api${e.path}`].get).toBeDefined();
    expect(doc.paths[`/api${e.path}/{id}`].get).toBeDefined();
    expect(doc.paths[`/api${e.path}`].post, 'create is not theirs').toBeUndefined();
    expect(doc.components.schemas['green-areas.create']).toBeUndefined();
    expect(doc.components.schemas.plantings).toBeUndefined();
  });

  it("carries the entity's field rules as the engine checks them: the create body is the payload schema", () => {
    const create = adminDoc.components.schemas['green-areas.create'] as {
      required: string[];
      properties: Record<string, Record<string, unknown>>;
    };
    expect(create.required.sort()).toEqual(['kind', 'location', 'name', 'region_id']);
    expect(create.properties.area_ha.anyOf).toBeDefined();
    const areaHa = (create.properties.area_ha.anyOf as Record<string, unknown>[])[0];
    expect(areaHa.pattern).toBe('^-?\\d{1,8}(\\.\\d{1,4})?$');
    const founded = (create.properties.founded_on.anyOf as Record<string, unknown>[])[0];
    expect(founded['x-maximum']).toBe('today');
    expect(create.properties.shape.anyOf).toBeDefined();
    // both list protocols and the declared filters
    const list = adminDoc.paths['/api/ecofund-plantings/green-areas'].get;
    const names = (list.parameters ?? []).map((x) => x.name);
    for (const n of ['sort', 'range', 'filter', 'options', 'sortBy', 'descending', 'page', 'perPage', 'q', 'kind', 'region_id', 'area_id'])
      expect(names, n).toContain(n);
    expect(Object.keys(adminDoc.paths['/api/ecofund-plantings/public-plantings/{id}/actions/reject'].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '409']),
    );
  });
});

describe('the reference page', () => {
  it('draws the document with Redoc served from our origin, under a policy without inline code', async () => {
    const page = await api.get('/api/docs', { token: '' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const policy = Object.fromEntries(
      page.headers
        .get('content-security-policy')!
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([n, ...v]) => [n, v]),
    );
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['style-src'].some((x: string) => x.startsWith("'nonce-"))).toBe(true);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(JSON.stringify(policy)).not.toContain('unsafe');
    const scripts = [...String(page.body).matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(['/api/docs/redoc.standalone.js', '/api/docs/docs.js']);
    for (const src of scripts) {
      const js = await api.get(src, { token: '' });
      expect(js.status, src).toBe(200);
      expect(js.headers.get('content-type')).toContain('text/javascript');
    }
    const renderer = await api.get('/api/docs/redoc.standalone.js', { token: '' });
    expect(String(renderer.body)).toContain('Redoc');
    expect(String((await api.get('/api/docs/docs.js', { token: '' })).body)).toContain('/api/openapi.json');
  });

  it("has Redoc treat the document as untrusted: administrators' captions are sanitised, not rendered as HTML", async () => {
    // the installed Redoc reads the option (and sanitises with it)
    expect(String((await api.get('/api/docs/redoc.standalone.js', { token: '' })).body)).toMatch(
      /sanitize=\w+\(\w+\.sanitize\|\|\w+\.untrustedSpec\)/,
    );
    // the page's script, as served, run with a browser's few globals it uses: what it gives Redoc
    const script = String((await api.get('/api/docs/docs.js', { token: '' })).body);
    const element = () => ({ textContent: '', hidden: true, value: '', add() {}, addEventListener() {} });
    let options: Record<string, unknown> | undefined;
    let drawn: () => void = () => undefined;
    const done = new Promise<void>((r) => {
      drawn = r;
    });
    runInNewContext(script, {
      document: { querySelector: () => null, getElementById: element },
      localStorage: { getItem: () => null },
      location: { search: '' },
      URLSearchParams,
      Option: function Option() {},
      fetch: async (url: string) => {
        const r = await api.get(url, { token: '' });
        return { ok: r.status === 200, status: r.status, json: async () => r.body };
      },
      window: {
        Redoc: {
          init: (_doc: unknown, o: Record<string, unknown>) => {
            options = o;
            drawn();
          },
        },
      },
    });
    await done;
    expect(options).toMatchObject({ untrustedSpec: true });
  });
});

// ------------------------------------------------------------------ every documented path of the samples, called

function documented(op: Op, status: number): Resp | undefined {
  const r = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
  if (r?.$ref) return adminDoc.components.responses[r.$ref.split('/').pop()!];
  return r;
}

/** The answer is one the operation documents: its status, its media type, and its body matching the schema. */
function expectDocumented(op: Op, a: Answer, what: string): void {
  const resp = documented(op, a.status);
  expect(resp, `${what}: status ${a.status} is not documented (${Object.keys(op.responses).join(', ')}): ${told(a)}`).toBeDefined();
  if (!resp!.content) return;
  const type = (a.headers.get('content-type') ?? '').split(';')[0].trim();
  const media = resp!.content[type] ?? resp!.content['*/*'];
  expect(media, `${what}: answered ${type}, documented ${Object.keys(resp!.content).join(', ')}`).toBeDefined();
  if (/json/.test(type)) {
    const body = typeof a.body === 'string' ? JSON.parse(a.body) : a.body;
    expectMatches(media!.schema, body, `${what} → ${a.status}`);
  }
}

function expectBodyDocumented(op: Op, c: Call, what: string): void {
  if (c.json === undefined) return;
  const schema = op.requestBody?.content['application/json']?.schema;
  expect(schema, `${what}: a JSON body is not documented`).toBeDefined();
  expectMatches(schema, c.json, `${what}: the request body`);
}

/** A row of its own for a call that deletes: made through the API where the entity may be created, else written as the sample is. */
async function ownRow(e: EntityMeta): Promise<Row> {
  if (e.access.create !== undefined) return fx.create(e);
  const payload = await samplePayload(api.db.knex, model, e);
  const columns = Object.entries(payload).filter(([k]) => e.fields[k] && e.fields[k].type !== 'children' && !e.fields[k].through);
  const [row] = await api.db
    .knex(e.table)
    .insert(Object.fromEntries(columns.map(([k, v]) => [k, toColumnValue(api.db.knex, e.fields[k], v)])))
    .returning('id');
  return { id: row.id };
}

/** Values for the query parameters an operation requires (a map layer's viewport). */
const REQUIRED_QUERY: Record<string, string> = { bbox: '55.9,37.1,73.2,45.6' };

function withRequiredQuery(op: Op, path: string): string {
  const required = (op.parameters ?? []).filter((p) => p.in === 'query' && (p as { required?: boolean }).required).map((p) => p.name!);
  if (!required.length) return path;
  const q = new URLSearchParams(required.map((n): [string, string] => [n, REQUIRED_QUERY[n] ?? '1']));
  return `${path}${path.includes('?') ? '&' : '?'}${q}`;
}

const called = new Set<string>();
async function run(op: Op, c: Call, what: string, o: { invalidBody?: boolean } = {}): Promise<Answer> {
  if (!o.invalidBody) expectBodyDocumented(op, c, what);
  const a = await send(api, c);
  expectDocumented(op, a, what);
  called.add(what.split(' [')[0]);
  return a;
}

describe.each(SAMPLES)('every documented path of %s answers as documented', (name) => {
  const e = model.entities.get(name)!;
  const routes = () => CATALOGUE.filter((r) => r.entity === name || r.path.split('/').includes(name));
  const opOf = (r: ApiRoute) => adminDoc.paths[docPath(r)]?.[r.method];
  const ordered = () => {
    const rs = routes().filter((r) => opOf(r));
    const last = (r: ApiRoute) => (r.op === 'delete' ? 1 : 0);
    return rs.sort((a, b) => last(a) - last(b));
  };

  it("each operation, with the administrator's token (deletes last, on rows of their own)", async () => {
    const own = await ownRow(e);
    for (const r of ordered()) {
      const op = opOf(r);
      const what = `${r.method.toUpperCase()} ${docPath(r)}`;
      const row = r.op === 'delete' ? await ownRow(e) : own;
      const c = await callOf(fx, r, r.auth === 'public' ? undefined : api.adminToken, { row, creates: true });
      c.path = withRequiredQuery(op, c.path);
      const a = await run(op, c, what);
      expect(a.status, `${what}: ${told(a)}`).toBeLessThan(r.source === 'workflow' ? 410 : 300);
    }
  });

  it('the list in both protocols, with a filter, and the same rows', async () => {
    const r = routes().find((x) => x.method === 'get' && x.path === e.path)!;
    const op = opOf(r);
    const row = await api.db.knex(e.table).orderBy('id', 'desc').first();
    const filter = e.list.filters?.region_id ? 'region_id' : 'status';
    const value = row[filter];
    const raSide = await run(
      op,
      {
        method: 'get',
        path: `/api${e.path}?sort=${encodeURIComponent('["id","DESC"]')}&range=${encodeURIComponent('[0,4]')}&filter=${encodeURIComponent(JSON.stringify({ [filter]: value }))}`,
        token: api.adminToken,
      },
      `${docPath(r)} [simple REST]`,
    );
    const specSide = await run(
      op,
      {
        method: 'get',
        path: `/api${e.path}?options=${encodeURIComponent('sortBy=id;descending=true;page=1;perPage=5')}&${filter}=${encodeURIComponent(String(value))}`,
        token: api.adminToken,
      },
      `${docPath(r)} [spec]`,
    );
    expect(raSide.status).toBe(200);
    expect(specSide.body).toEqual(raSide.body);
    expect(raSide.headers.get('x-total-count')).toBe(specSide.headers.get('x-total-count'));
    expect((raSide.body as Row[]).map((x) => x.id)).toContain(row.id);
    expect((raSide.body as Row[]).every((x) => x[filter] === value)).toBe(true);
  });

  it('its documented errors: 401 without a token, 400 naming a bad parameter, 404 for another id, 409 for a stale version', async () => {
    const list = opOf(routes().find((x) => x.method === 'get' && x.path === e.path)!);
    const get = opOf(routes().find((x) => x.method === 'get' && x.path === `${e.path}/:id`)!);
    const a401 = await run(list, { method: 'get', path: `/api${e.path}` }, `${docPath(e)} [no token]`);
    expect(a401.status).toBe(401);
    const a400 = await run(
      list,
      { method: 'get', path: `/api${e.path}?sort=${encodeURIComponent('["no_such","ASC"]')}`, token: api.adminToken },
      `${docPath(e)} [bad sort]`,
    );
    expect(a400.status).toBe(400);
    expect((a400.body as { errors: Record<string, string> }).errors.sort).toBeTruthy();
    const a404 = await run(
      get,
      { method: 'get', path: `/api${e.path}/999999999`, token: api.adminToken },
      `${docPath(e)}/{id} [another id]`,
    );
    expect(a404.status).toBe(404);
    const update = routes().find((x) => x.method === 'put');
    if (update) {
      const row = await fx.fresh(e, (await ownRow(e)).id);
      const stale = await run(
        opOf(update),
        { method: 'put', path: `/api${e.path}/${row.id}`, token: api.adminToken, json: { version: Number(row.version) + 5 } },
        `${docPath(e)}/{id} [stale]`,
      );
      expect(stale.status).toBe(409);
      // a number below its field's minimum: a 400 naming the field
      const [field, f] = Object.entries(e.fields).find(([, x]) => x.type === 'integer' && typeof x.min === 'number' && !x.readOnly)!;
      const wrong = await run(
        opOf(update),
        {
          method: 'put',
          path: `/api${e.path}/${row.id}`,
          token: api.adminToken,
          json: { version: row.version, [field]: (f.min as number) - 1 },
        },
        `${docPath(e)}/{id} [bad field]`,
        { invalidBody: true },
      );
      expect(wrong.status).toBe(400);
      expect(Object.keys((wrong.body as { errors: object }).errors)).toEqual([field]);
    }
  });

  it('every documented operation of it was called', () => {
    const documentedOps = Object.entries(adminDoc.paths).flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([, o]) => o['x-entity'] === name || p.split('/').includes(name))
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    expect(documentedOps.length).toBeGreaterThan(8);
    expect(documentedOps.filter((k) => !called.has(k))).toEqual([]);
  });
});
