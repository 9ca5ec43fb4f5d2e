import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { Repository } from '../api/engine/repository.ts';
import { ApiError } from '../api/http/errors.ts';
import { Workflow } from '../api/engine/workflow.ts';
import type { Principal } from '../api/auth/ability.ts';

/**
 * Repository.createMany of many rows (createBatched: pipelined batches of 1 000, then 5 000,
 * docs/performance.md bench/import): each row's audit row is what a single create writes, a bad row
 * after a written batch still writes nothing and is named with every other bad row, and the scope
 * is checked. createStream takes the rows as they arrive (a file being read); Workflow.runSets
 * moves several sets of rows, each with its own parameters, set-wise.
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
  const principal: Principal = {
    id: admin.id,
    username: 'admin',
    actions: new Set(api.model.actions.keys()),
    region_id: regionId,
    branch_id: null,
    subject_id: null,
  };
  repo = (name: string) => new Repository({ knex: k, model: api.model, principal, lang: 'uz' }, api.model.entities.get(name)!);
  stackId = (await repo('stack-payments').create({ number: 'BATCH-1', statement_date: '2025-12-01' })).id as number;
}, 120_000);
afterAll(async () => {
  await api?.close();
});

const payment = (i: number) => ({
  stack_id: stackId,
  paid_on: '2025-03-04',
  number: `B-${i}`,
  amount: `${1000 + i}.50`,
  payer: `Payer ${i}`,
  payer_inn: '123456789',
  purpose: 'for the fund',
  income_type_id: incomeType,
  payment_type: i % 2 ? 'cash' : 'card',
});
const count = async (prefix: string) =>
  Number((await api.db.knex('payments').where('number', 'like', `${prefix}%`).count({ n: '*' }))[0].n);

describe('createMany of thousands of rows', () => {
  it('writes each row with the audit row a single create writes, in order, with progress', async () => {
    const single = await repo('payments').create(payment(0), { action: 'import' });
    const seen: number[] = [];
    const rows = await repo('payments').createMany(
      Array.from({ length: N }, (_, i) => payment(i + 1)),
      { action: 'import', onProgress: (d) => seen.push(d) },
    );
    expect(rows.map((r) => r.number)).toEqual(Array.from({ length: N }, (_, i) => `B-${i + 1}`));
    // the first batch is smaller, so that the database starts early
    expect(seen).toEqual([1000, N]);
    const k = api.db.knex;
    const audit = async (id: unknown) =>
      k('audit_log')
        .where({ entity: 'payments', record_id: id as number })
        .select('op', 'action', 'user_id', 'before', 'after');
    const [one] = await audit(single.id);
    for (const i of [0, 999, 1000, N - 1]) {
      const trail = await audit(rows[i].id);
      expect(trail).toHaveLength(1);
      // the same payment but for its number, amount, payer and type, so the same audit row but for those
      const after = { ...trail[0].after, number: 'B-0', amount: '1000.50', payer: 'Payer 0', payment_type: 'card' };
      expect({ ...trail[0], after }).toEqual(one);
      expect(trail[0].after.number).toBe(`B-${i + 1}`);
    }
    expect(
      Number(
        (
          await k('audit_log')
            .where({ entity: 'payments', op: 'create' })
            .whereIn(
              'record_id',
              rows.map((r) => r.id as number),
            )
            .count({ n: '*' })
        )[0].n,
      ),
    ).toBe(N);
  });

  it('refuses rows bad in the database after a batch is written: nothing written, every bad row named by its number', async () => {
    const payloads = Array.from({ length: N }, (_, i) => ({ ...payment(i), number: `R-${i}` }));
    payloads[5500] = { ...payloads[5500], income_type_id: 999_999 };
    payloads[5800] = { ...payloads[5800], amount: 'abc' };
    const rowNumbers = payloads.map((_, i) => i + 2);
    const err = await repo('payments')
      .createMany(payloads, { action: 'import', rowNumbers })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.messageKey).toBe('errors.import_rows');
    expect(Object.keys(err.fieldErrors)).toEqual(['rows.5502.income_type_id', 'rows.5802.amount']);
    expect(err.details).toMatchObject({ error_count: 2, error_rows: 2 });
    expect(await count('R-')).toBe(0);
  });

  it("refuses a row of another scope than the caller's, writing nothing", async () => {
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
    r.deriveFields = async (trx, rows) => {
      if (++batches === 2) await trx('payment_stacks').where({ id: gone }).delete();
      return orig(trx, rows);
    };
    const err = await r.createMany(payloads).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(await count('D-')).toBe(0);
  });
});

describe('createStream: rows written as they arrive', () => {
  it('writes the first batch before the source has given the rest, and all of them in order', async () => {
    let written = 0;
    let firstWritten!: () => void;
    const first = new Promise<void>((resolve) => {
      firstWritten = resolve;
    });
    async function* source() {
      yield {
        payloads: Array.from({ length: 1500 }, (_, i) => ({ ...payment(i), number: `T-${i}` })),
        rowNumbers: Array.from({ length: 1500 }, (_, i) => i + 2),
      };
      // the rest only once the database has the first rows: a write that waited for the whole source would never end
      await Promise.race([
        first,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('the first batch was not written while the source was open')), 20_000),
        ),
      ]);
      yield {
        payloads: Array.from({ length: 2500 }, (_, i) => ({ ...payment(i), number: `T-${1500 + i}` })),
        rowNumbers: Array.from({ length: 2500 }, (_, i) => 1502 + i),
      };
    }
    const rows = await repo('payments').createStream(source(), {
      action: 'import',
      onProgress: (d) => {
        written = d;
        if (d >= 1000) firstWritten();
      },
    });
    expect(written).toBe(4000);
    expect(rows.map((r) => r.number)).toEqual(Array.from({ length: 4000 }, (_, i) => `T-${i}`));
    expect(await count('T-')).toBe(4000);
  });

  it('refuses the whole when a later chunk brings an error: nothing written, rows named by their numbers', async () => {
    async function* source() {
      yield {
        payloads: Array.from({ length: 3000 }, (_, i) => ({ ...payment(i), number: `U-${i}` })),
        rowNumbers: Array.from({ length: 3000 }, (_, i) => i + 2),
      };
      yield {
        payloads: [
          { ...payment(1), number: 'U-x', amount: 'abc' },
          { ...payment(2), number: 'U-y' },
        ],
        rowNumbers: [3002, 3003],
        errors: { 'rows.3003.paid_on': { key: 'validation.wrong_format' } },
      };
    }
    const err = await repo('payments')
      .createStream(source())
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.messageKey).toBe('errors.import_rows');
    expect(Object.keys(err.fieldErrors).sort()).toEqual(['rows.3002.amount', 'rows.3003.paid_on']);
    expect(await count('U-')).toBe(0);
  });
});

describe('Workflow.runSets: one action, each set of rows with its parameters', () => {
  it('attaches each set to its subject set-wise, with a flow row and an audit row a payment; a row named twice or not found is a 404', async () => {
    const k = api.db.knex;
    const category = (await k('subject_categories').first('id')).id;
    const [a, b] = await Promise.all(
      ['700000001', '700000002'].map(
        async (inn) =>
          (await repo('subject').create({ inn, name: `Sets ${inn}`, region_id: regionId, category_id: category })).id as number,
      ),
    );
    const made = await repo('payments').createMany(Array.from({ length: 5 }, (_, i) => ({ ...payment(i), number: `W-${i}` })));
    const ids = made.map((r) => r.id as number);
    const wf = new Workflow(repo('payments'));
    await expect(
      wf.runSets('attach', [
        { ids: [ids[0]], input: { subject_id: a } },
        { ids: [ids[0]], input: { subject_id: b } },
      ]),
    ).rejects.toMatchObject({ kind: 'notFound' });
    await expect(wf.runSets('attach', [{ ids: [ids[0], 999_999_999], input: { subject_id: a } }])).rejects.toMatchObject({
      kind: 'notFound',
    });
    const done = await wf.runSets('attach', [
      { ids: ids.slice(0, 3), input: { subject_id: a, comment: 'A' } },
      { ids: ids.slice(3), input: { subject_id: b, comment: 'B' } },
    ]);
    expect(done).toEqual({ ids, changed: 5 });
    const rows = await k('payments').whereIn('id', ids).orderBy('id').select('subject_id', 'status', 'version');
    expect(rows).toEqual([a, a, a, b, b].map((subject_id) => ({ subject_id, status: 'defined', version: 2 })));
    const flows = await k('flows')
      .where({ entity: 'payments', action: 'attach' })
      .whereIn('record_id', ids)
      .orderBy('record_id')
      .select('from_state', 'to_state', 'comment');
    expect(flows).toEqual(['A', 'A', 'A', 'B', 'B'].map((comment) => ({ from_state: 'undefined', to_state: 'defined', comment })));
    const audit = await k('audit_log')
      .where({ entity: 'payments', op: 'action', action: 'attach' })
      .whereIn('record_id', ids)
      .orderBy('record_id')
      .select('after');
    expect(audit.map((x) => x.after.subject_id)).toEqual([a, a, a, b, b]);
    // again: an idempotent action leaves them as they are
    expect((await wf.runSets('attach', [{ ids: ids.slice(0, 3), input: { subject_id: a } }])).changed).toBe(0);
  });
});
