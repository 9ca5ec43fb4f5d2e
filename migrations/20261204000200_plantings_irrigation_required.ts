import type { Knex } from 'knex';

/**
 * A planting's `irrigation` is required (metadata: a boolean that is true or false, never empty):
 * the aggregates' triggers copy it into `planting_facts` and `planting_year_facts`, whose column is
 * NOT NULL, so a null was refused there with no field named. The table now says it too. No row
 * can hold a null: those triggers refused every insert and update carrying one since the facts'
 * migration, which built them from every row. On the partitioned table the constraint reaches each
 * year's partition.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE plantings ALTER COLUMN irrigation SET NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE plantings ALTER COLUMN irrigation DROP NOT NULL');
}
