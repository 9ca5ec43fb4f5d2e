import type { Knex } from 'knex';

/**
 * A branch has one plan a period: a second plan for the same branch, year and period (a quarter
 * or the year) was taken, and the reports that sum plans counted both (issue 32). The index is
 * named `<table>_<field>_unique` so a duplicate is answered as a 400 beside `period` ("such a value
 * already exists", api/engine/db-errors.ts). Rows that already repeat a period stop the migration
 * with their ids: which of two plans is right is the fund's to say, not a migration's.
 */
export async function up(knex: Knex): Promise<void> {
  const dup = await knex.raw(`SELECT branch_id, year, period, array_agg(id ORDER BY id) AS ids FROM branch_plans
    GROUP BY branch_id, year, period HAVING count(*) > 1 LIMIT 20`);
  const rows = (dup.rows ?? dup) as { branch_id: number; year: number; period: string; ids: number[] }[];
  if (rows.length) {
    throw new Error(
      `branch plans repeat a period; keep one of each and migrate again: ${rows.map((r) => `branch ${r.branch_id} ${r.year} ${r.period}: ids ${r.ids.join(', ')}`).join('; ')}`,
    );
  }
  await knex.raw('CREATE UNIQUE INDEX branch_plans_period_unique ON branch_plans (branch_id, year, period)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS branch_plans_period_unique');
}
