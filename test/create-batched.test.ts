import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { Repository } from '../api/engine/repository.ts';
import { ApiError } from '../api/http/errors.ts';
import type { Principal } from '../api/auth/ability.ts';

/**
 * Repository.createMany of many rows (createBatched: pipelined batches of 5 000, docs/performance.md
 * bench/import): each row's audit row is what a single create writes, a bad row after a written
 * batch still writes nothing and is named with every other bad row, and the scope is checked.
 */
let api: TestApi;
let regionId: number;
let otherRegion: number;
let stackId: number;
let incomeType: number;
let repo: (entity: string) => Repository;
const N = 6000;

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  [regionId, otherRegion] = await k('regions').orderBy('id').limit(2).pluck('id');
  incomeType = (await k('income_types').orderBy('id').first('id')).id;
  const admin = await k('users').where({ username: 'admin' }).first('id');
  const principal: Principal = { id: admin.id, username: 'admin', actions: new Set(api.model.actions.keys()), region_id: regionId, branch_id: null, subject_id: null };
  repo = (name: string) => new Repository({ knex: k, model: api.model, principal, lang: 'uz' }, api.model.entities.get(name)!);
  stackId = (await repo('stack-payments').create({ number: 'BATCH-1', statement_date: '2025-12-01' })).id as number;
}, 120_000);
afterAll(async () => { await api?.close(); });

const payment = (i: number) => ({
  stack_id: stackId, paid_on: '2025-03-04', number: `B-${i}`, amount: `${1000 + i}.50`, payer: `Payer ${i}`, payer_inn: '123456789',
  purpose: 'for the fund', income_type_id: incomeType, payment_type: i % 2 ? 'cash' : 'card',
});
const count = async (prefix: string) => Number((await api.db.knex('payments').where('number', 'like', `${prefix}%`).count({ n: '*' }))[0].n);

describe('createMany of thousands of rows', () => {
  it('writes each row with the audit row a single create writes, in order, with progress', async () => {
    const single = await repo('payments').create(payment(0), { action: 'import' });
    const seen: number[] = [];
    const rows = await repo('payments').createMany(Array.from({ length: N }, (_, i) => payment(i + 1)), { action: 'import', onProgress: (d) => seen.push(d) });
    expect(rows.map((r) => r.number)).toEqual(Array.from({ length: N }, (_, i) => `B-${i + 1}`));
    expect(seen).toEqual([5000, N]);
    const k = api.db.knex;
    const audit = async (id: unknown) => k('audit_log').where({ entity: 'payments', record_id: id as number }).select('op', 'action', 'user_id', 'before', 'after');
    const [one] = await audit(single.id);
    for (const i of [0, 4999, 5000, N - 1]) {
      const trail = await audit(rows[i].id);
      expect(trail).toHaveLength(1);
      // the same payment but for its number, amount, payer and type, so the same audit row but for those
      const after = { ...trail[0].after, number: 'B-0', amount: '1000.50', payer: 'Payer 0', payment_type: 'card' };
      expect({ ...trail[0], after }).toEqual(one);
      expect(trail[0].after.number).toBe(`B-${i + 1}`);
    }
    expect(Number((await k('audit_log').where({ entity: 'payments', op: 'create' }).whereIn('record_id', rows.map((r) => r.id as number)).count({ n: '*' }))[0].n)).toBe(N);
  });

  it('refuses rows bad in the database after a batch is written: nothing written, every bad row named by its number', async () => {
    const payloads = Array.from({ length: N }, (_, i) => ({ ...payment(i), number: `R-${i}` }));
    payloads[5500] = { ...payloads[5500], income_type_id: 999_999 };
    payloads[5800] = { ...payloads[5800], amount: 'abc' };
    const rowNumbers = payloads.map((_, i) => i + 2);
    const err = await repo('payments').createMany(payloads, { action: 'import', rowNumbers }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.messageKey).toBe('errors.import_rows');
    expect(Object.keys(err.fieldErrors)).toEqual(['rows.5502.income_type_id', 'rows.5802.amount']);
    expect(err.details).toMatchObject({ error_count: 2, error_rows: 2 });
    expect(await count('R-')).toBe(0);
  });

  it('refuses a row of another scope than the caller\'s, writing nothing', async () => {
    const payloads: Record<string, unknown>[] = Array.from({ length: N }, (_, i) => ({ ...payment(i), number: `S-${i}` }));
    payloads[5100] = { ...payloads[5100], region_id: otherRegion };
    await expect(repo('payments').createMany(payloads)).rejects.toMatchObject({ messageKey: 'errors.forbidden' });
    expect(await count('S-')).toBe(0);
  });

  it('stops on an abort between statements, writing nothing', async () => {
    const payloads = Array.from({ length: N }, (_, i) => ({ ...payment(i), number: `A-${i}` }));
    const ac = new AbortController();
    await expect(repo('payments').createMany(payloads, { signal: ac.signal, onProgress: () => ac.abort() })).rejects.toThrow();
    expect(await count('A-')).toBe(0);
  });

  it('a database error in a written batch is the answer, and nothing is written', async () => {
    const payloads = Array.from({ length: N }, (_, i) => ({ ...payment(i), number: `D-${i}` }));
    // deleted between the check and the write: the foreign key refuses the batch
    const gone = (await api.db.knex('payment_stacks').insert({ number: 'GONE', statement_date: '2025-12-01' }).returning('id'))[0].id;
    payloads[5200] = { ...payloads[5200], stack_id: gone };
    const r = repo('payments');
    const orig = r.deriveFields.bind(r);
    let batches = 0;
    // the second batch's stack disappears once it is checked, inside the import's transaction
    r.deriveFields = async (trx, rows) => { if (++batches === 2) await trx('payment_stacks').where({ id: gone }).delete(); return orig(trx, rows); };
    const err = await r.createMany(payloads).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(await count('D-')).toBe(0);
  });
});
