import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { freeUniqueEnum, samplePayload } from './support/samples.ts';
import { TEST_ADMIN_PASSWORD } from './support/template.ts';
import { actionIdFor, OPERATIONS } from '../api/auth/ability.ts';
import type { EntityMeta } from '../api/meta/types.ts';

/**
 * Generated from the metadata: for every entity, every route it exposes and every workflow action,
 * a user whose roles lack the action id gets 403, and the same user holding only that id gets
 * through. New entities and actions are covered as soon as their metadata exists.
 */
let api: TestApi;
let token: string;
let roleId: number;

beforeAll(async () => {
  api = await startTestApi();
  token = await api.userWithActions('perm_probe', []);
  roleId = (await api.db.knex('roles').where({ code: 'test_perm_probe' }).first('id')).id;
});
afterAll(async () => { await api?.close(); });

/** The probe's role holds exactly these action ids from the next request on. */
async function only(ids: (number | undefined)[]) {
  await api.db.knex('role_actions').where({ role_id: roleId }).delete();
  const rows = [...new Set(ids.filter((x): x is number => x !== undefined))].map((action_id) => ({ role_id: roleId, action_id, state: 1 }));
  if (rows.length) await api.db.knex('role_actions').insert(rows);
}

/** A row to read, change and delete: made by the administrator, or the newest one where nobody may create. */
async function targetRow(e: EntityMeta): Promise<Record<string, unknown> | undefined> {
  const path = `/api${e.path}`;
  if (e.access.create !== undefined) {
    await freeUniqueEnum(api.db.knex, e);
    const r = await api.post(path, await samplePayload(api.db.knex, api.model, e));
    expect(r.status, `${e.name}: ${JSON.stringify(r.body)}`).toBe(201);
    return r.body;
  }
  if (e.name === 'sessions') await api.login('admin', TEST_ADMIN_PASSWORD); // never the probe's own session
  const list = await api.get(`${path}?sort=${encodeURIComponent(JSON.stringify(['id', 'DESC']))}&range=[0,0]`);
  return list.body[0];
}

describe('every route of every entity is guarded by its action id', () => {
  it('covers each operation and workflow action of the metadata', { timeout: 300_000 }, async () => {
    let checked = 0;
    for (const e of api.model.entities.values()) {
      const path = `/api${e.path}`;
      const row = await targetRow(e);
      const id = row?.id ?? 999999999;
      const call = async (op: string): Promise<number> => {
        switch (op) {
          case 'read': {
            const list = await api.get(path, { token });
            const one = await api.get(`${path}/${id}`, { token });
            return list.status === 403 || one.status === 403 ? 403 : list.status;
          }
          case 'export': return (await api.get(`${path}/export`, { token })).status;
          case 'create': {
            await freeUniqueEnum(api.db.knex, e, id);
            return (await api.post(path, await samplePayload(api.db.knex, api.model, e), { token })).status;
          }
          case 'update': {
            const fresh = (await api.get(`${path}/${id}`)).body;
            return (await api.put(`${path}/${id}`, fresh, { token })).status;
          }
          case 'delete': return (await api.del(`${path}/${id}`, { token })).status;
          default: {
            const a = e.workflow!.actions[op.slice(3)];
            const params = a.params ? await samplePayload(api.db.knex, api.model, { ...e, fields: a.params }) : {};
            return (await api.post(`${path}/${id}/actions/${op.slice(3)}`, params, { token })).status;
          }
        }
      };
      const expected: Record<string, number[]> = { read: [200], export: [200], create: [201], update: [200], delete: [200] };
      const checks: [string, number | undefined][] = OPERATIONS.map((op) => [op, actionIdFor(e, op)]);
      for (const [name, a] of Object.entries(e.workflow?.actions ?? {})) checks.push([`wf:${name}`, a.action]);
      // delete last: it removes the row the others use
      checks.sort(([a], [b]) => Number(a === 'delete') - Number(b === 'delete'));
      for (const [op, actionId] of checks) {
        await only([]);
        expect(await call(op), `${e.name} ${op} without its action`).toBe(403);
        if (actionId === undefined) continue;
        if (!row && op !== 'create' && op !== 'export') continue;
        await only([actionId]);
        const status = await call(op);
        // a workflow action may be refused by the row's state (409) or by its own checks of what it
        // is given (400: a signature that does not verify), never by permission
        const ok = op.startsWith('wf:') ? [200, 400, 409] : expected[op];
        expect(ok, `${e.name} ${op} with action ${actionId}: ${status}`).toContain(status);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(api.model.entities.size * 3);
  });
});
