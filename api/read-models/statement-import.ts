import type { Knex } from 'knex';

/**
 * The system's reads a bank statement's import makes beside the payments' write path
 * (api/modules/fund/statement-import.ts): configuration and a guard, the same for every caller and
 * naming no row the caller could not reach by the stack they already hold for update.
 */

/** The income types' ids by their code: how a statement's income code becomes the payment's type. */
export async function incomeTypeIdsByCode(db: Knex | Knex.Transaction): Promise<Map<string, number>> {
  const rows: { id: number; code: string }[] = await db('income_types').select('id', 'code');
  return new Map(rows.map((r) => [r.code, Number(r.id)]));
}

/**
 * Whether a stack already holds payments, whoever's scope they lie in: a stack is imported once
 * (the caller has locked the stack's row for update in the same transaction).
 */
export async function stackHasPayments(trx: Knex.Transaction, stackId: number): Promise<boolean> {
  return !!(await trx('payments').where({ stack_id: stackId }).first('id'));
}
