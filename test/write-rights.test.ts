import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { newSubject } from './support/subjects.ts';

/**
 * The write path's checks of rights (docs/architecture.md, "One write path", "Rows that carry
 * rights"): nobody grants a role or an action they do not hold — by a user's form, by role
 * assignment, on the access screen — nor resets, blocks, renames or deletes a user holding rights
 * they lack; and a workflow action, single or bulk, never moves a row out of the caller's scope,
 * checked on the row before the change and again as it stands after it.
 */
let api: TestApi;
let regionOne = 0;
let regionTwo = 0;
let category = 0;
const k = () => api.db.knex;

const subject = (inn: string, region: number) => newSubject(api, inn, region, category);

beforeAll(async () => {
  api = await startTestApi();
  [regionOne, regionTwo] = await k()('regions').orderBy('id').limit(2).pluck('id');
  category = (await k()('subject_categories').first('id')).id;
});
afterAll(async () => {
  await api?.close();
});

describe('nobody grants a role or an action they do not hold', () => {
  it('a police-user manager cannot make an administrator, by create, update or role assignment', async () => {
    const admin = (await k()('roles').where({ code: 'administrator' }).first('id')).id;
    const manager = await api.userWithActions('mvd_manager', [5406, 5461, 5462]);
    const created = await api.post(
      '/api/managing/mvd-users',
      { username: 'mvd_new', password: 'secret-12', region_id: regionOne, roles: [admin] },
      { token: manager },
    );
    expect(created.status).toBe(201);
    const id = created.body.id;
    // roles are not a side field: nothing was granted
    expect(await k()('user_roles').where({ user_id: id }).pluck('role_id')).toEqual([]);
    const fresh = (await api.get(`/api/managing/mvd-users/${id}`, { token: manager })).body;
    expect((await api.put(`/api/managing/mvd-users/${id}`, { ...fresh, roles: [admin] }, { token: manager })).status).toBe(200);
    expect(await k()('user_roles').where({ user_id: id }).pluck('role_id')).toEqual([]);
    // role assignment has its own right …
    expect((await api.post(`/api/managing/mvd-users/${id}/actions/assign-roles`, { roles: [admin] }, { token: manager })).status).toBe(403);
    // … and even with it, nobody grants a role whose actions they lack
    const assigner = await api.userWithActions('mvd_assigner', [5406, 5466]);
    const refused = await api.post(
      `/api/managing/mvd-users/${id}/actions/assign-roles`,
      { roles: [admin] },
      { token: assigner, lang: 'ru' },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Нельзя выдавать/);
    expect(await k()('user_roles').where({ user_id: id }).pluck('role_id')).toEqual([]);
    // a role whose actions the assigner holds can be granted
    const [small] = await k()('roles')
      .insert({ code: 'mvd_reader', name: JSON.stringify({ uz: 'IIV oʻquvchi' }) })
      .returning('id');
    await k()('role_actions').insert({ role_id: small.id, action_id: 5406, state: 1 });
    expect((await api.post(`/api/managing/mvd-users/${id}/actions/assign-roles`, { roles: [small.id] }, { token: assigner })).status).toBe(
      200,
    );
    expect(await k()('user_roles').where({ user_id: id }).pluck('role_id')).toEqual([small.id]);
  });

  it('a users manager cannot reset, block, rename or delete a user holding rights they lack', async () => {
    const adminUser = await k()('users').where({ username: 'admin' }).first('id', 'version');
    const manager = await api.userWithActions('users_manager', [5405, 5451, 5452, 5453, 5455, 5456]);
    expect(
      (
        await api.post(
          `/api/managing/users/${adminUser.id}/set-new-password`,
          { password: 'taken-over', password_repeat: 'taken-over' },
          { token: manager },
        )
      ).status,
    ).toBe(403);
    expect(
      (await api.post(`/api/managing/users/${adminUser.id}/users-change-status`, { status: 'blocked' }, { token: manager })).status,
    ).toBe(403);
    expect(
      (await api.put(`/api/managing/users/${adminUser.id}`, { fio: 'Boshqa', version: adminUser.version }, { token: manager })).status,
    ).toBe(403);
    expect((await api.del(`/api/managing/users/${adminUser.id}`, { token: manager })).status).toBe(403);
    expect((await api.post(`/api/managing/users/${adminUser.id}/add-user-roles`, { role_ids: [] }, { token: manager })).status).toBe(403);
    expect((await api.post('/api/admin/auth/login', { username: 'admin', password: 'taken-over' }, { token: '' })).status).toBe(401);
  });

  it('an access manager opens or closes only actions they hold, on roles no stronger than they are', async () => {
    const role = (
      await k()('roles')
        .insert({ code: 'helpers', name: JSON.stringify({ uz: 'Yordamchilar' }) })
        .returning('id')
    )[0].id;
    const admin = (await k()('roles').where({ code: 'administrator' }).first('id')).id;
    const manager = await api.userWithActions('access_manager', [5403, 5404, 5442, 3001]);
    const open = (body: object) => api.post('/api/user-role-access/update-access-status', body, { token: manager });
    expect((await open({ role_id: role, action_id: 3001, state: 1 })).status).toBe(200);
    expect((await open({ role_id: role, action_id: 5451, state: 1 })).status).toBe(403);
    expect((await api.post('/api/user-role-access/set-action', { role_id: role, all: true }, { token: manager })).status).toBe(403);
    // the administrators' role holds what the manager lacks: its actions are not theirs to close
    expect((await open({ role_id: admin, action_id: 3001, state: 0 })).status).toBe(403);
    expect(await k()('role_actions').where({ role_id: role, state: 1 }).pluck('action_id')).toEqual([3001]);
    // and the change is in the trail
    const trail = await k()('audit_log').where({ entity: 'user-roles', record_id: role }).orderBy('id', 'desc').first();
    expect(trail).toMatchObject({ op: 'update', action: 'set-action' });
    expect(trail.after).toEqual({ actions: [3001] });
  });
});

describe("a workflow action never moves a row out of the caller's scope", () => {
  it("refuses attaching a region's payments to another region's subject, single and bulk", async () => {
    const own = await subject('400000001', regionOne);
    const foreign = await subject('400000002', regionTwo);
    const [stack] = await k()('payment_stacks').insert({ number: 'SEC-1', statement_date: '2024-01-10' }).returning('id');
    const [p1, p2] = await k()('payments')
      .insert([
        {
          stack_id: stack.id,
          paid_on: '2024-01-10',
          number: 'S1',
          amount: '100.00',
          payment_type: 'card',
          status: 'undefined',
          region_id: regionOne,
        },
        {
          stack_id: stack.id,
          paid_on: '2024-01-10',
          number: 'S2',
          amount: '200.00',
          payment_type: 'card',
          status: 'undefined',
          region_id: regionOne,
        },
      ])
      .returning('id');
    const clerk = await api.userWithActions('region_clerk', [577, 6121, 253], { region_id: regionOne });
    const bulk = await api.post('/api/ecofund/payments/actions/attach', { ids: [p1.id, p2.id], subject_id: foreign }, { token: clerk });
    expect(bulk.status).toBe(400);
    expect(Object.keys(bulk.body.errors)).toEqual(['subject_id']);
    const single = await api.post(`/api/ecofund/payments/${p1.id}/actions/attach`, { subject_id: foreign }, { token: clerk });
    expect(single.status).toBe(400);
    expect(await k()('payments').whereIn('id', [p1.id, p2.id]).pluck('subject_id')).toEqual([null, null]);
    // within the scope it works, with a flow and an audit row each
    const ok = await api.post('/api/ecofund/payments/actions/attach', { ids: [p1.id, p2.id], subject_id: own }, { token: clerk });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const audit = await k()('audit_log').where({ entity: 'payments' }).whereIn('record_id', [p1.id, p2.id]).select('op', 'action', 'after');
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ op: 'action', action: 'attach', after: { subject_id: own, status: 'defined' } });
  });

  it("checks the row after the change: a move that would leave the caller's scope is a 403 and undone", async () => {
    // whatever puts the row elsewhere — here a database trigger — the row is checked as it stands after the write
    const moved = await subject('400000003', regionOne);
    const [stack] = await k()('payment_stacks').insert({ number: 'SEC-2', statement_date: '2024-01-10' }).returning('id');
    const [p] = await k()('payments')
      .insert({
        stack_id: stack.id,
        paid_on: '2024-01-10',
        number: 'S3',
        amount: '300.00',
        payment_type: 'card',
        status: 'undefined',
        region_id: regionOne,
      })
      .returning('id');
    const clerk = await api.userWithActions('region_clerk_2', [577, 6121, 253], { region_id: regionOne });
    await k().raw(`create or replace function sec_move_subject() returns trigger language plpgsql as $$
      begin new.region_id := ${regionTwo}; return new; end $$`);
    await k().raw(
      `create trigger sec_move before update on payments for each row when (new.subject_id = ${moved}) execute function sec_move_subject()`,
    );
    try {
      const r = await api.post(`/api/ecofund/payments/${p.id}/actions/attach`, { subject_id: moved }, { token: clerk });
      expect(r.status).toBe(403);
      expect((await k()('payments').where({ id: p.id }).first()).subject_id).toBeNull();
    } finally {
      await k().raw('drop trigger sec_move on payments');
      await k().raw('drop function sec_move_subject()');
    }
  });
});
