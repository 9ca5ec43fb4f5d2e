import { rowHook, type Hook, type HookContext } from '../types.ts';
import { validationError, type FieldError } from '../../kernel/errors.ts';
import { fineOfRow } from '../fund/fine-rule.ts';
import { formatTiyin, parseTiyin } from '../../domain/money.ts';
import { offencePaymentStatus } from '../../domain/offence-payments.ts';

/** What an offence's confirmed payments add up to, and the state that gives against its fine. */
export async function offencePaid(
  repo: HookContext['repo'],
  offenceId: number,
  fineAmount: string | null,
): Promise<{ paid_amount: string; payment_status: string }> {
  const { s } =
    (await repo('offences-payment')
      .scoped('read')
      .where({ 't.offence_id': offenceId, 't.status': 'confirmed' })
      .sum('t.amount as s')
      .first()) ?? {};
  const paid = parseTiyin(String(s ?? '0'));
  const fine = fineAmount === null ? null : parseTiyin(fineAmount);
  return { paid_amount: formatTiyin(paid), payment_status: offencePaymentStatus(fine, paid) };
}

/**
 * Every write of an offence: its fine by the one rule protocols use (the article's interval, the
 * base value on the offence date), its offenders checked — a person by name, an organisation by its
 * INN, found through the subjects' INN search and linked with its name — and what its confirmed
 * payments say (paid, partly paid, unpaid).
 */
export const OFFENCE_HOOKS: Record<string, Hook> = {
  'offences.afterWrite': rowHook('offences', async ({ repo, row }) => {
    const fine_amount = await fineOfRow(repo, {
      fineId: row.fine_id,
      multiple: row.fine_multiple,
      date: row.offence_date,
      dateField: 'offence_date',
    });
    const errors: Record<string, FieldError> = {};
    const offenders = row.offenders ?? [];
    const patched: Record<string, unknown>[] = [];
    for (const [i, o] of offenders.entries()) {
      if (o.offender_kind === 'organisation') {
        if (!o.inn) {
          errors[`offenders.${i}.inn`] = { key: 'validation.required' };
          continue;
        }
        const subject = await repo('subject').scoped('read').where({ 't.inn': o.inn }).first('t.id', 't.name');
        if (!subject) {
          errors[`offenders.${i}.inn`] = { key: 'errors.offender_inn_not_found' };
          continue;
        }
        patched.push({ id: o.id, subject_id: subject.id, full_name: o.full_name || subject.name });
      } else {
        if (!o.full_name) errors[`offenders.${i}.full_name`] = { key: 'validation.required' };
        patched.push({ id: o.id, subject_id: null });
      }
    }
    if (Object.keys(errors).length) throw validationError(errors);
    return { fine_amount, ...(patched.length ? { offenders: patched } : {}), ...(await offencePaid(repo, row.id, fine_amount)) };
  }),
};
