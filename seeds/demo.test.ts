import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../test/support/db.ts';
import type { Database } from '../api/db/connection.ts';
import { seedDemo } from './demo.ts';
import { DEMO_PLAN_TOTAL, NATIONAL_AIM } from './demo-greening.ts';
import { todayTashkent } from '../api/meta/today.ts';

/** The demo data covers every state, and what it stores is consistent: splits add up, reports are computed. */
let db: Database;
beforeAll(async () => {
  db = await testDatabase();
  await seedDemo(db.knex, () => undefined, 60);
});
afterAll(async () => {
  await db?.close();
});

describe('demo data', () => {
  it('has payments and reports in every state', async () => {
    expect((await db.knex('payments').distinct('status').pluck('status')).sort()).toEqual(['confirmed', 'defined', 'undefined']);
    expect((await db.knex('subject_reports').distinct('status').pluck('status')).sort()).toEqual([
      'accepted',
      'in_process',
      'invalid',
      'new',
      'rejected',
      'sent',
    ]);
  });

  it('splits every confirmed payment exactly and computes every report', async () => {
    const bad = await db
      .knex('payments as p')
      .join('payment_splits as s', 's.parent_id', 'p.id')
      .whereRaw('s.budget + s.fund + s.organisation <> p.amount')
      .count({ n: '*' });
    expect(Number(bad[0].n)).toBe(0);
    const confirmed = await db.knex('payments').where({ status: 'confirmed' }).count({ n: '*' });
    expect(Number((await db.knex('payment_splits').count({ n: '*' }))[0].n)).toBe(Number(confirmed[0].n));
    expect(Number((await db.knex('subject_reports').whereNull('amount').count({ n: '*' }))[0].n)).toBe(0);
    // signed means a signer and a time; a new report is not signed, a sent one is
    const flags = await db.knex('subject_reports').select('status', 'signed', 'signer', 'signed_at');
    for (const r of flags) {
      expect(r.signed, r.status).toBe(r.status !== 'new');
      expect(!!r.signer && !!r.signed_at, r.status).toBe(r.signed);
    }
  });

  it('names a fine article on every protocol, its fine within the article', async () => {
    const protocols = await db
      .knex('protocols as p')
      .leftJoin('fine as f', 'f.id', 'p.fine_id')
      .select('p.fine_id', 'p.fine_multiple', 'p.fine_amount', 'f.min_multiple', 'f.max_multiple');
    expect(protocols.length).toBeGreaterThan(0);
    for (const p of protocols) {
      expect(p.fine_id).not.toBeNull();
      expect(Number(p.fine_amount)).toBeGreaterThan(0);
      if (p.fine_multiple !== null) expect(Number(p.fine_multiple)).toBeGreaterThanOrEqual(Number(p.min_multiple));
    }
  });

  it('is written once', async () => {
    const before = await db.knex('subjects').count({ n: '*' });
    const plans = await db.knex('planting_plans').count({ n: '*' });
    await seedDemo(db.knex);
    expect(await db.knex('subjects').count({ n: '*' })).toEqual(before);
    expect(await db.knex('planting_plans').count({ n: '*' })).toEqual(plans);
  });
});

describe('greening demo data', () => {
  const n = async (table: string, where: (q: any) => void = () => {}) => {
    const q = db.knex(table);
    where(q);
    return Number((await q.count({ n: '*' }))[0].n);
  };
  const year = Number(todayTashkent().slice(0, 4));

  it("plans this year's trees by region and organisation, and the registry has planted part of them", async () => {
    const plans = await db.knex('planting_plans').where({ year }).select('region_id', 'org_id', 'trees');
    const planned = plans.reduce((s: number, p: { trees: number }) => s + Number(p.trees), 0);
    expect(Math.abs(planned - DEMO_PLAN_TOTAL)).toBeLessThan(100_000);
    expect(planned).toBeLessThanOrEqual(NATIONAL_AIM);
    expect(new Set(plans.map((p: { region_id: number }) => p.region_id)).size).toBe(14);
    const planted = Number((await db.knex('plantings').whereRaw('extract(year from planted_on) = ?', [year]).sum({ n: 'count' }))[0].n);
    expect(planted / planned).toBeGreaterThan(0.3);
    expect(planted / planned).toBeLessThan(1);
    expect(await n('plantings', (q) => q.where('planted_on', '>', todayTashkent()))).toBe(0);
    expect(await n('plantings', (q) => q.where('count', '>', 1_000_000))).toBe(0);
    // every plan's organisation has plantings against it
    const orgs = new Set((await db.knex('plantings').whereNotNull('org_id').distinct('org_id').pluck('org_id')).map(Number));
    expect(plans.every((p: { org_id: number }) => orgs.has(Number(p.org_id)))).toBe(true);
  });

  it('gives every volunteer plantings of their own', async () => {
    expect(await n('volunteers')).toBe(30);
    const without = await db
      .knex('volunteers as v')
      .whereNotExists(db.knex('plantings as p').whereRaw('p.volunteer_id = v.id'))
      .count({ n: '*' });
    expect(Number(without[0].n)).toBe(0);
  });

  it('has the green areas, streets, gardens, permits, violations, inspections, resident areas, decisions and news', async () => {
    expect(await n('green_areas')).toBe(20);
    expect((await db.knex('green_areas').distinct('kind').pluck('kind')).sort()).toEqual(['garden', 'park', 'public_park']);
    expect(await n('green_streets')).toBe(10);
    expect(await n('my_gardens')).toBe(10);
    expect(await n('tree_cutting_permits')).toBe(10);
    expect(await n('tree_cutting_violations')).toBe(10);
    expect(await n('planting_inspections')).toBe(12);
    expect(await n('planting_inspections', (q) => q.whereRaw('trees_alive > trees_checked'))).toBe(0);
    expect(await n('resident_planting_areas')).toBe(6);
    expect(await n('governor_decisions')).toBe(3);
    expect(await n('publications', (q) => q.where({ is_published: true }))).toBe(8);
    expect(await n('publications', (q) => q.where({ is_published: false }))).toBe(1);
  });

  it('draws the outlines as rings around their places', async () => {
    const rows = [
      ...(await db.knex('green_areas').select(db.knex.raw('npoints(shape) AS points'), db.knex.raw('shape @> location AS inside'))),
      ...(await db
        .knex('resident_planting_areas')
        .select(db.knex.raw('npoints(shape) AS points'), db.knex.raw('shape @> location AS inside'))),
    ];
    expect(rows).toHaveLength(26);
    for (const r of rows) {
      expect(Number(r.points)).toBeGreaterThanOrEqual(3);
      expect(r.inside).toBe(true);
    }
  });
});

describe('control-zone and given-permit demo data', () => {
  it("has zones with outlines in every region, each filled form meeting its zone's schema", async () => {
    const { zoneValuesForm } = await import('../api/modules/zones/forms.ts');
    const { compileSchema } = await import('../api/engine/payload-schema.ts');
    const regions = Number((await db.knex('regions').where({ is_active: true }).count({ n: '*' }))[0].n);
    const zoned = await db.knex('control_zones').whereNotNull('outline').countDistinct({ n: 'region_id' });
    expect(Number(zoned[0].n)).toBe(regions);
    const fillings = await db.knex('control_zone_field_values').select('zone_id', 'values');
    expect(fillings.length).toBeGreaterThan(regions);
    for (const f of fillings) {
      const form = (await zoneValuesForm(db.knex, Number(f.zone_id), 'uz'))!;
      const validate = compileSchema(form.schema);
      expect(validate(f.values), JSON.stringify([f.values, validate.errors])).toBe(true);
    }
  });

  it('has permits active, extended and terminated, each move with its flow row', async () => {
    expect((await db.knex('given_permits').distinct('status').pluck('status')).sort()).toEqual(['active', 'terminated']);
    const moved = await db.knex('given_permits').where('version', '>', 1).count({ n: '*' });
    const flows = await db.knex('flows').where({ entity: 'given-permits' }).count({ n: '*' });
    expect(Number(flows[0].n)).toBe(Number(moved[0].n));
    expect(Number(flows[0].n)).toBeGreaterThan(0);
  });
});
