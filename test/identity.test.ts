import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { clearConfigCache } from '../api/auth/config.ts';
import { tokenHash } from '../api/auth/sessions.ts';

/**
 * Identity and access: lockout, one-time codes, password reset, profile edits, the users calls,
 * and the access-managing calls of a role.
 */
let api: TestApi;
const setConfig = async (key: string, value: number) => {
  await api.db
    .knex('app_configs')
    .where({ key })
    .update({ value: String(value) });
  clearConfigCache(api.db.knex);
};
const login = (username: string, password: string, lang = 'uz') =>
  api.post('/api/admin/auth/login', { username, password }, { token: '', lang });
const lastCode = async (userId: number) => {
  const row = await api.db.knex('notification_recipients').where({ user_id: userId }).orderBy('id', 'desc').first();
  return /(\d{6})/.exec(row.body)![1];
};

beforeAll(async () => {
  api = await startTestApi();
  await setConfig('auth.slow_after_failures', 100);
  await setConfig('auth.ip_lock_after_failures', 1000);
});
afterAll(async () => {
  await api?.close();
});

async function newUser(username: string, extra: Record<string, unknown> = {}) {
  const r = await api.post('/api/managing/users', {
    username,
    password: 'first-pass',
    fio: 'Sinov Foydalanuvchi',
    lang_code: 'uz',
    kind: 'staff',
    ...extra,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; version: number };
}

/** A subject (a taxpayer) in the first region, for users bound to one. */
async function subjectRow(inn: string): Promise<number> {
  const region = (await api.db.knex('regions').orderBy('id').first('id')).id;
  const category = (await api.db.knex('subject_categories').first('id')).id;
  const r = await api.post('/api/ecofund/subject', { inn, name: `Subyekt ${inn}`, region_id: region, category_id: category });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

describe('lockout', () => {
  it('locks a username after repeated failures and lets an administrator unlock it', async () => {
    await setConfig('auth.lock_after_failures', 3);
    const u = await newUser('lock_me');
    for (let i = 0; i < 3; i++) expect((await login('lock_me', 'wrong-pass')).status).toBe(401);
    const locked = await login('lock_me', 'first-pass', 'ru');
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe(-112);
    expect(locked.body.message).toMatch(/^Слишком много попыток входа. Повторите через 1[45] мин.$/);
    expect((await api.post(`/api/managing/users/${u.id}/unlock`, {})).status).toBe(200);
    expect((await login('lock_me', 'first-pass')).status).toBe(200);
    const reasons = await api.db.knex('login_logs').where({ username: 'lock_me' }).orderBy('id').pluck('reason');
    expect(reasons).toEqual(['wrong_password', 'wrong_password', 'wrong_password', 'locked', 'unlocked', null]);
    await setConfig('auth.lock_after_failures', 5);
  });

  it('slows down answers after the first failures', async () => {
    await setConfig('auth.slow_after_failures', 1);
    await newUser('slow_me');
    expect((await login('slow_me', 'wrong-pass')).status).toBe(401);
    const t0 = Date.now();
    expect((await login('slow_me', 'wrong-pass')).status).toBe(401);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    await setConfig('auth.slow_after_failures', 100);
  });
});

describe('one-time codes and passwords', () => {
  it('resets a forgotten password with a code queued as a notification, ending old sessions', async () => {
    const u = await newUser('forgetful', { email: 'forgetful@example.uz' });
    const token = (await login('forgetful', 'first-pass')).body.token;
    const sent = await api.post('/api/admin/auth/forgot-password', { username: 'forgetful' }, { token: '' });
    // the anonymous answer says nothing of the account: the same for every name (and for a burst of resets, below)
    expect(sent.body).toEqual({ sent: true });
    expect((await api.db.knex('notification_recipients').where({ user_id: u.id }).orderBy('id', 'desc').first()).address).toBe(
      'forgetful@example.uz',
    );
    const code = await lastCode(u.id);
    const wrong = await api.post(
      '/api/admin/auth/set-new-password',
      { username: 'forgetful', code: code === '000000' ? '111111' : '000000', password: 'second-pass', password_repeat: 'second-pass' },
      { token: '', lang: 'ru' },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ code: 'Неверный код подтверждения' });
    const short = await api.post(
      '/api/admin/auth/set-new-password',
      { username: 'forgetful', code, password: '12345', password_repeat: '12346' },
      { token: '', lang: 'ru' },
    );
    expect(short.body.errors).toEqual({
      password: 'Пароль должен быть не короче 6 символов',
      password_repeat: 'Повторный пароль не совпадает',
    });
    const ok = await api.post(
      '/api/admin/auth/set-new-password',
      { username: 'forgetful', code, password: 'second-pass', password_repeat: 'second-pass' },
      { token: '' },
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await api.get('/api/meta', { token })).status).toBe(401);
    expect((await login('forgetful', 'first-pass')).status).toBe(401);
    expect((await login('forgetful', 'second-pass')).status).toBe(200);
    // a used code does not work twice
    expect(
      (
        await api.post(
          '/api/admin/auth/set-new-password',
          { username: 'forgetful', code, password: 'third-pass', password_repeat: 'third-pass' },
          { token: '' },
        )
      ).status,
    ).toBe(400);
  });

  it('refuses an expired code and stops after too many tries', async () => {
    const u = await newUser('coder', { phone: '(90) 111-22-33' });
    const token = (await login('coder', 'first-pass')).body.token;
    const sent = await api.post('/api/admin/auth/send-confirm', {}, { token });
    expect(sent.body).toMatchObject({ sent: true, channel: 'sms', address: '*****2233' });
    await api.db
      .knex('one_time_codes')
      .where({ user_id: u.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await api.post('/api/admin/auth/check-code', { code: await lastCode(u.id) }, { token, lang: 'ru' });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('Срок действия кода истёк');
    await api.post('/api/admin/auth/send-confirm', {}, { token });
    const code = await lastCode(u.id);
    const bad = code === '000000' ? '999999' : '000000';
    expect((await api.post('/api/admin/auth/check-code', { code: bad }, { token })).status).toBe(400);
    expect((await api.post('/api/admin/auth/check-code', { code: bad }, { token })).status).toBe(400);
    const third = await api.post('/api/admin/auth/check-code', { code: bad }, { token });
    expect(third.status).toBe(429);
    expect((await api.post('/api/admin/auth/check-code', { code }, { token })).status).toBe(429);
    await api.post('/api/admin/auth/send-confirm', {}, { token });
    expect((await api.post('/api/admin/auth/check-code', { code: await lastCode(u.id) }, { token })).body).toEqual({ confirmed: true });
  });

  it('answers an unknown username like a known one', async () => {
    const r = await api.post('/api/admin/auth/forgot-password', { username: 'nobody-here' }, { token: '' });
    expect(r.body).toEqual({ sent: true });
  });

  it("changes one's own password with the current one, and edits one's profile", async () => {
    await newUser('selfie');
    const token = (await login('selfie', 'first-pass')).body.token;
    const bad = await api.post(
      '/api/admin/auth/set-new-password',
      { old_password: 'nope-nope', password: 'new-pass-1', password_repeat: 'new-pass-1' },
      { token },
    );
    expect(bad.body.errors).toEqual({ old_password: 'Joriy parol notoʻgʻri' });
    expect(
      (
        await api.post(
          '/api/admin/auth/set-new-password',
          { old_password: 'first-pass', password: 'new-pass-1', password_repeat: 'new-pass-1' },
          { token },
        )
      ).status,
    ).toBe(200);
    const t2 = (await login('selfie', 'new-pass-1')).body.token;
    const invalid = await api.post(
      '/api/admin/auth/edit-user-info',
      { email: 'not-an-email', phone: '12', lang_code: 'de' },
      { token: t2 },
    );
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['email', 'lang_code', 'phone']);
    const edited = await api.post(
      '/api/admin/auth/edit-user-info',
      { fio: 'Yangi Ism', phone: '(93) 555-44-33', lang_code: 'ru' },
      { token: t2 },
    );
    expect(edited.body.user).toMatchObject({ fio: 'Yangi Ism', phone: '935554433', lang_code: 'ru' });
    // a photo is one's own upload, not another's file named by its id
    const put = (token: string) =>
      fetch(`${api.url}/api/resources/upload?name=p.png`, {
        method: 'POST',
        body: Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
        headers: { Authorization: `Bearer ${token}` },
      }).then(async (r) => ((await r.json()) as { id: number }).id);
    const theirs = await put(api.adminToken);
    expect((await api.post('/api/admin/auth/edit-user-info', { img_resource_id: theirs }, { token: t2 })).body.errors).toEqual({
      img_resource_id: 'Fayl topilmadi',
    });
    const mine = await put(t2);
    expect((await api.post('/api/admin/auth/edit-user-info', { img_resource_id: mine }, { token: t2 })).body.user.img_resource_id).toBe(
      mine,
    );
  });
});

describe('the users calls', () => {
  it('blocks (ending sessions at once) and unblocks a user, with flows', async () => {
    const u = await newUser('to_block');
    const token = (await login('to_block', 'first-pass')).body.token;
    const blocked = await api.post(`/api/managing/users/${u.id}/users-change-status`, { status: 'blocked' });
    expect(blocked.body.status).toBe('blocked');
    expect((await api.get('/api/meta', { token })).status).toBe(401);
    expect((await login('to_block', 'first-pass')).body.code).toBe(-111);
    const again = await api.post(`/api/managing/users/${u.id}/users-change-status`, { status: 'blocked' });
    expect(again.status).toBe(409);
    await api.post(`/api/managing/users/${u.id}/users-change-status`, { status: 'active' });
    expect((await login('to_block', 'first-pass')).status).toBe(200);
    const flows = await api.get(`/api/managing/users/${u.id}/flows`);
    expect(flows.body.map((f: { action: string }) => f.action)).toEqual(['block', 'unblock']);
  });

  it("sets a user's password and roles", async () => {
    const u = await newUser('managed');
    const short = await api.post(`/api/managing/users/${u.id}/set-new-password`, { password: '123', password_repeat: '123' });
    expect(short.status).toBe(400);
    expect(
      (await api.post(`/api/managing/users/${u.id}/set-new-password`, { password: 'by-admin-1', password_repeat: 'by-admin-1' })).status,
    ).toBe(200);
    expect((await login('managed', 'by-admin-1')).status).toBe(200);
    const roles = await api.db.knex('roles').whereIn('code', ['inspector', 'fund']).orderBy('id').pluck('id');
    const set = await api.post(`/api/managing/users/${u.id}/add-user-roles`, { role_ids: roles });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.roles).toEqual(roles);
    const got = await api.get(`/api/managing/users/${u.id}/get-user-roles`);
    expect(got.body.map((r: { code: string }) => r.code)).toEqual(['inspector', 'fund']);
    const filtered = await api.get(`/api/managing/users?roles=${roles[0]}`);
    expect(filtered.body.map((x: { username: string }) => x.username)).toContain('managed');
    expect((await api.post(`/api/managing/users/${u.id}/add-user-roles`, { role_ids: [999999] })).body.errors).toEqual({
      roles: 'Tanlangan yozuv topilmadi',
    });
  });

  it('keeps an active administrator: nobody blocks or deletes themselves, the last administrator stays one', async () => {
    const admin = (await api.db.knex('users').where({ username: 'admin' }).first('id')).id;
    const adminRole = (await api.db.knex('roles').where({ code: 'administrator' }).first('id')).id;
    const self = await api.post(`/api/managing/users/${admin}/users-change-status`, { status: 'blocked' }, { lang: 'ru' });
    expect(self.status).toBe(409);
    expect(self.body.message).toBe('Нельзя заблокировать самого себя');
    expect((await api.del(`/api/managing/users/${admin}`)).body.message).toBe('Oʻzingizni oʻchira olmaysiz');
    // with a second administrator, one may take the other's role…
    const other = await newUser('other_admin');
    expect((await api.post(`/api/managing/users/${other.id}/add-user-roles`, { role_ids: [adminRole] })).status).toBe(200);
    const otherToken = (await login('other_admin', 'first-pass')).body.token;
    expect((await api.post(`/api/managing/users/${admin}/add-user-roles`, { role_ids: [] }, { token: otherToken })).status).toBe(200);
    expect((await api.post(`/api/managing/users/${admin}/add-user-roles`, { role_ids: [adminRole] }, { token: otherToken })).status).toBe(
      200,
    );
    // …but once the other is blocked, the last active administrator keeps the role
    expect((await api.post(`/api/managing/users/${other.id}/users-change-status`, { status: 'blocked' })).status).toBe(200);
    const demote = await api.post(`/api/managing/users/${admin}/add-user-roles`, { role_ids: [] });
    expect(demote.status).toBe(409);
    expect(demote.body.message).toMatch(/^Bu oxirgi faol administrator/);
    expect(await api.db.knex('user_roles').where({ user_id: admin }).pluck('role_id')).toEqual([adminRole]);
  });

  it('keeps who made and changed rows when their account is deleted (no key rewrites them)', async () => {
    const k = api.db.knex;
    const adminRole = (await k('roles').where({ code: 'administrator' }).first('id')).id;
    const leaver = await newUser('leaving_admin');
    expect((await api.post(`/api/managing/users/${leaver.id}/add-user-roles`, { role_ids: [adminRole] })).status).toBe(200);
    const token = (await login('leaving_admin', 'first-pass')).body.token;
    const made = await api.post(
      '/api/managing/users',
      { username: 'made_by_leaver', password: 'first-pass', fio: 'Qoldirilgan', lang_code: 'uz', kind: 'staff' },
      { token },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const auditBefore = await k('audit_log').where({ user_id: leaver.id }).count<{ count: string }[]>('* as count');
    expect(Number(auditBefore[0].count)).toBeGreaterThan(0);
    expect((await api.del(`/api/managing/users/${leaver.id}`)).status).toBe(200);
    expect(await k('users').where({ id: leaver.id }).first('id')).toBeUndefined();
    // the row they made and the audit trail still name them; nothing was rewritten by the delete
    expect(await k('users').where({ id: made.body.id }).first('created_by', 'updated_by')).toEqual({
      created_by: leaver.id,
      updated_by: leaver.id,
    });
    expect(await k('audit_log').where({ user_id: leaver.id }).count<{ count: string }[]>('* as count')).toEqual(auditBefore);
    // the history shows the change, its author no longer a name
    const history = await api.get(`/api/managing/users/${made.body.id}/history`);
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect(history.body.find((h: { op: string }) => h.op === 'create')).toMatchObject({ user_id: leaver.id, user_fio: null });
  });

  it('keeps police and population users in their own views', async () => {
    const police = await api.post('/api/managing/mvd-users', {
      username: 'police_1',
      password: 'secret-12',
      fio: 'Militsiya',
      region_id: (await api.db.knex('regions').first('id')).id,
      organ: 'IIB',
    });
    expect(police.status, JSON.stringify(police.body)).toBe(201);
    expect((await api.db.knex('users').where({ id: police.body.id }).first('kind')).kind).toBe('mvd');
    const mvd = await api.get('/api/managing/mvd-users');
    expect(mvd.body.map((x: { username: string }) => x.username)).toEqual(['police_1']);
    expect((await api.get(`/api/managing/population-users/${police.body.id}`)).status).toBe(404);
  });

  it("keeps a user's subject set from the back-office", async () => {
    const owner = await subjectRow('400000007');
    const u = await api.post('/api/managing/users', {
      username: 'subject_user_7',
      password: 'secret-12',
      lang_code: 'uz',
      kind: 'subject',
      subject_id: owner,
    });
    expect(u.body.subject_id).toBe(owner);
    const other = await subjectRow('400000008');
    const changed = await api.put(`/api/managing/users/${u.body.id}`, { ...u.body, subject_id: other });
    expect(changed.body.subject_id).toBe(other);
  });
});

describe('access managing', () => {
  it("lists a role's actions by module and opens or closes one, a module or all, applied on the next request", async () => {
    const token = await api.userWithActions('clerk', [3001, 3011]);
    const role = (await api.db.knex('roles').where({ code: 'test_clerk' }).first('id')).id;
    const matrix = await api.get(`/api/user-role-access/${role}`, { lang: 'ru' });
    expect(matrix.status).toBe(200);
    const sprav = matrix.body.categories.find((c: { id: string }) => c.id === 'ecofund-sprav');
    expect(sprav.name).toBe('Справочники');
    expect(sprav.actions.find((a: { id: number }) => a.id === 3001)).toMatchObject({ state: 1, name: 'Регионы (области) — Просмотр' });
    expect(sprav.actions.find((a: { id: number }) => a.id === 3002).state).toBe(0);

    expect((await api.post('/api/user-role-access/update-access-status', { role_id: role, action_id: 3001, state: 0 })).status).toBe(200);
    expect((await api.get('/api/ecofund-sprav/regions', { token })).status).toBe(403);
    const meta = await api.get('/api/meta', { token });
    expect(meta.body.menu[0].children.map((c: { route: string }) => c.route)).toEqual(['areas']);

    expect((await api.post('/api/user-role-access/not-allow', { role_id: role, category: 'ecofund-sprav' })).status).toBe(200);
    expect((await api.get('/api/ecofund-sprav/areas', { token })).status).toBe(403);
    expect((await api.get('/api/meta', { token })).body.menu).toEqual([]);

    expect((await api.post('/api/user-role-access/set-action', { role_id: role, category: 'ecofund-sprav' })).body.actions).toBeGreaterThan(
      80,
    );
    expect((await api.post('/api/ecofund-sprav/rank', { code: 'GEN', name: { uz: 'General' } }, { token })).status).toBe(201);
    expect((await api.post('/api/user-role-access/set-action', { role_id: role, all: true })).status).toBe(200);
    expect((await api.get('/api/managing/users', { token })).status).toBe(200);
    expect((await api.post('/api/user-role-access/set-action', { role_id: role })).status).toBe(400);
    expect((await api.post('/api/user-role-access/set-action', { role_id: 999999, all: true })).status).toBe(404);
  });

  it('keeps every one of parallel grants to one role, and every one of parallel revokes', async () => {
    await api.userWithActions('parallel', []);
    const role = (await api.db.knex('roles').where({ code: 'test_parallel' }).first('id')).id;
    const actions = (await api.db.knex('app_actions').where({ module: 'ecofund-sprav' }).orderBy('id').limit(40).pluck('id')).map(Number);
    expect(actions).toHaveLength(40);
    const held = async () =>
      (await api.db.knex('role_actions').where({ role_id: role, state: 1 }).orderBy('action_id').pluck('action_id')).map(Number);
    const all = (state: 0 | 1) =>
      Promise.all(actions.map((action_id) => api.post('/api/user-role-access/update-access-status', { role_id: role, action_id, state })));
    expect((await all(1)).map((r) => r.status)).toEqual(actions.map(() => 200));
    expect(await held()).toEqual(actions);
    // one audit row each
    expect(
      Number(
        (await api.db.knex('audit_log').where({ entity: 'user-roles', record_id: role, action: 'set-action' }).count('* as n').first())!.n,
      ),
    ).toBe(40);
    expect((await all(0)).map((r) => r.status)).toEqual(actions.map(() => 200));
    expect(await held()).toEqual([]);
  });

  it('is refused to those without the access-managing actions', async () => {
    const token = await api.userWithActions('no_access', [3001]);
    expect((await api.get('/api/user-role-access/1', { token })).status).toBe(403);
    expect((await api.post('/api/user-role-access/set-action', { role_id: 1, all: true }, { token })).status).toBe(403);
  });

  it('stores only token hashes and revokes a session from the sessions list', async () => {
    await newUser('revoked');
    const token = (await login('revoked', 'first-pass')).body.token;
    const session = await api.db
      .knex('sessions')
      .where({ token_hash: tokenHash(token) })
      .first('id');
    expect((await api.del(`/api/admin/sessions/${session.id}`)).status).toBe(200);
    expect((await api.get('/api/meta', { token })).status).toBe(401);
  });
});

describe('sign-in and password reset hold against bursts', () => {
  it('counts 30 parallel wrong passwords one after another: the lock comes at the limit', async () => {
    await api.db.knex('app_configs').insert({ key: 'auth.ip_lock_after_failures', value: '1000' }).onConflict('key').merge();
    await api.userWithActions('burst_target', []);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        api.post('/api/admin/auth/login', { username: 'burst_target', password: 'wrong-pass' }, { token: '' }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    expect((await api.post('/api/admin/auth/login', { username: 'burst_target', password: 'secret-pw' }, { token: '' })).status).toBe(429);
  });

  it('sends one code for a burst of resets, and answers every name alike', async () => {
    const withMail = (
      await api.post('/api/managing/users', {
        username: 'reset_mail',
        password: 'secret-12',
        email: 'reset@example.uz',
        lang_code: 'uz',
        kind: 'staff',
      })
    ).body.id;
    await api.post('/api/managing/users', { username: 'reset_none', password: 'secret-12', lang_code: 'uz', kind: 'staff' });
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => api.post('/api/admin/auth/forgot-password', { username: 'reset_mail' }, { token: '' })),
    );
    expect(new Set(burst.map((r) => JSON.stringify([r.status, r.body])))).toEqual(new Set([JSON.stringify([200, { sent: true }])]));
    expect(await api.db.knex('notification_recipients').where({ user_id: withMail }).count('* as n').first()).toMatchObject({ n: 1 });
    expect(await api.db.knex('one_time_codes').where({ user_id: withMail }).count('* as n').first()).toMatchObject({ n: 1 });
    const none = await api.post('/api/admin/auth/forgot-password', { username: 'reset_none' }, { token: '' });
    const unknown = await api.post('/api/admin/auth/forgot-password', { username: 'reset_nobody' }, { token: '' });
    expect([none.status, none.body]).toEqual([200, { sent: true }]);
    expect([unknown.status, unknown.body]).toEqual([200, { sent: true }]);
  });
});
