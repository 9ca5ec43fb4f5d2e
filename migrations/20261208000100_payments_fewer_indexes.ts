import type { Knex } from 'knex';

/**
 * `payments` keeps the indexes its queries use, and no others (docs/decisions/0087): every index of
 * the table is written by every payment an import inserts — the INSERT … SELECT floor of a
 * 100 000-row statement is the table's own indexes (docs/performance.md, bench/import) — so an
 * index no query reads is paid for by every import and read by nothing.
 *
 * Which query uses which index was measured by bench/import/index-uses.ts (every list shape of the
 * generic API as the administrator, a region and a subject, the fund's reports, the dashboard, the
 * balance, the workflow's actions, the import's own look-ups, the deletions whose keys look
 * payments up) on bench/fund-reports' database of a million payments; what each index costs an
 * import by bench/import/index-costs.ts. Dropped (made again by `down`):
 *
 * - `(region_id, id)` and `(subject_id, id)`: prefixes of `(region_id, paid_on, id)` and
 *   `(subject_id, paid_on, id)`, which answer every query that used them (a region's or a
 *   subject's list in any order and filter, its count, penya's and the balance's look-ups);
 * - `(payment_type, id)`: two values, a third and two thirds of the rows — the one plan that read
 *   it (the administrator's list of cash payments) reads the day's index instead, as fast;
 * - `(income_type_id, id)`: no plan read it (a filter by income type reads the day's or the
 *   region's index; the foreign key's look-up when an income type is deleted scans, as it did).
 *
 * Kept: the primary key; `(paid_on, id) INCLUDE (…)` (the default order, the reports by day);
 * `(region_id, paid_on, id)` and `(subject_id, paid_on, id)` (a scoped caller's lists, reports,
 * dashboard, balance); `(stack_id, id)` (a stack's payments, the import's guard and attach step, a
 * stack's deletion); `(status, id)` (the queues of payments to attach and confirm, the dashboard's
 * counts: without it a region's dashboard took 2.1 s instead of 0.3 s); `(amount, id)` and
 * `(number, id)` (the list sorted or ranged by them); the trigram search (the one index serving
 * the search over number, payer, INN and purpose).
 *
 * On the partitioned table the index goes from every year's partition with its parent.
 */
const DROPPED: [name: string, columns: string][] = [
  ['payments_region_id_idx', 'region_id, id'],
  ['payments_subject_id_idx', 'subject_id, id'],
  ['payments_payment_type_idx', 'payment_type, id'],
  ['payments_income_type_id_idx', 'income_type_id, id'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name] of DROPPED) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, columns] of DROPPED) await knex.raw(`CREATE INDEX IF NOT EXISTS ${name} ON payments (${columns})`);
}
