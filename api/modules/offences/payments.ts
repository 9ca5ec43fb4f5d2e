import { rowHook, type Hook, type HookContext } from '../types.ts';
import type { OffencesRow } from '../../meta/rows.generated.ts';
import { ApiError, validationError } from '../../kernel/errors.ts';
import { formatTiyin, parseTiyin } from '../../domain/money.ts';
import { splitIncome } from '../../domain/income-split.ts';
import { decreeNumberIn } from '../../domain/offence-payments.ts';
import { offencePaid } from './offences.ts';
import { syncFactOfOffence } from './people-facts.ts';

/** The offence a payment counts for is told what its confirmed payments now add up to (through the engine: audited), and so is the people fact it came from. */
async function refreshOffence(ctx: HookContext, offenceId: unknown): Promise<void> {
  if (!offenceId) return;
  const offence = await ctx.repo('offences').scoped('read').where({ 't.id': offenceId }).first('t.id');
  if (!offence) return;
  // summed once the offence is locked: two payments of one offence confirmed at once both count
  await ctx
    .repo('offences')
    .update(offence.id, (locked) => offencePaid(ctx.repo, offence.id, (locked as unknown as OffencesRow).fine_amount), undefined, {
      fields: ['paid_amount', 'payment_status'],
      anyVersion: true,
      action: 'payments',
    });
  // the people fact the offence came from follows, and records its informant's incentive once paid
  await syncFactOfOffence(ctx, offence.id);
}

/**
 * Fine payments: only fine income codes; attached to an offence by the decree number (the row's own,
 * or the one its purpose names) or by hand; confirming splits the payment by its income type
 * (26 % budget / 74 % fund for fines, exact to the tiyin) and marks the offence paid or partly paid;
 * cancelling the confirmation undoes both.
 */
export const OFFENCE_PAYMENT_HOOKS: Record<string, Hook> = {
  'offencePayments.check': rowHook('offences-payment', async ({ repo, row }) => {
    const income = await repo('income-types').scoped('read').where({ 't.id': row.income_type_id }).first('t.group');
    if (income?.group !== 'fine') throw validationError({ income_type_id: { key: 'errors.not_fine_income' } });
  }),
  'offencePayments.attachByDecree': rowHook('offences-payment', async ({ repo, row, principal }) => {
    const number = row.decree_number || decreeNumberIn(row.purpose);
    if (!number) throw new ApiError('validation', 'errors.no_decree_number', {}, { decree_number: { key: 'errors.no_decree_number' } });
    const q = repo('offences').scoped('read').where({ 't.decree_number': number }).whereNot('t.status', 'draft');
    if (principal.region_id != null) q.where({ 't.region_id': principal.region_id });
    const offences = await q.orderBy('t.id').limit(2).select('t.id', 't.region_id');
    if (offences.length !== 1)
      throw new ApiError(
        'validation',
        'errors.decree_not_found',
        { number },
        { decree_number: { key: 'errors.decree_not_found', args: { number } } },
      );
    return { offence_id: offences[0].id, region_id: offences[0].region_id, decree_number: number };
  }),
  'offencePayments.confirm': async (ctx) => {
    const { row } = ctx;
    if (!row.offence_id) throw validationError({ offence_id: { key: 'validation.required' } });
    const income = await ctx
      .repo('income-types')
      .scoped('read')
      .where({ 't.id': row.income_type_id })
      .first('t.group', 't.budget_percent', 't.fund_percent', 't.organisation_percent');
    if (income?.group !== 'fine') throw validationError({ income_type_id: { key: 'errors.not_fine_income' } });
    const parts = splitIncome(parseTiyin(String(row.amount)), income);
    await refreshOffence(ctx, row.offence_id);
    return { budget_amount: formatTiyin(parts.budget), fund_amount: formatTiyin(parts.fund) };
  },
  'offencePayments.unconfirm': async (ctx) => {
    await refreshOffence(ctx, ctx.row.offence_id);
    return { budget_amount: null, fund_amount: null };
  },
};
