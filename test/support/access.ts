import type { ApiRoute } from '../../api/http/catalogue.ts';
import type { EntityMeta, FieldMeta, MetaModel } from '../../api/meta/types.ts';
import { createSession, newToken } from '../../api/auth/sessions.ts';
import { hashPassword } from '../../api/auth/password.ts';
import { agreeWithin, freeUniqueEnum, samplePayload, sampleValue } from './samples.ts';
import { toColumnValue } from '../../api/engine/sql.ts';
import { TEST_ADMIN_PASSWORD } from './template.ts';
import type { Answer, TestApi } from './api.ts';

/**
 * What the generated access tests (test/access.test.ts) need to call any route of the catalogue:
 * users holding exactly some actions in some scope, a row for `:id`, values for declared path
 * parameters, and a body of the kind the route takes — all from the metadata.
 */

/** A 1×1 PNG: the body of file routes. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** "POST /api/managing/users/:id/unlock" */
export const routeKey = (r: Pick<ApiRoute, 'method' | 'path'>): string => `${r.method.toUpperCase()} /api${r.path}`;

export interface Scope {
  region_id?: number | null;
  subject_id?: number | null;
  branch_id?: number | null;
}

export type Row = Record<string, unknown> & { id: number };

export interface CallOptions {
  /** the row at `:id` (default: the entity's shared row) */
  row?: Row;
  /** ids for references of workflow parameters, by the entity referred to */
  refs?: Record<string, number>;
  /** the call is expected to create a row (a unique enum value is freed for it) */
  creates?: boolean;
}

/**
 * Signed-in users holding exactly the given actions, in the given scope: a role, a user and a
 * session each, written straight to the database (no password hashing per user), cached by what
 * they hold — so hundreds of action sets cost a few inserts each.
 */
export class Probes {
  private readonly tokens = new Map<string, Promise<string>>();
  private hash?: Promise<string>;
  private n = 0;
  constructor(private readonly api: TestApi) {}

  private static key(actions: number[], scope: Scope): string {
    return JSON.stringify([
      [...new Set(actions)].sort((a, b) => a - b),
      scope.region_id ?? null,
      scope.subject_id ?? null,
      scope.branch_id ?? null,
    ]);
  }

  token(actions: number[], scope: Scope = {}): Promise<string> {
    const key = Probes.key(actions, scope);
    let t = this.tokens.get(key);
    if (!t) {
      t = this.user(actions, scope).then((id) => createSession(this.api.db.knex, id, {}));
      this.tokens.set(key, t);
    }
    return t;
  }

  /** Makes the users for many action sets at once: a handful of inserts in all. */
  async prepare(specs: { actions: number[]; scope?: Scope }[]): Promise<void> {
    const k = this.api.db.knex;
    const todo = new Map<string, { actions: number[]; scope: Scope }>();
    for (const { actions, scope = {} } of specs) {
      const key = Probes.key(actions, scope);
      if (!this.tokens.has(key)) todo.set(key, { actions: [...new Set(actions)], scope });
    }
    if (!todo.size) return;
    const list = [...todo.entries()].map(([key, spec]) => ({ key, ...spec, n: ++this.n }));
    this.hash ??= hashPassword('probe-secret');
    const password = await this.hash;
    const chunk = <T>(xs: T[]) => Array.from({ length: Math.ceil(xs.length / 500) }, (_, i) => xs.slice(i * 500, i * 500 + 500));
    const roles = new Map<number, number>();
    const users = new Map<number, number>();
    for (const part of chunk(list)) {
      const rs = await k('roles')
        .insert(part.map((p) => ({ code: `probe_${p.n}`, name: JSON.stringify({ uz: `probe ${p.n}` }) })))
        .returning(['id', 'code']);
      for (const r of rs) roles.set(Number(String(r.code).slice(6)), r.id);
      const us = await k('users')
        .insert(
          part.map((p) => ({
            username: `probe_${p.n}`,
            password,
            fio: `Probe ${p.n}`,
            region_id: p.scope.region_id ?? null,
            subject_id: p.scope.subject_id ?? null,
            branch_id: p.scope.branch_id ?? null,
          })),
        )
        .returning(['id', 'username']);
      for (const u of us) users.set(Number(String(u.username).slice(6)), u.id);
    }
    const grants = list.flatMap((p) => p.actions.map((action_id) => ({ role_id: roles.get(p.n)!, action_id, state: 1 })));
    for (const part of chunk(grants)) await k('role_actions').insert(part);
    for (const part of chunk(list)) await k('user_roles').insert(part.map((p) => ({ user_id: users.get(p.n)!, role_id: roles.get(p.n)! })));
    const expires = new Date(Date.now() + 24 * 3600_000);
    for (const part of chunk(list)) {
      const sessions = part.map((p) => ({ p, ...newToken() }));
      await k('sessions').insert(
        sessions.map(({ p, hash }) => ({ token_hash: hash, user_id: users.get(p.n)!, user_agent: 'probe', expires_at: expires })),
      );
      for (const { p, token } of sessions) this.tokens.set(p.key, Promise.resolve(token));
    }
  }

  /** A session of its own (for a call that ends the session it is made with). */
  async disposable(actions: number[], scope: Scope = {}): Promise<string> {
    return createSession(this.api.db.knex, await this.user(actions, scope), {});
  }

  private async user(actions: number[], scope: Scope): Promise<number> {
    const k = this.api.db.knex;
    const n = ++this.n;
    this.hash ??= hashPassword('probe-secret');
    const [role] = await k('roles')
      .insert({ code: `probe_${n}`, name: JSON.stringify({ uz: `probe ${n}` }) })
      .returning('id');
    if (actions.length) await k('role_actions').insert(actions.map((action_id) => ({ role_id: role.id, action_id, state: 1 })));
    const [user] = await k('users')
      .insert({
        username: `probe_${n}`,
        password: await this.hash,
        fio: `Probe ${n}`,
        region_id: scope.region_id ?? null,
        subject_id: scope.subject_id ?? null,
        branch_id: scope.branch_id ?? null,
      })
      .returning('id');
    await k('user_roles').insert({ user_id: user.id, role_id: role.id });
    return user.id;
  }
}

export interface Call {
  method: string;
  path: string;
  token?: string;
  json?: unknown;
  file?: Buffer;
}

/** One HTTP call: JSON or a file as the body (its name in `?name=`), a bearer token when given. */
export async function send(api: TestApi, c: Call): Promise<Answer> {
  const headers: Record<string, string> = { Language: 'uz' };
  if (c.token) headers.Authorization = `Bearer ${c.token}`;
  let body: Uint8Array | string | undefined;
  let path = c.path;
  if (c.file) {
    headers['Content-Type'] = 'application/octet-stream';
    body = new Uint8Array(c.file);
    path += `${path.includes('?') ? '&' : '?'}name=probe.png`;
  } else if (c.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(c.json);
  }
  const res = await fetch(api.url + path, { method: c.method.toUpperCase(), headers, body });
  const raw = await res.arrayBuffer();
  const type = res.headers.get('content-type') ?? '';
  const text = Buffer.from(raw).toString('utf8');
  let parsed: unknown = text;
  if (type.includes('json'))
    try {
      parsed = JSON.parse(text);
    } catch {
      /* kept as text */
    }
  return { status: res.status, headers: res.headers, body: parsed, raw };
}

/** A short account of an answer for an assertion's message. */
export function told(a: Answer): string {
  const b = typeof a.body === 'string' ? a.body.slice(0, 200) : JSON.stringify(a.body)?.slice(0, 300);
  return `${a.status} ${a.headers.get('content-type')?.includes('json') ? b : `(${a.headers.get('content-type')})`}`;
}

/**
 * Rows, path parameters and bodies for any route of the catalogue: `:id` is a row of the route's
 * entity (made by the administrator from a sample payload, or the newest where nobody may create),
 * or of the entity the path names before it, or an uploaded file under /files and /resources.
 */
export class RouteFixtures {
  private readonly rows = new Map<string, Promise<Row | undefined>>();
  resourceId = 0;
  constructor(readonly api: TestApi) {}

  get model(): MetaModel {
    return this.api.model;
  }
  get knex() {
    return this.api.db.knex;
  }

  /**
   * Before any probe signs in: a file, and the rows of entities nobody may create — taken now, so
   * that the newest session is a spare administrator's, never a probe's.
   */
  async prepare(): Promise<void> {
    const up = await send(this.api, { method: 'post', path: '/api/resources/upload', token: this.api.adminToken, file: PNG });
    if (up.status !== 201) throw new Error(`upload: ${told(up)}`);
    this.resourceId = (up.body as { id: number }).id;
    await this.api.login('admin', TEST_ADMIN_PASSWORD);
    for (const e of this.model.entities.values()) if (e.access.create === undefined) this.rows.set(e.name, this.newest(e));
    await Promise.all(this.rows.values());
  }

  entity(name: string): EntityMeta {
    const e = this.model.entities.get(name);
    if (!e) throw new Error(`no entity ${name}`);
    return e;
  }

  /** The shared row of an entity for the routes at `:id` (undefined when it has none and nobody may make one). */
  row(name: string): Promise<Row | undefined> {
    let r = this.rows.get(name);
    if (!r) {
      const e = this.entity(name);
      r = e.access.create === undefined ? this.newest(e) : this.create(e);
      this.rows.set(name, r);
    }
    return r;
  }

  /** A new row made by the administrator from the entity's sample payload. */
  async create(e: EntityMeta, over: Record<string, unknown> = {}): Promise<Row> {
    await freeUniqueEnum(this.knex, e);
    const payload = await agreeWithin(this.knex, this.model, e, { ...(await samplePayload(this.knex, this.model, e)), ...over }, over);
    const r = await send(this.api, { method: 'post', path: `/api${e.path}`, token: this.api.adminToken, json: payload });
    if (r.status !== 201) throw new Error(`creating ${e.name}: ${told(r)}`);
    return r.body as Row;
  }

  /** The newest row; where there is none, one written straight to the table from the sample payload. */
  private async newest(e: EntityMeta): Promise<Row | undefined> {
    const list = async () => {
      const r = await send(this.api, {
        method: 'get',
        path: `/api${e.path}?sort=${encodeURIComponent('["id","DESC"]')}&range=[0,0]`,
        token: this.api.adminToken,
      });
      if (r.status !== 200) throw new Error(`newest ${e.name}: ${told(r)}`);
      return (r.body as Row[])[0];
    };
    const found = await list();
    if (found) return found;
    try {
      const payload = await samplePayload(this.knex, this.model, e);
      const columns = Object.entries(payload).filter(([k]) => e.fields[k] && e.fields[k].type !== 'children' && !e.fields[k].through);
      await this.knex(e.table).insert({
        ...Object.fromEntries(columns.map(([k, v]) => [k, toColumnValue(this.knex, e.fields[k], v)])),
        ...(e.view ?? {}),
      });
    } catch {
      return undefined;
    } // a log table the engine alone writes: no row to call with
    return list();
  }

  /** The row as the administrator reads it now (a body for PUT). */
  async fresh(e: EntityMeta, id: number): Promise<Row> {
    const r = await send(this.api, { method: 'get', path: `/api${e.path}/${id}`, token: this.api.adminToken });
    if (r.status !== 200) throw new Error(`reading ${e.name} ${id}: ${told(r)}`);
    return r.body as Row;
  }

  /** What `:id` of a route is: a row of an entity, or a file. */
  idKind(r: ApiRoute): EntityMeta | 'file' | undefined {
    if (!r.path.includes('/:id')) return undefined;
    if (r.entity) return this.entity(r.entity);
    const before = r.path.split('/:id')[0].split('/').pop()!;
    if (before === 'files' || before === 'resources') return 'file';
    const e = this.model.entities.get(before);
    if (e) return e;
    throw new Error(`${routeKey(r)}: the test does not know what ":id" is — name the route's entity in its metadata`);
  }

  /** The id for `:id`: the given row's, else the shared row's of the route's entity, or the uploaded file. */
  async idFor(r: ApiRoute, row?: Row): Promise<number | undefined> {
    const kind = this.idKind(r);
    if (kind === undefined) return undefined;
    if (kind === 'file') return this.resourceId;
    return (row ?? (await this.row(kind.name)))?.id ?? 999_999_999;
  }

  /** A value for a declared path parameter: the row's own when the parameter is a field of it, else a sample typed like the field. */
  async param(name: string, f: FieldMeta, e: EntityMeta | undefined, row: Row | undefined): Promise<string> {
    if (row && e?.fields[name] && row[name] !== null && row[name] !== undefined) return String(row[name]);
    if (f.type === 'file' || f.type === 'image') return String(this.resourceId);
    if (f.type === 'ref' && f.ref) return String((await this.knex(this.entity(f.ref).table).first('id'))?.id ?? 1);
    return String(sampleValue(name, f, {}) ?? 1);
  }

  /** The route's path under /api with its parameters filled; `row` stands for `:id` (and the row parameters are read from) when given. */
  async path(r: ApiRoute, row?: Row): Promise<string> {
    const e = r.entity ? this.entity(r.entity) : undefined;
    const id = await this.idFor(r, row);
    let p = r.path;
    if (id !== undefined) p = p.replace('/:id', `/${id}`);
    for (const [name, f] of Object.entries(r.params ?? {})) {
      const source = row ?? (e?.fields[name] ? await this.row(e.name) : undefined);
      p = p.replace(`:${name}`, encodeURIComponent(await this.param(name, f as FieldMeta, e, source)));
    }
    return `/api${p}`;
  }

  /** A workflow action's parameters from its metadata (references replaced by `refs` where given), with a comment. */
  async actionParams(e: EntityMeta, name: string, refs: Record<string, number> = {}): Promise<Record<string, unknown>> {
    const a = e.workflow!.actions[name];
    const params = a.params ? await samplePayload(this.knex, this.model, { ...e, fields: a.params }) : {};
    for (const [n, f] of Object.entries(a.params ?? {})) if (f.type === 'ref' && refs[f.ref!] !== undefined) params[n] = refs[f.ref!];
    return { ...params, comment: 'access test' };
  }

  /**
   * The body a route takes: a sample payload to create, the row as it stands to update, the ids to
   * delete or move in bulk, a workflow action's parameters, a PNG for file routes, `{}` otherwise.
   */
  async body(r: ApiRoute, o: CallOptions = {}): Promise<{ json?: unknown; file?: Buffer }> {
    const { row, refs = {} } = o;
    if (r.body === 'file') return { file: PNG };
    if (r.body === 'none' || r.method === 'get' || r.method === 'delete') return {};
    const e = r.entity ? this.entity(r.entity) : undefined;
    if (!e || r.source === 'module') return { json: {} };
    if (r.op === 'create') {
      // a book whose unique enum values are all taken gets one freed, when the row is to be made (not the shared one)
      if (o.creates) await freeUniqueEnum(this.knex, e, (await this.rows.get(e.name))?.id);
      return { json: await samplePayload(this.knex, this.model, e) };
    }
    const target = row ?? (await this.row(e.name));
    const ids = [target?.id ?? 999_999_999];
    // a row an earlier workflow route moved to a state its workflow does not let be edited or deleted (a terminated permit) is put back
    if ((r.op === 'update' || r.op === 'delete') && target && e.workflow?.editable) {
      const state = (await this.knex(e.table).where({ id: target.id }).first(e.workflow.field))?.[e.workflow.field];
      if (state && !e.workflow.editable.includes(state))
        await this.knex(e.table)
          .where({ id: target.id })
          .update({ [e.workflow.field]: e.workflow.initial });
    }
    if (r.op === 'update') return { json: target ? await this.fresh(e, target.id) : {} };
    if (r.op === 'delete') return { json: { ids } };
    if (r.op?.startsWith('wf:')) {
      const params = await this.actionParams(e, r.op.slice(3), refs);
      return { json: r.path.includes('/:id/') ? params : { ...params, ids } };
    }
    return { json: {} };
  }
}

/** How a route is called in the tests: its method, filled path and body. */
export async function callOf(fx: RouteFixtures, r: ApiRoute, token: string | undefined, o: CallOptions = {}): Promise<Call> {
  return { method: r.method, path: await fx.path(r, o.row), token, ...(await fx.body(r, o)) };
}
