import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { freeUniqueEnum, samplePayload } from './support/samples.ts';
import {
  badFieldValues,
  badFilterValues,
  badReportParamValues,
  filterKind,
  LONE_SURROGATE,
  NUL,
  HUGE_TEXT,
} from './support/fuzz-values.ts';
import { filterMeta } from '../api/meta/load.ts';
import { publicFilters } from '../api/http/public-entity-routes.ts';
import { writableFields } from '../api/engine/payload-schema.ts';
import { routeCatalogue } from '../api/http/catalogue.ts';
import { MAX_JSON_DEPTH } from '../api/http/input-guard.ts';
import type { EntityMeta, FieldMeta } from '../api/meta/types.ts';

/**
 * Generated bad input, from the metadata, for every entity: one bad value in one field of an
 * otherwise valid create and update payload (children: in one field of the first child row), bad
 * values for every declared list filter, and bad sort, range, filter, options, page and perPage on
 * every list and export; then the public calls without a token and the login; then bodies nested
 * thousands of levels deep to every route that takes one, and to the login. Every answer must
 * be a 400 — naming the field or parameter where it is one — never a 500, and no bad payload may
 * write a row (the entity's table, its child and join tables, audit_log, app_errors) or change the
 * row updated.
 */
let api: TestApi;
const formLimit = process.env.ECOFOND_PUBLIC_FORM_PER_HOUR;
beforeAll(async () => {
  // the public form is limited per address; here it is called a few hundred times from one
  process.env.ECOFOND_PUBLIC_FORM_PER_HOUR = '1000000';
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
  if (formLimit === undefined) delete process.env.ECOFOND_PUBLIC_FORM_PER_HOUR;
  else process.env.ECOFOND_PUBLIC_FORM_PER_HOUR = formLimit;
});

const CONCURRENCY = 16;
const stats = { payloads: 0, fiveHundreds: 0, rowsWritten: 0 };
const failures: string[] = [];
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const short = (v: unknown) => {
  const s = typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 20)}…(${v.length})` : v) : JSON.stringify(v);
  return s && s.length > 80 ? `${s.slice(0, 80)}…` : s;
};

/** Runs the tasks, a few at a time. */
async function pool(tasks: (() => Promise<void>)[], n = CONCURRENCY): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, tasks.length) }, async () => {
      while (next < tasks.length) await tasks[next++]();
    }),
  );
}

/** The path under which `errors` must name the bad value: itself or something inside it. */
const names = (path: string) => (errors: Record<string, unknown> | undefined) =>
  !!errors && Object.keys(errors).some((k) => k === path || k.startsWith(`${path}.`));

interface Probe {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  token?: string;
  named: string | null;
  label: string;
}

/** One bad request: a 400 (naming `named` when given), else a failure; a 500 is counted. */
async function send(p: Probe): Promise<void> {
  stats.payloads++;
  let r;
  try {
    r = await api.call(p.method, p.path, { body: p.body, token: p.token });
  } catch (err) {
    failures.push(`${p.label}: ${String(err)}`);
    return;
  }
  if (r.status >= 500) stats.fiveHundreds++;
  if (r.status !== 400) failures.push(`${p.label}: ${r.status} ${short(r.body)}`);
  else if (p.named !== null && !names(p.named)(r.body.errors))
    failures.push(`${p.label}: 400 without ${p.named} in errors: ${short(r.body)}`);
}

/** Tables a bad payload of the entity must leave as they are. */
function tablesOf(e: EntityMeta): string[] {
  const out = new Set([e.table, 'audit_log']);
  for (const f of Object.values(e.fields)) {
    if (f.type === 'children' && f.table) out.add(f.table);
    if (f.through) out.add(f.through.table);
  }
  return [...out];
}

async function counts(tables: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = Number((await api.db.knex(t).count({ n: '*' }))[0].n);
  return out;
}

function written(before: Record<string, number>, after: Record<string, number>, label: string): void {
  for (const t of Object.keys(before)) {
    const d = Math.abs(after[t] - before[t]);
    if (d) {
      stats.rowsWritten += d;
      failures.push(`${label}: ${t} has ${after[t]} rows, had ${before[t]}`);
    }
  }
}

/** A valid first row of a children field, from the metadata of its fields. */
async function childRow(e: EntityMeta, name: string, f: FieldMeta): Promise<Record<string, unknown>> {
  return samplePayload(api.db.knex, api.model, { ...e, name: `${e.name}.${name}`, fields: f.fields ?? {} });
}

/** Every bad payload of an entity: [the field errors must name, the payload]. */
async function badPayloads(e: EntityMeta, valid: Record<string, unknown>): Promise<[string, string, Record<string, unknown>][]> {
  const out: [string, string, Record<string, unknown>][] = [];
  for (const [name, f] of writableFields(e)) {
    for (const bad of badFieldValues(f)) out.push([name, short(bad), { ...valid, [name]: bad }]);
    if (f.type !== 'children') continue;
    const row = await childRow(e, name, f);
    for (const [cn, cf] of writableFields({ ...e, fields: f.fields ?? {} })) {
      for (const bad of badFieldValues(cf)) out.push([`${name}.0.${cn}`, short(bad), { ...valid, [name]: [{ ...row, [cn]: bad }] }]);
    }
  }
  return out;
}

/** A row to update: made from the valid sample, or the newest one where nobody may create. */
async function targetRow(e: EntityMeta): Promise<Record<string, unknown> | undefined> {
  const path = `/api${e.path}`;
  if (e.access.create !== undefined) {
    await freeUniqueEnum(api.db.knex, e);
    const r = await api.post(path, await samplePayload(api.db.knex, api.model, e));
    if (r.status === 201) return (await api.get(`${path}/${r.body.id}`)).body;
    failures.push(`${e.name}: the valid sample was refused: ${r.status} ${short(r.body)}`);
  }
  const list = await api.get(`${path}?sort=${enc(['id', 'DESC'])}&range=${enc([0, 0])}`);
  return list.body[0] ? (await api.get(`${path}/${list.body[0].id}`)).body : undefined;
}

/**
 * Bad list requests of an entity's list or export path. Each bad filter value is sent once, as a
 * plain parameter or inside `filter` JSON by turns (`turn` swaps them, so that the list and the
 * export between them send every value both ways); the public lists take plain parameters only.
 * The export, whose parameters are read by the same code as the list's, gets one probe of each
 * parameter rather than all of them.
 */
function listProbes(e: EntityMeta, base: string, o: { token?: string; filters?: string[]; turn?: 0 | 1; few?: boolean } = {}): Probe[] {
  const { token, turn = 0 } = o;
  const filters = o.filters ?? Object.keys(e.list.filters ?? {});
  const json = token !== '';
  const out: Probe[] = [];
  const get = (query: string, named: string | null) =>
    out.push({ method: 'GET', path: `${base}?${query}`, named, token, label: `${e.name} GET ${base}?${query.slice(0, 80)}` });
  for (const name of filters) {
    const decl = e.list.filters?.[name];
    if (!decl) continue;
    const meta = filterMeta(decl);
    const col = (meta.fields ?? [name])[0];
    const kind = filterKind(meta.op, e.fields[col], col);
    const params = meta.op === 'range' ? [`from_${name}`, `to_${name}`] : [name];
    for (const param of params) {
      badFilterValues(kind).forEach((v, i) => {
        if (json && (i + turn) % 2) get(`filter=${enc({ [param]: v })}`, param);
        else get(`${param}=${encodeURIComponent(v)}`, param);
      });
      if (!json) continue;
      // a URL cannot carry a lone surrogate (it is not UTF-8); JSON can
      get(`filter=${enc({ [param]: LONE_SURROGATE })}`, param);
      get(`filter=${enc({ [param]: { a: 1 } })}`, param);
    }
    if (meta.op === 'range') get(`${name}=1,2,3`, name);
  }
  if (!json) {
    // the public lists page only
    for (const [q, named] of [
      ['page=99999999999999999999', 'page'],
      ['page=0', 'page'],
      ['perPage=101', 'perPage'],
      ['perPage=0', 'perPage'],
      ['page=200000000&perPage=10', 'page'],
      ['page=1.5', 'page'],
      [`page=${encodeURIComponent(NUL)}`, 'page'],
    ] as const)
      get(q, named);
    return out;
  }
  const generic: [string, string | null][] = [
    [`sort=${enc(['no_such_field', 'ASC'])}`, 'sort'],
    [`sort=${enc(['id', 'UP'])}`, 'sort'],
    ['sort=notjson', 'sort'],
    [`sort=${enc([1, 2])}`, 'sort'],
    [`sort=${enc({ a: 1 })}`, 'sort'],
    [`sort=${enc([NUL, 'ASC'])}`, 'sort'],
    [`sort=${enc([LONE_SURROGATE, 'ASC'])}`, 'sort'],
    [`range=${enc([0, 1e20])}`, 'range'],
    [`range=${enc([1e20, 1e20 + 5])}`, 'range'],
    [`range=${enc([-1, 5])}`, 'range'],
    [`range=${enc([5, 1])}`, 'range'],
    [`range=${enc([0, 1.5])}`, 'range'],
    ['range=abc', 'range'],
    [`range=${enc([0])}`, 'range'],
    [`range=${enc([0, 100])}`, 'range'],
    [`range=${enc([2_000_000_000, 2_000_000_005])}`, 'range'],
    [`range=${enc({})}`, 'range'],
    [`range=${enc(['0', '9'])}`, 'range'],
    [`range=[0,${HUGE_TEXT}]`, 'range'],
    ['filter=%7B', 'filter'],
    [`filter=${enc([])}`, 'filter'],
    [`filter=${enc('str')}`, 'filter'],
    ['filter=null', 'filter'],
    [`filter=${enc({ no_such_filter: 1 })}`, 'no_such_filter'],
    [`filter=${enc({ id: [0] })}`, 'id'],
    [`filter=${enc({ id: ['abc'] })}`, 'id'],
    [`filter=${enc({ id: [1e20] })}`, 'id'],
    [`filter=${enc({ id: [NUL] })}`, 'id'],
    ['id=0', 'id'],
    [`id=${HUGE_TEXT}`, 'id'],
    [`options=${encodeURIComponent('garbage')}`, 'options'],
    [`options=${encodeURIComponent('sortBy=no_such_field')}`, 'sortBy'],
    [`options=${encodeURIComponent('page=0;perPage=10')}`, 'page'],
    [`options=${encodeURIComponent(`page=${HUGE_TEXT};perPage=10`)}`, 'page'],
    [`options=${encodeURIComponent('page=1;perPage=1000')}`, 'perPage'],
    [`options=${encodeURIComponent('sortBy=id;descending=maybe')}`, 'descending'],
    [`options=${encodeURIComponent(`sortBy=id;page=${NUL}`)}`, 'options'],
    [`page=${HUGE_TEXT}`, 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=abc', 'page'],
    ['page=100000000000', 'page'],
    ['page=200000000&perPage=10', 'page'],
    ['perPage=0', 'perPage'],
    ['perPage=101', 'perPage'],
    [`perPage=${HUGE_TEXT}`, 'perPage'],
    [`perPage=${encodeURIComponent(NUL)}`, 'perPage'],
    [`${encodeURIComponent('no\u0000such')}=1`, null],
    ['no_such_filter=1', 'no_such_filter'],
  ];
  // the export: the first probe of each parameter
  const seen = new Set<string | null>();
  for (const [q, named] of generic) {
    if (o.few && seen.has(named)) continue;
    seen.add(named);
    get(q, named);
  }
  return out;
}

describe('generated bad input never answers 500 nor writes a row', () => {
  it('refuses one bad value in one field of every create and update, naming the field', { timeout: 600_000 }, async () => {
    for (const e of api.model.entities.values()) {
      const path = `/api${e.path}`;
      const creatable = e.access.create !== undefined;
      const target = e.access.update !== undefined ? await targetRow(e) : undefined;
      if (!creatable && !target) continue;
      const tables = tablesOf(e);
      const before = await counts(tables);
      const probes: Probe[] = [];
      if (creatable) {
        for (const [field, bad, body] of await badPayloads(e, await samplePayload(api.db.knex, api.model, e))) {
          probes.push({ method: 'POST', path, body, named: field, label: `${e.name} create ${field}=${bad}` });
        }
      }
      if (target) {
        for (const [field, bad, body] of await badPayloads(e, target)) {
          probes.push({ method: 'PUT', path: `${path}/${target.id}`, body, named: field, label: `${e.name} update ${field}=${bad}` });
        }
      }
      await pool(probes.map((p) => () => send(p)));
      written(before, await counts(tables), e.name);
      if (target) {
        const after = await api.get(`${path}/${target.id}`);
        if (after.body.version !== target.version)
          failures.push(`${e.name}: a bad update changed row ${target.id} (version ${target.version} → ${after.body.version})`);
      }
    }
  });

  it('refuses bad filters, sort, range, filter, options, page and perPage on every list and export', { timeout: 600_000 }, async () => {
    const probes: Probe[] = [];
    for (const e of api.model.entities.values()) {
      probes.push(...listProbes(e, `/api${e.path}`));
      probes.push(...listProbes(e, `/api${e.path}/export`, { turn: 1, few: true }));
    }
    await pool(probes.map((p) => () => send(p)));
  });

  it('refuses bad input to the public calls without a token, and to the login', { timeout: 300_000 }, async () => {
    const probes: Probe[] = [];
    // the public planting form, validated like its entity
    const form = api.model.entities.get('public-plantings');
    const before = await counts(['public_plantings']);
    if (form) {
      for (const [field, bad, body] of await badPayloads(form, await samplePayload(api.db.knex, api.model, form))) {
        probes.push({ method: 'POST', path: '/api/public/plantings', body, token: '', named: field, label: `public form ${field}=${bad}` });
      }
    }
    // the public lists: their public filters and paging
    for (const e of api.model.entities.values()) {
      if (!e.public) continue;
      probes.push(...listProbes(e, `/api/public/entities/${e.name}`, { token: '', filters: [...publicFilters(e)] }));
    }
    // reports: public ones without a token, every one for staff
    for (const r of api.model.reports.values()) {
      for (const [param, p] of Object.entries(r.params)) {
        for (const v of badReportParamValues(p)) {
          const q = `${param}=${encodeURIComponent(v)}`;
          for (const suffix of ['', '/export']) {
            if (r.public)
              probes.push({
                method: 'GET',
                path: `/api/public/reports/${r.name}${suffix}?${q}`,
                token: '',
                named: param,
                label: `public report ${r.name}${suffix} ${param}=${short(v)}`,
              });
            probes.push({
              method: 'GET',
              path: `/api/reports/${r.name}${suffix}?${q}`,
              named: param,
              label: `report ${r.name}${suffix} ${param}=${short(v)}`,
            });
          }
        }
      }
    }
    // the login, before any session
    for (const [field, body] of [
      ['username', { username: `ad${NUL}min`, password: 'whatever' }],
      ['username', { username: LONE_SURROGATE, password: 'whatever' }],
      ['password', { username: 'admin', password: NUL }],
      ['password', { username: 'admin', password: LONE_SURROGATE }],
      // a bad key is named by itself, cleaned
      ['user\uFFFDname', { 'user\u0000name': 'admin', password: 'x' }],
    ] as const)
      probes.push({ method: 'POST', path: '/api/admin/auth/login', body, token: '', named: field, label: `login ${short(body)}` });
    await pool(probes.map((p) => () => send(p)));
    written(before, await counts(['public_plantings']), 'public form');
  });

  it('refuses bodies nested thousands deep on every write route and the sign-in, storing nothing', { timeout: 300_000 }, async () => {
    const k = api.db.knex;
    const stored = async () =>
      Object.fromEntries(
        await Promise.all(['app_errors', 'audit_log', 'login_logs'].map(async (t) => [t, Number((await k(t).count({ n: '*' }))[0].n)])),
      );
    const before = await stored();
    const [failed, fiveHundreds] = [failures.length, stats.fiveHundreds];
    const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const objects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    /** A raw JSON text (JSON.stringify of such a value would itself overflow), answered 400 naming `named` when given. */
    const raw = async (
      method: string,
      path: string,
      text: string,
      named: string | null,
      label: string,
      token = api.adminToken,
      lang = 'uz',
    ) => {
      stats.payloads++;
      const headers: Record<string, string> = { 'Content-Type': 'application/json', Language: lang };
      if (token) headers.Authorization = `Bearer ${token}`;
      let status: number;
      let body: { errors?: Record<string, string> } = {};
      try {
        const res = await fetch(`${api.url}/api${path}`, { method, headers, body: text });
        status = res.status;
        body = (await res.json().catch(() => ({}))) as typeof body;
      } catch (err) {
        failures.push(`${label}: ${String(err)}`);
        return body;
      }
      if (status >= 500) stats.fiveHundreds++;
      if (status !== 400) failures.push(`${label}: ${status} ${short(body)}`);
      else if (named !== null && !names(named)(body.errors)) failures.push(`${label}: 400 without ${named} in errors: ${short(body)}`);
      return body;
    };
    const DEEP = 5000;
    const tasks: (() => Promise<unknown>)[] = [];
    // every route that takes a body (a DELETE's is never read); the guard answers before any of them runs
    for (const r of routeCatalogue(api.model)) {
      if (r.method !== 'post' && r.method !== 'put') continue;
      const path = r.path.replace(/:[a-zA-Z_]+/g, '1');
      const token = r.auth === 'public' ? '' : api.adminToken;
      const label = `${r.method.toUpperCase()} ${r.path}`;
      tasks.push(
        () => raw(r.method, path, `{"deep":${arrays(DEEP)}}`, 'deep', `${label} deep arrays`, token),
        () => raw(r.method, path, `{"name":"x","deep":${objects(DEEP)}}`, 'deep', `${label} deep objects`, token),
        () => raw(r.method, path, arrays(DEEP), null, `${label} a deep array as the body`, token),
      );
    }
    // the sign-in, without a session: ten times 20 000 deep, in each language
    for (let i = 0; i < 10; i++) {
      tasks.push(() =>
        raw(
          'POST',
          '/admin/auth/login',
          `{"username":${arrays(20_000)},"password":"x"}`,
          'username',
          `login 20 000 deep #${i}`,
          '',
          ['uz', 'uk', 'ru'][i % 3],
        ),
      );
    }
    await pool(
      tasks.map((t) => async () => {
        await t();
      }),
      8,
    );
    // the parser itself holds: a million levels of arrays, 300 000 of objects, within the 2 MB limit
    await raw('POST', '/admin/auth/login', arrays(1_000_000), null, 'login a million deep', '');
    await raw('POST', '/admin/auth/login', objects(300_000), 'a', 'login 300 000 objects deep', '');
    // the answer is in the caller's language, naming the field and the bound
    const ru = await raw(
      'POST',
      '/admin/auth/login',
      `{"username":${arrays(100)},"password":"x"}`,
      'username',
      'login 100 deep, ru',
      '',
      'ru',
    );
    expect(ru.errors?.username).toBe(`Слишком глубокая вложенность данных (не более ${MAX_JSON_DEPTH} уровней)`);
    const uk = await raw(
      'POST',
      '/admin/auth/login',
      `{"username":${arrays(MAX_JSON_DEPTH)},"password":"x"}`,
      'username',
      'login at the bound + 1, uk',
      '',
      'uk',
    );
    expect(uk.errors?.username).toBe(`Маълумотлар жуда чуқур ичма-ич жойлашган (кўпи билан ${MAX_JSON_DEPTH} даража)`);
    // at the bound a body is read as usual: here a wrong type of username, not a depth
    const atBound = await api.post(
      '/api/admin/auth/login',
      { username: JSON.parse(arrays(MAX_JSON_DEPTH - 1)), password: 'x' },
      { token: '' },
    );
    expect([atBound.status, atBound.body.errors?.username]).toEqual([400, 'Loginni kiriting']);
    expect(failures.slice(failed)).toEqual([]);
    expect(stats.fiveHundreds - fiveHundreds).toBe(0);
    expect(await stored()).toEqual(before);
  });

  it('counted no 500 and no row written', () => {
    console.log(
      `fuzz: ${stats.payloads.toLocaleString('en-US').replace(/,/g, ' ')} payloads, ${stats.fiveHundreds} answers of 500, ${stats.rowsWritten} rows written`,
    );
    if (failures.length) console.log(`fuzz failures (${failures.length}):\n${failures.slice(0, 300).join('\n')}`);
    expect(stats.fiveHundreds).toBe(0);
    expect(stats.rowsWritten).toBe(0);
    expect(failures).toEqual([]);
  });
});
