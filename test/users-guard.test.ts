import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { createUser } from '../cli/create-user.ts';

/**
 * The system keeps an administrator: nobody blocks or deletes themselves, and the last active
 * administrator is not blocked, demoted (assign-roles without the administrators' role) or
 * deleted — each refusal in the caller's language, the row unchanged.
 */
let api: TestApi;
const USERS = '/api/managing/users';
let adminId: number;
let secondId: number;
let second: string;
let keeper: string;
let adminRole: number;

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  adminId = (await k('users').where({ username: 'admin' }).first('id')).id;
  adminRole = (await k('roles').where({ code: 'administrator' }).first('id')).id;
  secondId = await createUser(k, { username: 'admin2', password: 'secret-pw', roles: ['administrator'] });
  second = await api.login('admin2', 'secret-pw');
  // a user holding every action, so acting on administrators is within their privileges, without the administrators' role
  keeper = await api.userWithActions('keeper', [...api.model.actions.keys()]);
});
afterAll(async () => {
  await api?.close();
});

const msg = (lang: 'uz' | 'uk' | 'ru', key: string) => api.model.captions[lang][key];
const version = async (id: number) => (await api.db.knex('users').where({ id }).first('version')).version;

describe('keeping an administrator', () => {
  it("refuses blocking or deleting oneself, in the caller's language", async () => {
    for (const lang of ['uz', 'uk', 'ru'] as const) {
      const block = await api.post(`${USERS}/${adminId}/actions/block`, { version: await version(adminId) }, { lang });
      expect(block.status).toBe(409);
      expect(JSON.stringify(block.body)).toContain(msg(lang, 'errors.self_block'));
      const del = await api.del(`${USERS}/${adminId}?version=${await version(adminId)}`, { lang });
      expect(del.status).toBe(409);
      expect(JSON.stringify(del.body)).toContain(msg(lang, 'errors.self_delete'));
    }
    expect((await api.db.knex('users').where({ id: adminId }).first('status')).status).toBe('active');
  });

  it('refuses blocking, demoting or deleting the last active administrator', async () => {
    // with two administrators one may block the other
    const blocked = await api.post(`${USERS}/${adminId}/actions/block`, { version: await version(adminId) }, { token: second });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    // now admin2 is the last active one
    const block = await api.post(`${USERS}/${secondId}/actions/block`, { version: await version(secondId) }, { token: keeper, lang: 'ru' });
    expect(block.status).toBe(409);
    expect(JSON.stringify(block.body)).toContain(msg('ru', 'errors.last_admin'));
    const demote = await api.post(
      `${USERS}/${secondId}/actions/assign-roles`,
      { roles: [], version: await version(secondId) },
      { token: second, lang: 'uk' },
    );
    expect(demote.status, JSON.stringify(demote.body)).toBe(409);
    expect(JSON.stringify(demote.body)).toContain(msg('uk', 'errors.last_admin'));
    const del = await api.del(`${USERS}/${secondId}?version=${await version(secondId)}`, { token: keeper });
    expect(del.status).toBe(409);
    expect(JSON.stringify(del.body)).toContain(msg('uz', 'errors.last_admin'));
    const row = await api.db.knex('users').where({ id: secondId }).first('status');
    expect(row.status).toBe('active');
    expect((await api.db.knex('user_roles').where({ user_id: secondId }).pluck('role_id')).map(Number)).toEqual([Number(adminRole)]);
    // once another administrator is active again, the demotion goes through
    expect((await api.post(`${USERS}/${adminId}/actions/unblock`, { version: await version(adminId) }, { token: second })).status).toBe(
      200,
    );
    const demoted = await api.post(
      `${USERS}/${secondId}/actions/assign-roles`,
      { roles: [], version: await version(secondId) },
      { token: second },
    );
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
  });
});
