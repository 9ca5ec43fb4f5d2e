import type { Knex } from 'knex';

/**
 * A statement payment is taken as a fine payment once: the take-from-statements route skips the
 * ones already taken, and now the database refuses a second row for the same statement payment
 * too (two requests at the same moment, or a hand-made row), answered as a 400 beside
 * `payment_id` (`offence_payments_payment_id_unique`, the name the engine maps to the field).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS offence_payments_payment_id_idx');
  await knex.raw('CREATE UNIQUE INDEX IF NOT EXISTS offence_payments_payment_id_unique ON offence_payments (payment_id)');
}

export async function down(knex: Knex): Promise<void> {
  // a database whose tables the metadata's builder made holds it as a constraint, not a bare index
  await knex.raw('ALTER TABLE offence_payments DROP CONSTRAINT IF EXISTS offence_payments_payment_id_unique');
  await knex.raw('DROP INDEX IF EXISTS offence_payments_payment_id_unique');
  await knex.raw('CREATE INDEX IF NOT EXISTS offence_payments_payment_id_idx ON offence_payments (payment_id)');
}
