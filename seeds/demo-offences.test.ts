import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../test/support/db.ts';
import type { Database } from '../api/db/connection.ts';
import { seedDemo } from './demo.ts';
import { seedDemoUsers } from './demo-users.ts';
import { seedOffencesDemo } from './demo-offences.ts';
import { seedPeopleFactsDemo } from './demo-people-facts.ts';

/** The enforcement demo: offences in every region and state, and fine payments that agree with them to the tiyin. */
let db: Database;
beforeAll(async () => {
  db = await testDatabase();
  await seedDemo(db.knex, () => undefined, 60);
  await seedDemoUsers(db.knex, 'ecofond-demo');
  await seedOffencesDemo(db.knex);
  await seedPeopleFactsDemo(db.knex);
});
afterAll(async () => {
  await db?.close();
});

describe('offences demo data', () => {
  it("has offences in every region and every state, the demo inspector's own among them", async () => {
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
    expect(
      Number(
        (await k('offence_payments').where({ status: 'confirmed' }).whereRaw('budget_amount + fund_amount <> amount').count({ n: '*' }))[0]
          .n,
      ),
    ).toBe(0);
    const wrong = await k('offences as o')
      .whereRaw(
        `o.paid_amount <> coalesce((select sum(p.amount) from offence_payments p where p.offence_id = o.id and p.status = 'confirmed'), 0)`,
      )
      .count({ n: '*' });
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

describe('people facts demo data', () => {
  it('has a few dozen facts across the regions and states, some turned into offences linked both ways', async () => {
    const k = db.knex;
    expect(Number((await k('people_facts').count({ n: '*' }))[0].n)).toBeGreaterThanOrEqual(24);
    expect((await k('people_facts').distinct('status').pluck('status')).sort()).toEqual([
      'assigned',
      'check',
      'new',
      'offence',
      'rejected',
    ]);
    expect((await k('people_facts').distinct('fact_source').pluck('fact_source')).sort()).toEqual(['population', 'public']);
    expect(Number((await k('people_facts').countDistinct({ n: 'region_id' }))[0].n)).toBeGreaterThan(10);
    // every status row is the book's row of its state, every number its own
    expect(
      Number(
        (
          await k('people_facts as f')
            .join('people_fact_statuses as s', 's.id', 'f.status_id')
            .whereRaw('s.code <> upper(f.status)')
            .count({ n: '*' })
        )[0].n,
      ),
    ).toBe(0);
    expect(Number((await k('people_facts').whereNull('number').orWhereNull('status_id').count({ n: '*' }))[0].n)).toBe(0);
    const linked = await k('people_facts as f')
      .join('offences as o', 'o.id', 'f.offence_id')
      .select('f.id', 'f.status', 'o.people_fact_id');
    expect(linked.length).toBeGreaterThan(3);
    for (const l of linked) expect(l).toMatchObject({ status: 'offence', people_fact_id: l.id });
    expect(Number((await k('people_facts').where({ status: 'offence' }).whereNull('offence_id').count({ n: '*' }))[0].n)).toBe(0);
    // the demo inspector has one assigned, the demo resident theirs
    const inspector = await k('users').where({ username: 'inspector' }).first('id');
    expect(Number((await k('people_facts').where({ inspector_id: inspector.id, status: 'assigned' }).count({ n: '*' }))[0].n)).toBe(1);
    const resident = await k('users').where({ username: 'population' }).first('id');
    expect(Number((await k('people_facts').where({ informant_user_id: resident.id }).count({ n: '*' }))[0].n)).toBeGreaterThan(0);
  });

  it('records the incentive of the one fact whose offence is paid, in the demo region: a tenth of its fine, to the tiyin', async () => {
    const rows = await db
      .knex('people_fact_incentives as i')
      .join('people_facts as f', 'f.id', 'i.parent_id')
      .join('offences as o', 'o.id', 'f.offence_id')
      .select(
        'i.amount',
        'i.fine_amount',
        'i.rule',
        'o.fine_amount as fine',
        'o.payment_status',
        'f.payment_status as fact_payment',
        'f.region_id',
      );
    expect(rows).toHaveLength(1);
    const [r] = rows;
    const inspector = await db.knex('users').where({ username: 'inspector' }).first('region_id');
    expect(r).toMatchObject({
      rule: '10%',
      payment_status: 'paid',
      fact_payment: 'paid',
      fine_amount: r.fine,
      region_id: inspector.region_id,
    });
    // every state in the demo region
    expect((await db.knex('people_facts').where({ region_id: inspector.region_id }).distinct('status').pluck('status')).sort()).toEqual([
      'assigned',
      'check',
      'new',
      'offence',
      'rejected',
    ]);
    const fine = BigInt(String(r.fine).replace('.', ''));
    const tenth = (fine + 5n) / 10n;
    expect(r.amount).toBe(`${tenth / 100n}.${String(tenth % 100n).padStart(2, '0')}`);
  });

  it('is written once', async () => {
    const before = await db.knex('people_facts').count({ n: '*' });
    await seedPeopleFactsDemo(db.knex);
    expect(await db.knex('people_facts').count({ n: '*' })).toEqual(before);
  });
});
