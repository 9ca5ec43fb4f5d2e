import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The fund's growing table partitioned by year like `plantings` and `offences` (issue 16;
 * docs/scaling.md, "Partitions"): `payments` by the year of `paid_on`, with the same helper — a
 * partition a year and a default one, the rows moved, indexes, checks, outgoing keys and the fund's
 * statement-level triggers kept; the primary key becomes `(id, paid_on)`; the references to a
 * payment (its splits, an offence's payments) become the trigger pairs doing what their keys did.
 *
 * First, the one thing that stood in the way. Two BEFORE DELETE row triggers take a deleted
 * payment's splits out of the fund's month aggregates (`fund_split_months`,
 * `fund_subject_split_months`) while the splits are still there (they go with the payment, ON
 * DELETE CASCADE). PostgreSQL runs a row's BEFORE DELETE triggers also when an UPDATE moves it to
 * another partition (its `paid_on` changed year) — and that UPDATE's statement triggers already
 * take the old rows out and put the new ones in, so the splits came out twice. The UPDATE now
 * marks itself for the length of the statement (a transaction-local setting, set by a BEFORE and
 * cleared by an AFTER statement trigger; a rolled-back savepoint takes it back too), and the two
 * delete triggers fire only when it is not set: a real DELETE, never a moved row.
 */
const MARK = `CREATE OR REPLACE FUNCTION payments_updating() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM set_config('ecofond.payments_updating', CASE WHEN TG_WHEN = 'BEFORE' THEN 'on' ELSE '' END, true);
    RETURN NULL;
  END $$`;
const NOT_MOVING = `current_setting('ecofond.payments_updating', true) IS DISTINCT FROM 'on'`;
const DELETES = ['payments_fund_splits_delete', 'payments_fund_subject_splits_delete'];

export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await knex.raw(MARK);
  await knex.raw(
    'CREATE TRIGGER payments_updating_begin BEFORE UPDATE ON payments FOR EACH STATEMENT EXECUTE FUNCTION payments_updating()',
  );
  await knex.raw('CREATE TRIGGER payments_updating_end AFTER UPDATE ON payments FOR EACH STATEMENT EXECUTE FUNCTION payments_updating()');
  for (const name of DELETES) {
    await knex.raw(`DROP TRIGGER ${name} ON payments`);
    await knex.raw(`CREATE TRIGGER ${name} BEFORE DELETE ON payments FOR EACH ROW WHEN (${NOT_MOVING}) EXECUTE FUNCTION ${name}()`);
  }
  await h.partitionByYear('payments', 'paid_on');
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.unpartition('payments');
  for (const name of DELETES) {
    await knex.raw(`DROP TRIGGER ${name} ON payments`);
    await knex.raw(`CREATE TRIGGER ${name} BEFORE DELETE ON payments FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  }
  await knex.raw('DROP TRIGGER payments_updating_end ON payments');
  await knex.raw('DROP TRIGGER payments_updating_begin ON payments');
  await knex.raw('DROP FUNCTION payments_updating()');
}
