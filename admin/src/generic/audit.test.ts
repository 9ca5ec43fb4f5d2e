import { describe, expect, it } from 'vitest';
import { MetaModel } from '../meta/model';
import type { ClientMeta, EntityMeta } from '../meta/types';
import {
  changedElsewhere,
  actionKey,
  changesOf,
  htmlText,
  idsNotIn,
  jsonSummary,
  keyFieldOf,
  looksHtml,
  objectLines,
  plainValue,
  showsDelta,
  whatKey,
} from './audit';
import { conflictOf, resolved } from './conflict';

/**
 * How the back-office reads the audit trail (admin/src/generic/audit.ts: the audit log and a
 * record's History tab) and a stale save's answer (conflict.ts, decision 0077).
 */

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
    { name: 'body', type: 'text3', label: 'fields.body', html: true },
    { name: 'note', type: 'text', label: 'fields.note' },
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
  'admin.history.change.read': 'Oʻqilgan deb belgilandi',
  'admin.history.change.payments': 'Toʻlovlar biriktirildi',
  'fields.number': 'Raqami',
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

describe('readable audit entries', () => {
  it("names the routes' own changes (a read mark, attached payments) by their captions, not their code names", () => {
    expect(whatKey(users, 'update', 'read', exists)).toBe('admin.history.change.read');
    expect(actionKey(model, 'payments', exists)).toBe('admin.history.change.payments');
  });

  it('shows rich text as its words: no tags, entities read, blocks on lines of their own', () => {
    expect(looksHtml('<p>Salom</p>')).toBe(true);
    expect(looksHtml('a < b and c > d')).toBe(false);
    expect(htmlText('<p>Birinchi&nbsp;qator</p><p>Ikkinchi <b>qalin</b> &amp; &lt;oddiy&gt;</p>')).toBe(
      'Birinchi\u00a0qator\nIkkinchi qalin & <oddiy>',
    );
    expect(htmlText('a<br>b<br/>c')).toBe('a\nb\nc');
    const body = model.field(payments, 'body')!;
    expect(plainValue(body, { uz: '<h2>Sarlavha</h2><p>Matn</p>', ru: '<p>Текст</p>' }, 'uz', translate, exists)).toBe('Sarlavha\nMatn');
    expect(plainValue(body, { uz: '<h2>Sarlavha</h2><p>Matn</p>', ru: '<p>Текст</p>' }, 'ru', translate, exists)).toBe('Текст');
    // a plain text field holding markup (an issued document's template) as its words too
    expect(plainValue(model.field(payments, 'note')!, '<div>Akt <i>№ 5</i></div>', 'uz', translate, exists)).toBe('Akt № 5');
  });

  it('writes a JSON object no field describes as caption: value lines, never as JSON', () => {
    const payload = { number: 'P-17', amount: '1375000', paid_on: '2026-12-02', sent: true, extra: { zone: 3 } };
    expect(objectLines(payload, 'uz', translate, exists)).toEqual([
      'Raqami: P-17',
      'Summa: 1375000',
      'Toʻlov sanasi: 02.12.2026',
      'sent: Ha',
      'extra: { zone: 3 }',
    ]);
    // a key the metadata declares as money or a date anywhere is formatted as that field
    expect(objectLines(payload, 'uz', translate, exists, keyFieldOf(model, undefined))).toEqual([
      'Raqami: P-17',
      'Summa: 1\u00a0375\u00a0000,00',
      'Toʻlov sanasi: 02.12.2026',
      'sent: Ha',
      'extra: { zone: 3 }',
    ]);
    const f = { name: 'payload', type: 'json', label: 'fields.payload' } as const;
    const line = plainValue(f, { number: 'P-17', title: { uz: 'Toʻlov', ru: 'Платёж' } }, 'ru', translate, exists);
    expect(line).toBe('Raqami: P-17; title: Платёж');
    expect(line).not.toMatch(/[{}"]/);
  });
});

describe("a stale save's answer", () => {
  const answer = {
    status: 409,
    body: { code: -106, version: 3, current: { id: 7, version: 5, amount: '20.00', paid_on: '2026-12-01' }, differs: ['amount'] },
  };

  it('is read from the 409 that carries the row now; other errors are not conflicts', () => {
    expect(conflictOf(answer)).toEqual({ version: 5, current: answer.body.current, differs: ['amount'] });
    expect(conflictOf({ status: 409, body: { code: -107 } })).toBeNull();
    expect(conflictOf({ status: 400, body: { current: { version: 1 } } })).toBeNull();
    expect(conflictOf(new Error('x'))).toBeNull();
    expect(conflictOf({ status: 409, body: { current: { id: 7 } } })).toBeNull();
  });

  it("sends the user's values with the server's where chosen, at the row's version now", () => {
    const c = conflictOf({ ...answer, body: { ...answer.body, differs: ['amount', 'paid_on'] } })!;
    const mine = { id: 7, version: 3, amount: '30.00', paid_on: '2026-12-02', note: 'mine' };
    expect(resolved(mine, c, {})).toEqual({ ...mine, version: 5 });
    expect(resolved(mine, c, { paid_on: 'server', amount: 'mine' })).toEqual({ ...mine, version: 5, paid_on: '2026-12-01' });
  });
});

describe('changedElsewhere: a three-language text changed in another language than the one shown', () => {
  it('names the languages that changed when the shown one did not', () => {
    expect(changedElsewhere({ uz: 'Bir', ru: 'Один' }, { uz: 'Bir', ru: 'Раз' }, 'uz')).toEqual(['ru']);
    expect(changedElsewhere({ uz: 'Bir', uk: 'Бир' }, { uz: 'Bir' }, 'ru')).toEqual(['uk']);
  });
  it('names none when the shown language changed, or the value is no three-language text', () => {
    expect(changedElsewhere({ uz: 'Bir', ru: 'Один' }, { uz: 'Ikki', ru: 'Раз' }, 'uz')).toEqual([]);
    expect(changedElsewhere('Bir', 'Ikki', 'uz')).toEqual([]);
    expect(changedElsewhere({ name: 'x' }, { name: 'y' }, 'uz')).toEqual([]);
  });
});
