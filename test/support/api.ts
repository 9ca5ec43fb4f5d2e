import type { Registry } from '../../api/registry.ts';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../api/app.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import type { MetaModel } from '../../api/meta/types.ts';
import type { Database } from '../../api/db/connection.ts';
import { testDatabase } from './db.ts';
import { TEST_ADMIN_PASSWORD } from './template.ts';
import { closeServer } from './ports.ts';
import { createUser } from '../../cli/create-user.ts';

export interface CallOptions {
  token?: string;
  lang?: string;
  body?: unknown;
  headers?: Record<string, string>;
}
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  raw: ArrayBuffer;
}

/** A running API on its own database for one test file, with helpers to call it over HTTP. */
export class TestApi {
  adminToken = '';
  constructor(
    readonly db: Database,
    readonly model: MetaModel,
    readonly server: Server,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async call<T = any>(method: string, path: string, o: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { Language: o.lang ?? 'uz', ...o.headers };
    const token = o.token === undefined ? this.adminToken : o.token;
    if (token) headers.Authorization = `Bearer ${token}`;
    if (o.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(this.url + path, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
    const raw = await res.arrayBuffer();
    const type = res.headers.get('content-type') ?? '';
    const body = type.includes('json') ? JSON.parse(Buffer.from(raw).toString('utf8')) : Buffer.from(raw).toString('utf8');
    return { status: res.status, headers: res.headers, body, raw };
  }

  get = <T = any>(path: string, o?: CallOptions) => this.call<T>('GET', path, o);
  post = <T = any>(path: string, body: unknown, o?: CallOptions) => this.call<T>('POST', path, { ...o, body });
  put = <T = any>(path: string, body: unknown, o?: CallOptions) => this.call<T>('PUT', path, { ...o, body });
  del = <T = any>(path: string, o?: CallOptions) => this.call<T>('DELETE', path, o);

  async login(username: string, password: string): Promise<string> {
    const r = await this.post('/api/admin/auth/login', { username, password }, { token: '' });
    if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.token;
  }

  /** A user holding exactly these action ids (through a role of their own), signed in. */
  async userWithActions(
    username: string,
    actions: number[],
    scope: { region_id?: number; subject_id?: number; branch_id?: number } = {},
  ): Promise<string> {
    const k = this.db.knex;
    const [role] = await k('roles')
      .insert({ code: `test_${username}`, name: JSON.stringify({ uz: username }) })
      .returning('id');
    if (actions.length) await k('role_actions').insert(actions.map((action_id) => ({ role_id: role.id, action_id, state: 1 })));
    await createUser(k, { username, password: 'secret-pw', roles: [`test_${username}`], ...scope });
    return this.login(username, 'secret-pw');
  }

  async close(): Promise<void> {
    await closeServer(this.server);
    await this.db.close();
  }
}

export async function startTestApi(model: MetaModel = loadMetadata(), registry?: Registry): Promise<TestApi> {
  // the code routes refuse to promise a code no method can deliver (docs/accounts.md); the API
  // tests queue codes and read them off the queue (no worker runs here), so an e-mail server and an
  // SMS gateway are named — test/accounts.test.ts takes them away to see the refusal
  process.env.ECOFOND_SMTP_HOST ??= '127.0.0.1';
  process.env.ECOFOND_SMS_URL ??= 'http://127.0.0.1:9/sms';
  const db = await testDatabase();
  const app = createApp({ knex: db.knex, model, registry });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // fetch keeps connections alive for a little less than the server's own idle timeout (Node's 5 s,
  // told in `Keep-Alive: timeout=5`): on a loaded machine the server's close and the client's reuse
  // of that socket crossed (ECONNRESET in test/access.test.ts); a long idle timeout keeps them apart
  server.keepAliveTimeout = 65_000;
  const api = new TestApi(db, model, server);
  api.adminToken = await api.login('admin', TEST_ADMIN_PASSWORD);
  return api;
}
