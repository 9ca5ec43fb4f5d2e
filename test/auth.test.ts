import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { TEST_ADMIN_PASSWORD } from './support/template.ts';
import { tokenHash } from '../api/auth/sessions.ts';
import { clearConfigCache } from '../api/auth/config.ts';

/** Sign-in, sessions and what the caller's actions open: login, logout, expiry, blocked users, /api/meta. */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe('sign-in and sessions', () => {
  it('answers health without a token', async () => {
    const r = await api.get('/api/health', { token: '' });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
  });

  it('logs in with the user, their actions and a random token stored only as a hash', async () => {
    const r = await api.post('/api/admin/auth/login', { username: 'ADMIN', password: TEST_ADMIN_PASSWORD }, { token: '' });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ username: 'admin', lang_code: 'uz' });
    expect(Object.keys(r.body.user).sort()).toEqual(['email', 'fio', 'id', 'img_resource_id', 'lang_code', 'phone', 'username']);
    expect(r.body.actions).toContainEqual({ id: 3011, state: 1 });
    expect(r.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await api.db.knex('sessions').pluck('token_hash');
    expect(stored).toContain(tokenHash(r.body.token));
    expect(stored).not.toContain(r.body.token);
    const user = await api.db.knex('users').where({ username: 'admin' }).first('password');
    // the tests hash at a lower cost (vitest.config.ts); production's is checked in api/auth/password.test.ts
    expect(user.password).toMatch(/^scrypt\$256\$8\$1\$/);
  });

  it('requires a username and refuses wrong passwords, logging each attempt', async () => {
    const empty = await api.post('/api/admin/auth/login', { password: 'x' }, { token: '', lang: 'ru' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ username: 'Введите логин' });
    const wrong = await api.post('/api/admin/auth/login', { username: 'admin', password: 'nope-nope' }, { token: '', lang: 'ru' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: -109, message: 'Неверный логин или пароль' });
    const unknown = await api.post('/api/admin/auth/login', { username: 'ghost', password: 'nope-nope' }, { token: '' });
    expect(unknown.status).toBe(401);
    const logs = await api.db.knex('login_logs').orderBy('id').select('username', 'success', 'reason');
    expect(logs.slice(-2)).toEqual([
      { username: 'admin', success: false, reason: 'wrong_password' },
      { username: 'ghost', success: false, reason: 'unknown_user' },
    ]);
  });

  it('limits anonymous forgot-password requests per account name and per address, alike for every name', async () => {
    const k = api.db.knex;
    const set = async (key: string, value: string) => {
      await k('app_configs').insert({ key, value }).onConflict('key').merge(['value']);
    };
    await set('auth.code_requests_per_account', '4');
    await set('auth.code_requests_per_address', '10');
    clearConfigCache(k);
    const made = await api.post('/api/managing/users', {
      username: 'forgetful_one',
      password: 'secret-12',
      email: 'forgetful@example.uz',
      lang_code: 'uz',
      kind: 'staff',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const forgot = (username: string, lang = 'uz') => api.post('/api/admin/auth/forgot-password', { username }, { token: '', lang });
    const answers = async (username: string, n: number, lang?: string) => {
      const out: [number, unknown][] = [];
      for (let i = 0; i < n; i++) {
        const r = await forgot(username, lang);
        out.push([r.status, r.body]);
      }
      return out;
    };
    // four for a name (its case folded), then the fifth is a 429 in the caller's language: for a known account as for an unknown one
    const known = await answers('forgetful_one', 3);
    known.push(...(await answers('FORGETFUL_ONE', 2, 'ru')));
    const unknown = await answers('nobody_at_all', 4);
    unknown.push(...(await answers('nobody_at_all', 1, 'ru')));
    const sent = [200, { sent: true }];
    const limited = [429, { code: -112, message: 'Слишком много запросов кода. Попробуйте позже', description: '' }];
    expect(known).toEqual([sent, sent, sent, sent, limited]);
    expect(unknown).toEqual(known);
    // ten from this address so far: the next name is refused too, in its language
    const next = await forgot('someone_else', 'uk');
    expect([next.status, next.body.message]).toEqual([429, 'Код сўровлари жуда кўп. Бироздан кейин қайта уриниб кўринг']);
    // counted in the shared table: one row a key and window
    expect(await k('rate_limits').where('key', 'like', 'code-request-%').pluck('key')).toEqual(
      expect.arrayContaining(['code-request-ip:127.0.0.1', 'code-request-user:forgetful_one', 'code-request-user:nobody_at_all']),
    );
    await k('rate_limits').where('key', 'like', 'code-request-%').delete();
    await k('app_configs').whereIn('key', ['auth.code_requests_per_account', 'auth.code_requests_per_address']).delete();
    clearConfigCache(k);
  });

  it('ends the session on logout', async () => {
    const token = await api.login('admin', TEST_ADMIN_PASSWORD);
    expect((await api.get('/api/meta', { token })).status).toBe(200);
    expect((await api.post('/api/admin/auth/logout', {}, { token })).status).toBe(200);
    const after = await api.get('/api/meta', { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(-101);
  });

  it('says "Sessiya vaqti tugadi" when a session has expired', async () => {
    const token = await api.login('admin', TEST_ADMIN_PASSWORD);
    await api.db
      .knex('sessions')
      .where({ token_hash: tokenHash(token) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const r = await api.get('/api/meta', { token });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ code: -102, message: 'Sessiya vaqti tugadi' });
  });

  it('refuses a blocked user at sign-in and on every request of an open session', async () => {
    const token = await api.userWithActions('blocked_one', [3001]);
    expect((await api.get('/api/ecofund-sprav/regions', { token })).status).toBe(200);
    // blocked through the write path (its hook ends the sessions and tells every process's session cache)
    const user = await api.db.knex('users').where({ username: 'blocked_one' }).first('id');
    expect((await api.post(`/api/managing/users/${user.id}/users-change-status`, { status: 'blocked' })).status).toBe(200);
    expect((await api.get('/api/ecofund-sprav/regions', { token })).status).toBe(401);
    const r = await api.post('/api/admin/auth/login', { username: 'blocked_one', password: 'secret-pw' }, { token: '' });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(-111);
  });

  it("applies a change of a role's actions on the next request", async () => {
    const token = await api.userWithActions('changing', [3001]);
    expect((await api.get('/api/ecofund-sprav/regions', { token })).status).toBe(200);
    const role = await api.db.knex('roles').where({ code: 'test_changing' }).first('id');
    // through the access screen's write (the role's actions, by the engine): cached sessions of the role's users are dropped
    expect((await api.post('/api/user-role-access/update-access-status', { role_id: role.id, action_id: 3001, state: 0 })).status).toBe(
      200,
    );
    expect((await api.get('/api/ecofund-sprav/regions', { token })).status).toBe(403);
  });

  it('serves the metadata the caller may see, in their language, with the menu cut to their actions', async () => {
    const token = await api.userWithActions('meta_user', [3001, 3011, 3015]);
    const r = await api.get('/api/meta', { token, lang: 'ru' });
    expect(r.status).toBe(200);
    expect(r.body.entities.map((e: { name: string }) => e.name).sort()).toEqual(['areas', 'regions']);
    const regions = r.body.entities.find((e: { name: string }) => e.name === 'regions');
    expect(regions).toMatchObject({
      path: '/api/ecofund-sprav/regions',
      can: { read: true, create: false, update: false, delete: false, export: false },
    });
    expect(r.body.entities.find((e: { name: string }) => e.name === 'areas').can.export).toBe(true);
    expect(r.body.menu).toHaveLength(1);
    expect(r.body.menu[0].route).toBe('/ecofund-sprav');
    expect(r.body.menu[0].children.map((c: { route: string }) => c.route)).toEqual(['regions', 'areas']);
    expect(r.body.captions['entity.regions']).toBe('Регионы (области)');
    const users = r.body.routes.find((x: { route: string }) => x.route === '/managing/users');
    expect(users).toMatchObject({ allowed: false });
    const admin = await api.get('/api/meta');
    expect(admin.body.entities.length).toBe(api.model.entities.size);
    // a list's filter cookie reaches the back-office with the list (spec §3)
    expect(admin.body.entities.find((e: { name: string }) => e.name === 'subject').list.cookie).toBe('filter_subjects');
    expect(admin.body.entities.find((e: { name: string }) => e.name === 'regions').list.cookie).toBeUndefined();
    expect(admin.body.menu.length).toBe(api.model.menu.length);
    expect(
      admin.body.menu.flatMap((s: { children: { nomenu?: boolean }[] }) => s.children).some((c: { nomenu?: boolean }) => c.nomenu),
    ).toBe(false);
  });

  it('stores the language chosen with admin/app/setlang', async () => {
    const token = await api.userWithActions('lang_user', []);
    expect((await api.post('/api/admin/app/setlang', { lang: 'xx' }, { token })).status).toBe(400);
    expect((await api.post('/api/admin/app/setlang', { lang: 'uk' }, { token })).status).toBe(200);
    const r = await api.post('/api/admin/auth/login', { username: 'lang_user', password: 'secret-pw' }, { token: '' });
    expect(r.body.user.lang_code).toBe('uk');
  });

  it("keeps a system error's details in app_errors and answers -201", async () => {
    expect((await api.get('/api/ecofund-sprav/regions/1', { token: 'not-a-session' })).status).toBe(401);
    // an unexpected failure: the table behind an entity is gone
    await api.db.knex.schema.renameTable('rank', 'rank_gone');
    const broken = await api.get('/api/ecofund-sprav/rank');
    await api.db.knex.schema.renameTable('rank_gone', 'rank');
    expect(broken.status).toBe(500);
    expect(broken.body).toMatchObject({ code: -201, message: 'Tizim xatosi', description: '' });
    expect(JSON.stringify(broken.body)).not.toContain('rank_gone');
    const logged = await api.db.knex('app_errors').where({ request_id: broken.body.requestId }).first();
    expect(logged.stack).toContain('rank');
  });
});
