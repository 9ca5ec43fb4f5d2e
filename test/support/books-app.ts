import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../api/app.ts';
import { LiveModel } from '../../api/meta/live.ts';
import type { Database } from '../../api/db/connection.ts';
import { TEST_ADMIN_PASSWORD } from './template.ts';
import { closeServer } from './ports.ts';

/** One app on a reloadable model over a test database, called over HTTP as the administrator (the reference books' tests). */
export class BooksApp {
  token = '';
  constructor(
    readonly db: Database,
    readonly live: LiveModel,
    readonly server: Server,
  ) {}
  static async start(db: Database, listen = false): Promise<BooksApp> {
    const live = await LiveModel.open(db.knex);
    if (listen && db.url) await live.listen(db.url);
    const app = createApp({ knex: db.knex, model: live.current, live });
    const server = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    // a busy machine may leave more than Node's 5 s between two calls: the client's kept socket must still be open
    server.keepAliveTimeout = 65_000;
    const i = new BooksApp(db, live, server);
    i.token = (await i.call('POST', '/api/admin/auth/login', { username: 'admin', password: TEST_ADMIN_PASSWORD }, '')).body.token;
    return i;
  }
  async call(method: string, path: string, body?: unknown, token = this.token, lang = 'uz') {
    const headers: Record<string, string> = { Language: lang };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const type = res.headers.get('content-type') ?? '';
    const raw = Buffer.from(await res.arrayBuffer());
    return { status: res.status, body: type.includes('json') ? JSON.parse(raw.toString('utf8')) : raw, headers: res.headers };
  }
  async close(closeDb = true) {
    await closeServer(this.server);
    await this.live.close();
    if (closeDb) await this.db.close();
  }
}
