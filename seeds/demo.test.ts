import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../test/support/db.ts';
import type { Database } from '../api/db/connection.ts';
import { seedDemo } from './demo.ts';

/** The demo data covers every state, and what it stores is consistent: splits add up, reports are computed. */
let db: Database;
beforeAll(async () => {
  db = await testDatabase();
  await seedDemo(db.knex, () => undefined, 60);
});
afterAll(async () => { await db?.close(); });

describe('demo data', () => {
  it('has payments and reports in every state', async () => {
    expect((await db.knex('payments').distinct('status').pluck('status')).sort()).toEqual(['confirmed', 'defined', 'undefined']);
    expect((await db.knex('subject_reports').distinct('status').pluck('status')).sort()).toEqual(['accepted', 'in_process', 'invalid', 'new', 'rejected', 'sent']);
  });

  it('splits every confirmed payment exactly and computes every report', async () => {
    const bad = await db.knex('payments as p').join('payment_splits as s', 's.parent_id', 'p.id')
      .whereRaw('s.budget + s.fund + s.organisation <> p.amount').count({ n: '*' });
    expect(Number(bad[0].n)).toBe(0);
    const confirmed = await db.knex('payments').where({ status: 'confirmed' }).count({ n: '*' });
    expect(Number((await db.knex('payment_splits').count({ n: '*' }))[0].n)).toBe(Number(confirmed[0].n));
    expect(Number((await db.knex('subject_reports').whereNull('amount').count({ n: '*' }))[0].n)).toBe(0);
  });

  it('is written once', async () => {
    const before = await db.knex('subjects').count({ n: '*' });
    await seedDemo(db.knex);
    expect(await db.knex('subjects').count({ n: '*' })).toEqual(before);
  });
});
