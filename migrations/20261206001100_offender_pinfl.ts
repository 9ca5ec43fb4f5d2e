import type { Knex } from 'knex';

/**
 * An offender's PINFL beside the passport (issue 31, docs/personal-data.md): the identifier a
 * person's data is found by for their export and erasure. A database built after the field was
 * declared has the column already (its table is made from the metadata as it stands).
 */
export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn('offence_offenders', 'pinfl')))
    await knex.schema.alterTable('offence_offenders', (t) => {
      t.string('pinfl', 255);
    });
  await knex.raw('CREATE INDEX IF NOT EXISTS offence_offenders_pinfl_idx ON offence_offenders (pinfl) WHERE pinfl IS NOT NULL');
  await knex.raw('CREATE INDEX IF NOT EXISTS offence_offenders_passport_idx ON offence_offenders (passport) WHERE passport IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS offence_offenders_passport_idx');
  await knex.raw('DROP INDEX IF EXISTS offence_offenders_pinfl_idx');
  await knex.schema.alterTable('offence_offenders', (t) => {
    t.dropColumn('pinfl');
  });
}
