import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';

/**
 * The holes an outside audit found, one test each (they failed before the one write path):
 * 1 a police-user manager making an administrator; 2 a bulk workflow action moving rows out of
 * the caller's scope; 3 any signed-in user reading any file; 4 the sign-in lock beaten in
 * parallel, and forgot-password sending a code per request and telling accounts apart; 6 file
 * fields ignoring their types and sizes; 7 a user's subject dropped on save, the tree passport
 * showing a resident's name, and changes outside Repository.update leaving no audit row.
 * (5 — bad bytes in input — has test/input-defects.test.ts and the fuzz suite.)
 */
let api: TestApi;
let regionOne = 0;
let regionTwo = 0;
let category = 0;
const k = () => api.db.knex;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function upload(body: Buffer, name: string, token = api.adminToken): Promise<{ status: number; body: any }> {
  const r = await fetch(`${api.url}/api/resources/upload?name=${encodeURIComponent(name)}`, { method: 'POST', body, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' } });
  return { status: r.status, body: await r.json() };
}
const download = (id: number, token: string) => fetch(`${api.url}/api/resources/${id}`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);

async function subject(inn: string, region: number): Promise<number> {
  const r = await api.post('/api/ecofund/subject', { inn, name: `Subyekt ${inn}`, region_id: region, category_id: category });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

beforeAll(async () => {
  process.env.ECOFOND_DATA_DIR = mkdtempSync(join(tmpdir(), 'ecofond-security-'));
  api = await startTestApi();
  [regionOne, regionTwo] = await k()('regions').orderBy('id').limit(2).pluck('id');
  category = (await k()('subject_categories').first('id')).id;
});
afterAll(async () => { await api?.close(); });

describe('1. nobody grants a role or an action they do not hold', () => {
  it('a police-user manager cannot make an administrator, by create, update or role assignment', async () => {
    const admin = (await k()('roles').where({ code: 'administrator' }).first('id')).id;
    const manager = await api.userWithActions('mvd_manager', [5406, 5461, 5462]);
    const created = await api.post('/api/managing/mvd-users', { username: 'mvd_new', password: 'secret-12', region_id: regionOne, roles: [admin] }, { token: manager });
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
    const refused = await api.post(`/api/managing/mvd-users/${id}/actions/assign-roles`, { roles: [admin] }, { token: assigner, lang: 'ru' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Нельзя выдавать/);
    expect(await k()('user_roles').where({ user_id: id }).pluck('role_id')).toEqual([]);
    // a role whose actions the assigner holds can be granted
    const [small] = await k()('roles').insert({ code: 'mvd_reader', name: JSON.stringify({ uz: 'IIV oʻquvchi' }) }).returning('id');
    await k()('role_actions').insert({ role_id: small.id, action_id: 5406, state: 1 });
    expect((await api.post(`/api/managing/mvd-users/${id}/actions/assign-roles`, { roles: [small.id] }, { token: assigner })).status).toBe(200);
    expect(await k()('user_roles').where({ user_id: id }).pluck('role_id')).toEqual([small.id]);
  });

  it('a users manager cannot reset, block, rename or delete a user holding rights they lack', async () => {
    const adminUser = (await k()('users').where({ username: 'admin' }).first('id', 'version'));
    const manager = await api.userWithActions('users_manager', [5405, 5451, 5452, 5453, 5455, 5456]);
    expect((await api.post(`/api/managing/users/${adminUser.id}/set-new-password`, { password: 'taken-over', password_repeat: 'taken-over' }, { token: manager })).status).toBe(403);
    expect((await api.post(`/api/managing/users/${adminUser.id}/users-change-status`, { status: 'blocked' }, { token: manager })).status).toBe(403);
    expect((await api.put(`/api/managing/users/${adminUser.id}`, { fio: 'Boshqa', version: adminUser.version }, { token: manager })).status).toBe(403);
    expect((await api.del(`/api/managing/users/${adminUser.id}`, { token: manager })).status).toBe(403);
    expect((await api.post(`/api/managing/users/${adminUser.id}/add-user-roles`, { role_ids: [] }, { token: manager })).status).toBe(403);
    expect((await api.post('/api/admin/auth/login', { username: 'admin', password: 'taken-over' }, { token: '' })).status).toBe(401);
  });

  it('an access manager opens or closes only actions they hold, on roles no stronger than they are', async () => {
    const role = (await k()('roles').insert({ code: 'helpers', name: JSON.stringify({ uz: 'Yordamchilar' }) }).returning('id'))[0].id;
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

describe('2. a workflow action never moves a row out of the caller\'s scope', () => {
  it('refuses attaching a region\'s payments to another region\'s subject, single and bulk', async () => {
    const own = await subject('400000001', regionOne);
    const foreign = await subject('400000002', regionTwo);
    const [stack] = await k()('payment_stacks').insert({ number: 'SEC-1', statement_date: '2024-01-10' }).returning('id');
    const [p1, p2] = await k()('payments').insert([
      { stack_id: stack.id, paid_on: '2024-01-10', number: 'S1', amount: '100.00', payment_type: 'card', status: 'undefined', region_id: regionOne },
      { stack_id: stack.id, paid_on: '2024-01-10', number: 'S2', amount: '200.00', payment_type: 'card', status: 'undefined', region_id: regionOne },
    ]).returning('id');
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

  it('checks the row after the change: a move that would leave the caller\'s scope is a 403 and undone', async () => {
    // whatever puts the row elsewhere — here a database trigger — the row is checked as it stands after the write
    const moved = await subject('400000003', regionOne);
    const [stack] = await k()('payment_stacks').insert({ number: 'SEC-2', statement_date: '2024-01-10' }).returning('id');
    const [p] = await k()('payments').insert({ stack_id: stack.id, paid_on: '2024-01-10', number: 'S3', amount: '300.00', payment_type: 'card', status: 'undefined', region_id: regionOne }).returning('id');
    const clerk = await api.userWithActions('region_clerk_2', [577, 6121, 253], { region_id: regionOne });
    await k().raw(`create or replace function sec_move_subject() returns trigger language plpgsql as $$
      begin new.region_id := ${regionTwo}; return new; end $$`);
    await k().raw(`create trigger sec_move before update on payments for each row when (new.subject_id = ${moved}) execute function sec_move_subject()`);
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

describe('3. a file is read by whoever may read a row that holds it', () => {
  it('answers 404 to others, 200 to the uploader and to readers of the row in their scope; ids are random', async () => {
    const a = await upload(PDF, 'dalolatnoma.pdf');
    const b = await upload(PNG, 'rasm.png');
    expect(a.status).toBe(201);
    // not the next number: ids cannot be walked
    expect(Math.abs(b.body.id - a.body.id)).toBeGreaterThan(1000);
    const owner = await subject('400000004', regionOne);
    const report = await api.post('/api/ecofund/subject-report-yearly', { subject_id: owner, year: 2024, period: 'year', report_date: '2024-12-20', files: [a.body.id] });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    const onlyRegions = await api.userWithActions('regions_reader', [3001]);
    expect(await download(a.body.id, onlyRegions)).toBe(404);
    expect(await download(b.body.id, onlyRegions)).toBe(404);
    const readerOne = await api.userWithActions('reports_reader_1', [5201], { region_id: regionOne });
    const readerTwo = await api.userWithActions('reports_reader_2', [5201], { region_id: regionTwo });
    expect(await download(a.body.id, readerOne)).toBe(200);
    expect(await download(a.body.id, readerTwo)).toBe(404);
    expect(await download(a.body.id, api.adminToken)).toBe(200);
    // the uploader reads their own upload before any row holds it
    const own = await upload(PNG, 'mine.png', onlyRegions);
    expect(await download(own.body.id, onlyRegions)).toBe(200);
    expect(await download(own.body.id, readerOne)).toBe(404);
  });
});

describe('4. sign-in and password reset hold against bursts', () => {
  it('counts 30 parallel wrong passwords one after another: the lock comes at the limit', async () => {
    await k()('app_configs').insert({ key: 'auth.ip_lock_after_failures', value: '1000' }).onConflict('key').merge();
    await api.userWithActions('burst_target', []);
    const answers = await Promise.all(Array.from({ length: 30 }, () => api.post('/api/admin/auth/login', { username: 'burst_target', password: 'wrong-pass' }, { token: '' })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    expect((await api.post('/api/admin/auth/login', { username: 'burst_target', password: 'secret-pw' }, { token: '' })).status).toBe(429);
  });

  it('sends one code for a burst of resets, and answers every name alike', async () => {
    const withMail = (await api.post('/api/managing/users', { username: 'reset_mail', password: 'secret-12', email: 'reset@example.uz', lang_code: 'uz', kind: 'staff' })).body.id;
    await api.post('/api/managing/users', { username: 'reset_none', password: 'secret-12', lang_code: 'uz', kind: 'staff' });
    const burst = await Promise.all(Array.from({ length: 20 }, () => api.post('/api/admin/auth/forgot-password', { username: 'reset_mail' }, { token: '' })));
    expect(new Set(burst.map((r) => JSON.stringify([r.status, r.body])))).toEqual(new Set([JSON.stringify([200, { sent: true }])]));
    expect(await k()('notification_recipients').where({ user_id: withMail }).count('* as n').first()).toMatchObject({ n: 1 });
    expect(await k()('one_time_codes').where({ user_id: withMail }).count('* as n').first()).toMatchObject({ n: 1 });
    const none = await api.post('/api/admin/auth/forgot-password', { username: 'reset_none' }, { token: '' });
    const unknown = await api.post('/api/admin/auth/forgot-password', { username: 'reset_nobody' }, { token: '' });
    expect([none.status, none.body]).toEqual([200, { sent: true }]);
    expect([unknown.status, unknown.body]).toEqual([200, { sent: true }]);
  });
});

describe('6. file fields keep their rules', () => {
  it('refuses a PDF as a logo, an image over the field\'s size, and a bare zip named .xlsx', async () => {
    const pdf = await upload(PDF, 'logo.pdf');
    const r = await api.post('/api/ecofund/subject', { inn: '400000005', name: 'Logotip', region_id: regionOne, category_id: category, logo: pdf.body.id }, { lang: 'ru' });
    expect(r.status).toBe(400);
    expect(r.body.errors.logo).toMatch(/не принимает файлы такого типа/);
    const big = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]);
    const large = await upload(big, 'katta.png');
    expect(large.status).toBe(201);
    const r2 = await api.post('/api/ecofund/subject', { inn: '400000006', name: 'Katta logotip', region_id: regionOne, category_id: category, logo: large.body.id });
    expect(r2.status).toBe(400);
    expect(r2.body.errors.logo).toMatch(/2 MB/);
    // a zip whose entries are not a workbook's is not a spreadsheet, whatever its name
    const zip = Buffer.from('504b0506000000000000000000000000000000000000', 'hex');
    expect((await upload(zip, 'hisobot.xlsx')).status).toBe(400);
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('A').addRow(['x']);
    const real = await upload(Buffer.from(await wb.xlsx.writeBuffer()), 'hisobot.xlsx');
    expect(real.body.mime).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });
});

describe('7. the rest', () => {
  it('keeps a user\'s subject set from the back-office', async () => {
    const owner = await subject('400000007', regionOne);
    const u = await api.post('/api/managing/users', { username: 'subject_user_7', password: 'secret-12', lang_code: 'uz', kind: 'subject', subject_id: owner });
    expect(u.body.subject_id).toBe(owner);
    const other = await subject('400000008', regionOne);
    const changed = await api.put(`/api/managing/users/${u.body.id}`, { ...u.body, subject_id: other });
    expect(changed.body.subject_id).toBe(other);
  });

  it('gives the public passport only what the plantings\' public block opens', async () => {
    const species = (await k()('tree_species').first('id')).id;
    const p = await api.post('/api/ecofund-plantings/plantings', { species_id: species, count: 1, planted_on: '2024-04-01', region_id: regionOne, location: { lat: 41.3, lng: 69.2 }, responsible: 'Aliyev Vali' });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    const passport = await api.get(`/api/public/plantings/${p.body.id}`, { token: '' });
    expect(passport.status).toBe(200);
    expect(JSON.stringify(passport.body)).not.toContain('Aliyev');
    expect(passport.body).not.toHaveProperty('responsible');
    expect(passport.body.species).toHaveProperty('uz');
  });

  it('audits imports, workflow moves with what their hooks computed, and password resets', async () => {
    const owner = await subject('400000009', regionOne);
    const stack = (await api.post('/api/ecofund/stack-payments', { number: 'AUD-1', statement_date: '2024-02-01' })).body;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Toʻlovlar');
    ws.addRow(['Sana', 'Raqam', 'Summa', 'Toʻlovchi', 'STIR', 'Hisob', 'Maqsad', 'Kod', 'Turi']);
    ws.addRow(['01.02.2024', 'A-1', 1500, 'Toʻlovchi', '400000009', '', 'Kompensatsiya', '3450715', 'karta']);
    const r = await fetch(`${api.url}/api/ecofund/stack-payments/${stack.id}/import`, { method: 'POST', body: Buffer.from(await wb.xlsx.writeBuffer()), headers: { Authorization: `Bearer ${api.adminToken}` } });
    expect(r.status, await r.clone().text()).toBe(200);
    const payment = await k()('payments').where({ stack_id: stack.id }).first('id', 'subject_id');
    expect(payment.subject_id).toBe(owner);
    const trail = await k()('audit_log').where({ entity: 'payments', record_id: payment.id }).orderBy('id').select('op', 'action', 'after');
    expect(trail.map((t: { op: string; action: string | null }) => [t.op, t.action])).toEqual([['create', 'import'], ['action', 'attach']]);
    expect((await k()('audit_log').where({ entity: 'stack-payments', record_id: stack.id, action: 'import' }).first()).after).toMatchObject({ rows_count: 1, total_amount: '1500.00' });
    // confirming: the split the hook computed is part of the move's audit row
    expect((await api.post(`/api/ecofund/payments/${payment.id}/actions/confirm`, {})).status).toBe(200);
    const confirm = await k()('audit_log').where({ entity: 'payments', record_id: payment.id, action: 'confirm' }).first();
    expect(confirm.after.splits).toEqual([expect.objectContaining({ income_code: '3450715', budget: '390.00', fund: '1110.00' })]);
    // a password set by an administrator: audited, the password never shown
    const u = (await api.post('/api/managing/users', { username: 'audited_pw', password: 'secret-12', lang_code: 'uz', kind: 'staff' })).body;
    expect((await api.post(`/api/managing/users/${u.id}/set-new-password`, { password: 'secret-34', password_repeat: 'secret-34' })).status).toBe(200);
    const pw = await k()('audit_log').where({ entity: 'users', record_id: u.id, action: 'set-password' }).first();
    expect(pw.after).toEqual({ password: '••••••' });
    expect(JSON.stringify(await k()('audit_log').where({ record_id: u.id, entity: 'users' }).select('before', 'after'))).not.toMatch(/scrypt/);
  });
});
