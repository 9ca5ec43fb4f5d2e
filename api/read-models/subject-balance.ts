import type { Knex } from 'knex';

/**
 * A subject's balance from its one definition, the SQL functions `fund_subject_ledger` and
 * `fund_subject_balance` (docs/domain-rules.md §8) that the fund's reports read too. The caller has
 * read the subject's own row through the read path: the figures are of that subject alone.
 */

/** The years with any movement of the subject's money, newest first. */
export async function subjectLedgerYears(db: Knex | Knex.Transaction, subjectId: number): Promise<number[]> {
  const { rows } = await db.raw(
    'SELECT DISTINCT CAST(extract(year FROM on_date) AS int) AS y FROM fund_subject_ledger(CAST(? AS bigint)) ORDER BY y DESC',
    [subjectId],
  );
  return rows.map((r: { y: number }) => Number(r.y));
}

/** The subject's balance parts before a day (numeric strings of so'm, as PostgreSQL gives them; absent when none). */
export async function subjectBalanceBefore(
  db: Knex | Knex.Transaction,
  before: string,
  subjectId: number,
): Promise<Record<'paid' | 'accrued' | 'fines' | 'late_fines' | 'penya' | 'balance', unknown>> {
  const { rows } = await db.raw(
    'SELECT paid, accrued, fines, late_fines, penya, balance FROM fund_subject_balance(CAST(? AS date), CAST(? AS bigint))',
    [before, subjectId],
  );
  return rows[0] ?? {};
}
