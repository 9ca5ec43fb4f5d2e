import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { createApp } from '../api/app.ts';
import { loadMetadata } from '../api/meta/load.ts';
import { LiveModel } from '../api/meta/live.ts';
import { openDatabase, type Database } from '../api/db/connection.ts';
import { sessionCacheOf, ENTRY_MAX_AGE_MS } from '../api/auth/session-cache.ts';
import { tokenHash } from '../api/auth/sessions.ts';
import { createUser } from '../cli/create-user.ts';
import type { MetaModel } from '../api/meta/types.ts';
import { testDatabase } from './support/db.ts';
import { TEST_ADMIN_PASSWORD } from './support/template.ts';
import { needsPostgres, skipBecause } from './support/skip.ts';

/**
 * The session cache (docs/sessions.md): a signed-in request served from it costs no query, an
 * entry never outlives its session, and every change of a session, a user or a role made through
 * one app is seen by another app on the same database — its own pool, its own cache, its own
 * LISTEN connection, as another server process — on its next request.
 */

/** One app on the database, as one server process would run it (its LISTEN connection when asked). */
class Instance {
  constructor(
    readonly db: Database,
    readonly live: LiveModel,
    readonly server: Server,
  ) {}
  static async start(db: Database, model: MetaModel, listen: boolean): Promise<Instance> {
    const live = new LiveModel(model, db.knex);
    if (listen) await live.listen(db.url!);
    const app = createApp({ knex: db.knex, model, live });
    const server = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    server.keepAliveTimeout = 65_000;
    return new Instance(db, live, server);
  }
  get cache() {
    return sessionCacheOf(this.db.knex);
  }
  async call(method: string, path: string, token: string, body?: unknown) {
    const headers: Record<string, string> = { Language: 'uz' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
  }
  async login(username: string, password: string): Promise<string> {
    const r = await this.call('POST', '/api/admin/auth/login', '', { username, password });
    if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.token;
  }
  async close(closeDb: boolean) {
    await new Promise<void>((r) => this.server.close(() => r()));
    await this.live.close();
    if (closeDb) await this.db.close();
  }
}

/** The statements a knex runs while `fn` does. */
async function statements(knex: Knex, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const on = (q: { sql: string }) => seen.push(q.sql);
  knex.on('query', on);
  try {
    await fn();
  } finally {
    knex.off('query', on);
  }
  return seen;
}

const REGIONS = '/api/ecofund-sprav/regions';

describe('the session cache in one process', () => {
  let db: Database;
  let app: Instance;
  beforeAll(async () => {
    db = await testDatabase();
    app = await Instance.start(db, loadMetadata(), false);
  });
  afterAll(async () => {
    await app?.close(true);
  });

  it('answers a signed-in read from the cache: no session query, one shared action set', async () => {
    const token = await app.login('admin', TEST_ADMIN_PASSWORD);
    const first = await statements(db.knex, () => app.call('GET', REGIONS, token));
    expect(first.some((s) => /from sessions/i.test(s))).toBe(true);
    const hits = app.cache.hits;
    const second = await statements(db.knex, () => app.call('GET', REGIONS, token));
    expect(second.some((s) => /sessions|user_roles|role_actions/i.test(s))).toBe(false);
    expect(app.cache.hits).toBe(hits + 1);
    // a second session of the same roles shares the first one's actions (and so its abilities)
    const other = await app.login('admin', TEST_ADMIN_PASSWORD);
    await app.call('GET', REGIONS, other);
    const a = app.cache.get(tokenHash(token))!.principal;
    const b = app.cache.get(tokenHash(other))!.principal;
    expect(a).not.toBe(b);
    expect(a.actions).toBe(b.actions);
  });

  it("never keeps an entry past its session's expiry", async () => {
    const token = await app.login('admin', TEST_ADMIN_PASSWORD);
    // a session about to end, used a moment ago (so it is not extended)
    await db
      .knex('sessions')
      .where({ token_hash: tokenHash(token) })
      .update({ expires_at: new Date(Date.now() + 1500), last_seen_at: new Date() });
    expect((await app.call('GET', REGIONS, token)).status).toBe(200);
    expect(app.cache.get(tokenHash(token))).toBeDefined();
    await new Promise((r) => setTimeout(r, 1600));
    const r = await app.call('GET', REGIONS, token);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(-102);
  });

  it('reads an entry again from the database after ENTRY_MAX_AGE_MS', async () => {
    const token = await app.login('admin', TEST_ADMIN_PASSWORD);
    const before = Date.now();
    await app.call('GET', REGIONS, token);
    const cache = app.cache;
    expect(cache.get(tokenHash(token), before + ENTRY_MAX_AGE_MS - 1)).toBeDefined();
    expect(cache.get(tokenHash(token), Date.now() + ENTRY_MAX_AGE_MS + 1)).toBeUndefined();
  });

  it('forgets a session at once on logout in the same process', async () => {
    const token = await app.login('admin', TEST_ADMIN_PASSWORD);
    expect((await app.call('GET', REGIONS, token)).status).toBe(200);
    expect((await app.call('POST', '/api/admin/auth/logout', token, {})).status).toBe(200);
    expect((await app.call('GET', REGIONS, token)).status).toBe(401);
  });
});

describe(
  'the session cache across two processes on one PostgreSQL database',
  skipBecause(needsPostgres('two processes need one; embedded PGlite is a single process')),
  () => {
    let a: Instance;
    let b: Instance;
    let admin = '';
    let n = 0;
    beforeAll(async () => {
      const db = await testDatabase();
      const model = loadMetadata();
      a = await Instance.start(db, model, true);
      // another pool, cache and LISTEN connection on the same database: another server process
      b = await Instance.start(openDatabase({ url: db.url!, poolMax: 3 }), model, true);
      admin = await a.login('admin', TEST_ADMIN_PASSWORD);
    }, 120_000);
    afterAll(async () => {
      await b?.close(true);
      await a?.close(true);
    });

    /** A user of a role of their own holding `actions`, signed in through A, their session cached by B. */
    async function cachedOnB(actions = [3001]) {
      const username = `u_${++n}`;
      const k = a.db.knex;
      const [role] = await k('roles')
        .insert({ code: `role_${username}`, name: JSON.stringify({ uz: username }) })
        .returning('id');
      await k('role_actions').insert(actions.map((action_id) => ({ role_id: role.id, action_id, state: 1 })));
      const userId = await createUser(k, { username, password: 'secret-pw', roles: [`role_${username}`] });
      const token = await a.login(username, 'secret-pw');
      expect((await b.call('GET', REGIONS, token)).status).toBe(200);
      const hits = b.cache.hits;
      expect((await b.call('GET', REGIONS, token)).status).toBe(200);
      expect(b.cache.hits).toBe(hits + 1);
      return { token, userId, roleId: role.id as number, username };
    }

    /** B's answer once A's change has reached it: NOTIFY is delivered on commit, within milliseconds. */
    async function onB(token: string, path = REGIONS) {
      let r = await b.call('GET', path, token);
      for (let i = 0; i < 40 && r.status === 200; i++) {
        await new Promise((res) => setTimeout(res, 50));
        r = await b.call('GET', path, token);
      }
      return r;
    }

    it('a sign-out through A ends the session on B', async () => {
      const { token } = await cachedOnB();
      expect((await a.call('POST', '/api/admin/auth/logout', token, {})).status).toBe(200);
      expect((await onB(token)).status).toBe(401);
    });

    it('a user blocked through A is refused by B', async () => {
      const { token, userId } = await cachedOnB();
      expect((await a.call('POST', `/api/managing/users/${userId}/users-change-status`, admin, { status: 'blocked' })).status).toBe(200);
      expect((await onB(token)).status).toBe(401);
    });

    it("a password set anew through A ends the user's sessions on B", async () => {
      const { token, userId } = await cachedOnB();
      expect(
        (
          await a.call('POST', `/api/managing/users/${userId}/set-new-password`, admin, {
            password: 'another-pw',
            password_repeat: 'another-pw',
          })
        ).status,
      ).toBe(200);
      expect((await onB(token)).status).toBe(401);
    });

    it('a password changed by its user through A ends their sessions on B', async () => {
      const { token, username } = await cachedOnB();
      const own = await a.login(username, 'secret-pw');
      expect(
        (
          await a.call('POST', '/api/admin/auth/set-new-password', own, {
            old_password: 'secret-pw',
            password: 'changed-pw',
            password_repeat: 'changed-pw',
          })
        ).status,
      ).toBe(200);
      expect((await onB(token)).status).toBe(401);
    });

    it("a role's action closed through A is closed on B", async () => {
      const { token, roleId } = await cachedOnB();
      expect(
        (await a.call('POST', '/api/user-role-access/update-access-status', admin, { role_id: roleId, action_id: 3001, state: 0 })).status,
      ).toBe(200);
      expect((await onB(token)).status).toBe(403);
    });

    it("a user's roles changed through A (user_roles) apply on B", async () => {
      const { token, userId } = await cachedOnB();
      const empty = await a.db
        .knex('roles')
        .insert({ code: `empty_${n}`, name: JSON.stringify({ uz: 'empty' }) })
        .returning('id');
      const r = await a.call('POST', `/api/managing/users/${userId}/add-user-roles`, admin, { role_ids: [empty[0].id] });
      expect(r.status).toBe(200);
      expect((await onB(token)).status).toBe(403);
    });

    it("a user's scope changed through A applies on B", async () => {
      const { token, userId } = await cachedOnB([3001, 5405]);
      const me = await b.call('GET', `/api/managing/users/${userId}`, token);
      expect(me.status).toBe(200);
      const region = await a.db.knex('regions').orderBy('id').first('id');
      const row = await a.call('GET', `/api/managing/users/${userId}`, admin);
      expect(
        (await a.call('PUT', `/api/managing/users/${userId}`, admin, { region_id: region.id, version: row.body.version })).status,
      ).toBe(200);
      // the principal B holds now carries the region (users are not region-scoped; the caller's scope is read again)
      let seen: number | null | undefined;
      for (let i = 0; i < 40 && seen !== region.id; i++) {
        await b.call('GET', REGIONS, token);
        seen = b.cache.get(tokenHash(token))?.principal.region_id;
        if (seen !== region.id) await new Promise((res) => setTimeout(res, 50));
      }
      expect(seen).toBe(region.id);
    });

    it('a session row deleted through A ends it on B', async () => {
      const { token } = await cachedOnB();
      const s = await a.db
        .knex('sessions')
        .where({ token_hash: tokenHash(token) })
        .first('id');
      expect((await a.call('DELETE', `/api/admin/sessions/${s.id}`, admin)).status).toBe(200);
      expect((await onB(token)).status).toBe(401);
    });
  },
);
