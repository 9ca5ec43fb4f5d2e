import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { newSubject } from './support/subjects.ts';

/**
 * The audit trail of changes made outside a plain create or update (docs/architecture.md, "One
 * write path"): an import's rows, a workflow move with what its hook computed, a password set by
 * an administrator — each one audit row, the password never shown.
 */
let api: TestApi;
let regionOne = 0;
let category = 0;
const k = () => api.db.knex;

const subject = (inn: string, region: number) => newSubject(api, inn, region, category);

beforeAll(async () => {
  api = await startTestApi();
  regionOne = (await k()('regions').orderBy('id').first('id')).id;
  category = (await k()('subject_categories').first('id')).id;
});
afterAll(async () => {
  await api?.close();
});

describe('the audit trail', () => {
  it('audits imports, workflow moves with what their hooks computed, and password resets', async () => {
    const owner = await subject('400000009', regionOne);
    const stack = (await api.post('/api/ecofund/stack-payments', { number: 'AUD-1', statement_date: '2024-02-01' })).body;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Toʻlovlar');
    ws.addRow(['Sana', 'Raqam', 'Summa', 'Toʻlovchi', 'STIR', 'Hisob', 'Maqsad', 'Kod', 'Turi']);
    ws.addRow(['01.02.2024', 'A-1', 1500, 'Toʻlovchi', '400000009', '', 'Kompensatsiya', '3450715', 'karta']);
    const r = await fetch(`${api.url}/api/ecofund/stack-payments/${stack.id}/import`, {
      method: 'POST',
      body: Buffer.from(await wb.xlsx.writeBuffer()),
      headers: { Authorization: `Bearer ${api.adminToken}` },
    });
    expect(r.status, await r.clone().text()).toBe(200);
    const payment = await k()('payments').where({ stack_id: stack.id }).first('id', 'subject_id');
    expect(payment.subject_id).toBe(owner);
    const trail = await k()('audit_log').where({ entity: 'payments', record_id: payment.id }).orderBy('id').select('op', 'action', 'after');
    expect(trail.map((t: { op: string; action: string | null }) => [t.op, t.action])).toEqual([
      ['create', 'import'],
      ['action', 'attach'],
    ]);
    expect((await k()('audit_log').where({ entity: 'stack-payments', record_id: stack.id, action: 'import' }).first()).after).toMatchObject(
      { rows_count: 1, total_amount: '1500.00' },
    );
    // confirming: the split the hook computed is part of the move's audit row
    expect((await api.post(`/api/ecofund/payments/${payment.id}/actions/confirm`, {})).status).toBe(200);
    const confirm = await k()('audit_log').where({ entity: 'payments', record_id: payment.id, action: 'confirm' }).first();
    expect(confirm.after.splits).toEqual([expect.objectContaining({ income_code: '3450715', budget: '390.00', fund: '1110.00' })]);
    // a password set by an administrator: audited, the password never shown
    const u = (await api.post('/api/managing/users', { username: 'audited_pw', password: 'secret-12', lang_code: 'uz', kind: 'staff' }))
      .body;
    expect(
      (await api.post(`/api/managing/users/${u.id}/set-new-password`, { password: 'secret-34', password_repeat: 'secret-34' })).status,
    ).toBe(200);
    const pw = await k()('audit_log').where({ entity: 'users', record_id: u.id, action: 'set-password' }).first();
    expect(pw.after).toEqual({ password: '••••••' });
    expect(JSON.stringify(await k()('audit_log').where({ record_id: u.id, entity: 'users' }).select('before', 'after'))).not.toMatch(
      /scrypt/,
    );
  });
});
