import { describe, expect, it } from 'vitest';
import { loadMetadata } from '../api/meta/load.ts';
import { SYSTEM_ROLES, administratorOnlyActions, roleActions, unknownGrantNames } from './roles.ts';
import { DEMO_USERS } from './demo-users.ts';

/** The system roles' grants against the metadata: every name resolves, administration stays the administrator's. */
const model = loadMetadata();
const others = SYSTEM_ROLES.filter((r) => !r.all);

describe('system roles', () => {
  it("are the spec's ten, each but the administrator with a demo user of its own", () => {
    expect(SYSTEM_ROLES.map((r) => r.code).sort()).toEqual([
      'administrator',
      'branch',
      'confirming_staff',
      'ecology_staff',
      'fund',
      'headquarters',
      'inspector',
      'police',
      'population',
      'subject',
    ]);
    expect([...new Set(DEMO_USERS.map((u) => u.role))].sort()).toEqual(others.map((r) => r.code).sort());
    // a user holding more roles holds roles of one scope, each a system role
    for (const u of DEMO_USERS)
      for (const code of u.also ?? []) {
        const r = SYSTEM_ROLES.find((x) => x.code === code);
        expect(r?.scope, `${u.username} ${code}`).toBe(SYSTEM_ROLES.find((x) => x.code === u.role)?.scope);
      }
  });

  it('name only entities, workflow actions, routes and reports the metadata has', () => {
    expect(unknownGrantNames(model)).toEqual([]);
  });

  it('give the administrator every action, and nobody else an action of managing, access or admin', () => {
    expect(roleActions(SYSTEM_ROLES.find((r) => r.all)!, model)).toEqual([...model.actions.keys()].sort((a, b) => a - b));
    const adminOnly = administratorOnlyActions(model);
    for (const id of [5405, 5403, 5404, 5451, 5455, 5704, 5804, 5801]) expect(adminOnly.has(id), String(id)).toBe(true);
    for (const r of others) {
      const ids = roleActions(r, model);
      expect(ids.length, r.code).toBeGreaterThan(0);
      expect(
        ids.filter((id) => adminOnly.has(id)),
        r.code,
      ).toEqual([]);
    }
  });

  it("keep the rights added with the one write path the administrator's: role assignment and the audit trail", () => {
    const added = [
      model.entities.get('users')!.workflow!.actions['assign-roles'].action,
      model.entities.get('mvd-users')!.workflow!.actions['assign-roles'].action,
      model.entities.get('audit-log')!.access.read,
      model.entities.get('audit-log')!.access.export!,
    ];
    expect(added).toEqual([5456, 5466, 5809, 5819]);
    expect(roleActions(SYSTEM_ROLES.find((r) => r.all)!, model)).toEqual(expect.arrayContaining(added));
    for (const r of others)
      expect(
        roleActions(r, model).filter((id) => added.includes(id)),
        r.code,
      ).toEqual([]);
  });

  it('give the roles their work by name: a few spot checks', () => {
    const ids = (code: string) => new Set(roleActions(SYSTEM_ROLES.find((r) => r.code === code)!, model));
    const wf = (entity: string, action: string) => model.entities.get(entity)!.workflow!.actions[action].action;
    const op = (entity: string, o: 'read' | 'create' | 'update' | 'delete' | 'export') => model.entities.get(entity)!.access[o]!;
    expect(ids('subject').has(wf('subject-report-yearly', 'send'))).toBe(true);
    expect(ids('subject').has(op('subject-report-yearly', 'create'))).toBe(true);
    expect(ids('subject').has(wf('subject-report-yearly', 'accept'))).toBe(false);
    expect(ids('fund').has(wf('subject-report-yearly', 'accept'))).toBe(true);
    expect(ids('fund').has(wf('payments', 'attach'))).toBe(true);
    expect(ids('fund').has(op('stack-payments', 'create'))).toBe(true);
    expect(ids('confirming_staff').has(wf('payments', 'confirm'))).toBe(true);
    expect(ids('confirming_staff').has(wf('subject-report-yearly', 'confirm'))).toBe(true);
    expect(ids('inspector').has(op('subject-akts', 'create'))).toBe(true);
    expect(ids('ecology_staff').has(op('plantings', 'create'))).toBe(true);
    expect(ids('branch').has(op('branchs-plans', 'create'))).toBe(true);
    expect(ids('population').has(op('my-gardens', 'create'))).toBe(true);
    // a resident reads back the gardens they registered, their own rows only (docs/accounts.md)
    expect(ids('population').has(op('my-gardens', 'read'))).toBe(true);
    expect(ids('police').has(op('subject-report-yearly', 'read'))).toBe(true);
    expect(ids('police').has(op('subject-report-yearly', 'update'))).toBe(false);
    // headquarters read every entity outside administration and every report, by rule
    const hq = ids('headquarters');
    for (const e of model.entities.values())
      if (!['managing', 'access', 'admin'].includes(e.module)) expect(hq.has(e.access.read), e.name).toBe(true);
    for (const r of model.reports.values()) if (r.access !== undefined) expect(hq.has(r.access), r.name).toBe(true);
  });
});
