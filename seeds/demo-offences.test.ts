import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../test/support/db.ts';
import type { Database } from '../api/db/connection.ts';
import { seedDemo } from './demo.ts';
import { seedDemoUsers } from './demo-users.ts';
import { seedOffencesDemo } from './demo-offences.ts';

/** The enforcement demo: offences in every region and state, and fine payments that agree with them to the tiyin. */
let db: Database;
beforeAll(async () => {
  db = await testDatabase();
  await seedDemo(db.knex, () => undefined, 60);
  await seedDemoUsers(db.knex, 'ecofond-demo');
  await seedOffencesDemo(db.knex);
});
afterAll(async () => { await db?.close(); });

describe('offences demo data', () => {
  it('has offences in every region and every state, the demo inspector\'s own among them', async () => {
    const k = db.knex;
    expect((await k('offences').distinct('status').pluck('status')).sort()).toEqual(['closed', 'draft', 'mvd', 'returned', 'review']);
    const regions = Number((await k('regions').whereNotNull('centre').count({ n: '*' }))[0].n);
    expect(Number((await k('offences').countDistinct({ n: 'region_id' }))[0].n)).toBe(regions);
    const inspector = await k('users').where({ username: 'inspector' }).first('id', 'position_id', 'rank_id');
    expect(inspector.position_id).not.toBeNull();
    expect(inspector.rank_id).not.toBeNull();
    expect(Number((await k('offences').where({ inspector_id: inspector.id }).count({ n: '*' }))[0].n)).toBeGreaterThan(0);
    expect(Number((await k('offences').whereNull('fine_amount').count({ n: '*' }))[0].n)).toBe(0);
    expect(Number((await k('mahallas').count({ n: '*' }))[0].n)).toBe(3 * Number((await k('areas').count({ n: '*' }))[0].n));
  });

  it('splits every confirmed fine payment exactly and marks its offence by what was paid', async () => {
    const k = db.knex;
    expect(Number((await k('offence_payments').where({ status: 'confirmed' }).whereRaw('budget_amount + fund_amount <> amount').count({ n: '*' }))[0].n)).toBe(0);
    const wrong = await k('offences as o').whereRaw(`o.paid_amount <> coalesce((select sum(p.amount) from offence_payments p where p.offence_id = o.id and p.status = 'confirmed'), 0)`).count({ n: '*' });
    expect(Number(wrong[0].n)).toBe(0);
    expect((await k('offences').distinct('payment_status').pluck('payment_status')).sort()).toEqual(['paid', 'partly_paid', 'unpaid']);
    expect(Number((await k('offence_payments').where({ status: 'undefined' }).count({ n: '*' }))[0].n)).toBe(1);
  });

  it('is written once', async () => {
    const before = await db.knex('offences').count({ n: '*' });
    await seedOffencesDemo(db.knex);
    expect(await db.knex('offences').count({ n: '*' })).toEqual(before);
  });
});
