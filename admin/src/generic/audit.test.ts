import { describe, expect, it } from 'vitest';
import { MetaModel } from '../meta/model';
import type { ClientMeta, EntityMeta } from '../meta/types';
import { actionKey, changesOf, jsonSummary, plainValue, showsDelta, whatKey, idsNotIn } from './audit';

const users: EntityMeta = {
  name: 'users',
  module: 'managing',
  kind: 'system',
  caption: 'entity.users',
  titleField: 'username',
  path: '/api/managing/users',
  fields: [
    { name: 'username', type: 'string', label: 'fields.username' },
    { name: 'password', type: 'password', label: 'fields.password' },
    { name: 'status', type: 'enum', values: ['active', 'blocked'], label: 'fields.status' },
    { name: 'roles', type: 'refs', ref: 'user-roles', label: 'fields.roles' },
  ],
  list: { columns: ['id'], sort: ['id', 'desc'], perPage: 25, filters: [] },
  can: { read: true, create: true, update: true, delete: true, export: true },
  workflow: {
    field: 'status',
    initial: 'active',
    actions: [{ name: 'assign-roles', from: ['active'], action: 5456, label: 'actions.assign-roles', allowed: true }],
  },
};
const payments: EntityMeta = {
  ...users,
  name: 'payments',
  caption: 'entity.payments',
  titleField: 'number',
  path: '/api/ecofund/payments',
  workflow: undefined,
  fields: [
    { name: 'amount', type: 'money', label: 'fields.amount' },
    { name: 'paid_on', type: 'date', label: 'fields.paid_on' },
    { name: 'is_active', type: 'boolean', label: 'fields.is_active' },
    { name: 'name', type: 'text3', label: 'fields.name' },
  ],
};
const model = new MetaModel({ lang: 'uz', entities: [users, payments], menu: [], routes: [], captions: {} } as ClientMeta);
const captions: Record<string, string> = {
  'actions.assign-roles': 'Rollarni biriktirish',
  'enums.status.blocked': 'Bloklangan',
  'ra.boolean.true': 'Ha',
  'ra.boolean.false': 'Yoʻq',
  'fields.amount': 'Summa',
  'fields.paid_on': 'Toʻlov sanasi',
  'fields.name': 'Nomi',
  'admin.history.change.set-password': 'Parol oʻrnatildi',
};
const exists = (k: string) => k in captions;
const translate = (k: string) => captions[k] ?? k;

describe('the audit trail read by the metadata', () => {
  it("lists the changed keys in the order of the entity's fields, undeclared keys last", () => {
    const changes = changesOf(model, users, { roles: [], status: 'active' }, { roles: [2, 3], status: 'blocked', zeta: 1, alpha: 2 });
    expect(changes.map((c) => c.key)).toEqual(['status', 'roles', 'alpha', 'zeta']);
    expect(changes[1]).toMatchObject({ before: [], after: [2, 3], field: { type: 'refs', ref: 'user-roles' } });
    // a key no field declares is shown as stored, captioned fields.<key>
    expect(changes[2].field).toMatchObject({ name: 'alpha', type: 'json', label: 'fields.alpha' });
    // a system column has its own field
    expect(changesOf(model, users, null, { updated_at: '2024-01-01T00:00:00Z' })[0].field.type).toBe('datetime');
  });

  it('says what a change did: its workflow action, a named change, or the operation', () => {
    expect(whatKey(users, 'action', 'assign-roles', exists)).toBe('actions.assign-roles');
    expect(whatKey(users, 'update', 'set-password', exists)).toBe('admin.history.change.set-password');
    expect(whatKey(users, 'update', null, exists)).toBe('enums.op.update');
    expect(whatKey(users, 'update', 'something-new', exists)).toBe('enums.op.update');
    expect(actionKey(model, 'assign-roles', exists)).toBe('actions.assign-roles');
    expect(actionKey(model, 'import', exists)).toBe('admin.history.change.import');
    expect(actionKey(model, 'nothing', exists)).toBeUndefined();
  });

  it('writes values as the list does', () => {
    const f = (name: string) => model.field(payments, name)!;
    expect(plainValue(f('amount'), '1234567.5', 'uz', translate, exists)).toBe('1\u00a0234\u00a0567,50');
    expect(plainValue(f('paid_on'), '2024-03-05', 'uz', translate, exists)).toBe('05.03.2024');
    expect(plainValue(f('is_active'), false, 'uz', translate, exists)).toBe('Yoʻq');
    expect(plainValue(f('name'), { uz: 'Bank', ru: 'Банк' }, 'ru', translate, exists)).toBe('Банк');
    expect(plainValue(model.field(users, 'status')!, 'blocked', 'uz', translate, exists)).toBe('Bloklangan');
    expect(plainValue(model.field(users, 'password')!, '••••••', 'uz', translate, exists)).toBe('••••••');
    expect(plainValue(f('amount'), null, 'uz', translate, exists)).toBe('—');
    expect(jsonSummary(model, payments, { amount: '10', name: { uz: 'Bank' } }, 'uz', translate, exists)).toBe('Summa: 10,00; Nomi: Bank');
  });

  it('shows only what differs between two long lists of references', () => {
    const roles = model.field(users, 'roles')!;
    expect(showsDelta(roles, [1, 2], [1, 2, 3])).toBe(false);
    const many = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(showsDelta(roles, many, [...many, 21])).toBe(true);
    expect(idsNotIn([...many, 21], many)).toEqual([21]);
    expect(idsNotIn(many, [...many, 21])).toEqual([]);
  });
});
