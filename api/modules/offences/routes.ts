import type { RouteHandler, RouteContext } from '../types.ts';
import type { AppContext } from '../../http/middleware.ts';
import { ApiError } from '../../kernel/errors.ts';
import { parseListParams } from '../../engine/list-params.ts';
import { Workflow } from '../../engine/workflow.ts';
import { decreeNumberIn } from '../../domain/offence-payments.ts';
import { mapHandler } from './map.ts';

/** A workflow action of an offence under the interior ministry's own path (`mvd/...`), as the engine's generic route runs it. */
const mvdAction =
  (action: string): RouteHandler =>
  async (ctx, rc) => {
    const body = (ctx.request as { body?: unknown }).body;
    ctx.body = await new Workflow(rc.repo()).run(rc.id!, action, (body && typeof body === 'object' ? body : {}) as Record<string, unknown>);
  };

/** Fine payments of the bank statements not yet taken, in the caller's scope: at most this many a call. */
const TAKE_LIMIT = 1000;

/**
 * The interior ministry's calls (`mvd/...`: the offences sent to the ministry, the result, close,
 * return) and taking the fine payments of the bank statements into the offence payments.
 */
export const OFFENCE_HANDLERS: Record<string, RouteHandler> = {
  /** The offences sent to the ministry that the caller may see (a police user: their region's), as the list route answers. */
  'offences.mvdList': async (ctx: AppContext, rc: RouteContext) => {
    const e = rc.entity!;
    const params = parseListParams(e, { ...ctx.query, mvd_sent: 'true' });
    const { rows, total, exact } = await rc.repo().list(params);
    const end = params.offset + rows.length - 1;
    ctx.set('Content-Range', rows.length ? `${e.name} ${params.offset}-${end}/${total}` : `${e.name} */${total}`);
    ctx.set('X-Total-Count', String(total));
    ctx.set('X-Total-Exact', String(exact));
    ctx.body = rows;
  },
  'offences.mvdResult': mvdAction('mvd-result'),
  /** The offences map's viewport: clusters from the aggregates, single offences zoomed in (map.ts). */
  'offences.map': mapHandler,
  'offences.mvdClose': mvdAction('mvd-close'),
  'offences.mvdReturn': mvdAction('mvd-return'),

  /**
   * Takes the statements' payments with a fine income code that are not offence payments yet (those
   * the caller may read), each as an offence payment linked to its statement row, and attaches those
   * whose purpose names the decree of exactly one offence. Answers how many were taken and attached.
   */
  'offences.takeFinePayments': async (ctx, rc) => {
    const payments = rc.repo('payments');
    const rows = await payments
      .scoped('read')
      // fine income codes, and no offence payment made of it yet: the books and offence payments read by the system
      .whereIn('t.income_type_id', rc.trustedRepo('income-types').scoped('read', rc.knex).where({ 't.group': 'fine' }).select('t.id'))
      .whereNotIn('t.id', rc.trustedRepo('offences-payment').scoped('read', rc.knex).whereNotNull('t.payment_id').select('t.payment_id'))
      .orderBy('t.id')
      .limit(TAKE_LIMIT)
      .select('t.id', 't.paid_on', 't.number', 't.amount', 't.payer', 't.payer_inn', 't.purpose', 't.income_type_id');
    const own = rc.repo();
    let attached = 0;
    const taken: number[] = [];
    for (const p of rows) {
      const decree = decreeNumberIn(p.purpose);
      const created = await own.create(
        {
          payment_id: p.id,
          paid_on: p.paid_on,
          number: p.number,
          amount: p.amount,
          payer: p.payer,
          payer_inn: p.payer_inn,
          purpose: p.purpose,
          income_type_id: p.income_type_id,
          decree_number: decree,
        },
        { fields: ['payment_id'], action: 'take-from-statement' },
      );
      taken.push(created.id as number);
      if (!decree) continue;
      try {
        await new Workflow(own).run(created.id as number, 'attach-by-decree', {});
        attached++;
      } catch (err) {
        if (!(err instanceof ApiError) || err.kind !== 'validation') throw err;
      }
    }
    ctx.body = { taken: taken.length, attached, ids: taken };
  },
};
