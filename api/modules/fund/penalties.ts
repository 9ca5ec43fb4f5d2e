import { rowHook, type Hook } from '../types.ts';
import { calculatePenya } from '../../domain/penya.ts';
import { fineOfRow } from './fine-rule.ts';
import { formatTiyin, parseTiyin } from '../../domain/money.ts';

/**
 * Penalties: a penya row's amount recomputed on every write (the debt, less the subject's confirmed
 * payments after the due date, accruing daily at its rate up to its "as of" date), and a protocol's
 * fine as its multiple of the base value in force on the protocol's date, within the article's interval.
 */
export const PENALTY_HOOKS: Record<string, Hook> = {
  'penya.calculate': rowHook('penya', async ({ repo, row: p }) => {
    const payments = await repo('payments')
      .scoped('read')
      .where({ 't.subject_id': p.subject_id, 't.status': 'confirmed' })
      .where('t.paid_on', '>', p.due_date)
      .where('t.paid_on', '<=', p.as_of)
      .select('t.paid_on', 't.amount');
    const result = calculatePenya({
      debt: parseTiyin(p.debt),
      dueDate: p.due_date,
      asOf: p.as_of,
      rate: p.daily_rate,
      payments: payments.map((x: { paid_on: string; amount: string }) => ({ date: x.paid_on, amount: parseTiyin(x.amount) })),
    });
    const paid = payments.reduce((s: bigint, x: { amount: string }) => s + parseTiyin(x.amount), 0n);
    return { overdue_days: result.days, paid: formatTiyin(paid), amount: formatTiyin(result.amount) };
  }),
  'protocols.fine': rowHook('subject-protocols', async ({ repo, row: p }) => ({
    fine_amount: await fineOfRow(repo, { fineId: p.fine_id, multiple: p.fine_multiple, date: p.protocol_date, dateField: 'protocol_date' }),
  })),
};
