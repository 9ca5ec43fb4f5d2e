import type { Hook } from '../types.ts';
import { validationError } from '../../kernel/errors.ts';
import { parseTiyin, formatTiyin } from '../../domain/money.ts';
import { splitIncome } from '../../domain/income-split.ts';

/**
 * Confirming a payment splits it between budget, fund and organisation by its income type's
 * percentages (exact tiyin that add up to the payment); cancelling the confirmation removes the split.
 */
export const PAYMENT_HOOKS: Record<string, Hook> = {
  'payments.split': async ({ repo, row }) => {
    if (!row.income_type_id) throw validationError({ income_type_id: { key: 'validation.required' } });
    const income = await repo('income-types')
      .scoped('read')
      .where({ 't.id': row.income_type_id })
      .first('t.code', 't.budget_percent', 't.fund_percent', 't.organisation_percent');
    const parts = splitIncome(parseTiyin(String(row.amount)), income);
    return {
      splits: [
        {
          income_code: income.code,
          budget: formatTiyin(parts.budget),
          fund: formatTiyin(parts.fund),
          organisation: formatTiyin(parts.organisation),
        },
      ],
    };
  },
  'payments.unsplit': async () => ({ splits: [] }),
};
