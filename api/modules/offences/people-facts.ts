import type { Hook, HookContext, HookResult } from '../types.ts';
import { ApiError, validationError } from '../../kernel/errors.ts';
import { actorOf } from '../../auth/ability.ts';
import { todayTashkent } from '../../meta/today.ts';
import { formatTiyin, parseTiyin } from '../../domain/money.ts';
import { incentiveAmount, incentiveRuleOr } from '../../domain/fact-incentive.ts';
import { fundSetting } from '../../auth/config.ts';
import { holdsActions } from '../../read-models/rights.ts';

/**
 * People facts (docs/offences.md, "People facts"): evidence the public sends — from the public
 * site's form, a population user's back-office form, or typed in by staff — reviewed by the region's
 * staff, assigned to an inspector, rejected with a reason or turned into a draft offence (linked
 * both ways); the informant's incentive is recorded once the linked offence's fine is paid.
 */

interface Incentive {
  id: number;
  fine_amount: string | null;
  rule: string | null;
  amount: string | null;
  recorded_at: string | null;
  paid: boolean;
  paid_on: string | null;
}

/** The row of the `people-fact-statuses` book that names a workflow state (its code is the state's, upper case). */
async function statusIdOf(ctx: Pick<HookContext, 'repo'>, state: string): Promise<number | null> {
  return (await ctx.repo('people-fact-statuses').scoped('read').where({ 't.code': state.toUpperCase() }).first('t.id'))?.id ?? null;
}

/** A fact's number: FX-<year received, Tashkent>-<id, six digits>. */
export const factNumber = (id: number, receivedAt: Date | string = new Date()): string =>
  `FX-${todayTashkent(new Date(receivedAt)).slice(0, 4)}-${String(id).padStart(6, '0')}`;

/**
 * What the fact's incentive is now: recorded once (amount by the setting `fund.fact_incentive`
 * on the fine, exact to the tiyin, with the rule and the basis it was reckoned on) when the linked
 * offence is paid; withdrawn if the offence stops being paid before the incentive was paid out; a
 * paid-out incentive stays as it is. Nothing when nothing changes.
 */
async function incentiveOf(ctx: HookContext): Promise<HookResult> {
  const { trx, row } = ctx;
  if (!row.offence_id) return {};
  const current = ((row.incentives as Incentive[] | undefined) ?? [])[0];
  const paid = row.payment_status === 'paid';
  if (paid && !current) {
    const offence = await ctx.repo('offences').scoped('read').where({ 't.id': row.offence_id }).first('t.fine_amount', 't.paid_amount');
    const basis = parseTiyin(String(offence?.fine_amount ?? offence?.paid_amount ?? '0'));
    const rule = incentiveRuleOr(await fundSetting(trx, 'fund.fact_incentive'));
    return {
      incentives: [
        {
          fine_amount: formatTiyin(basis),
          rule: rule.text,
          amount: formatTiyin(incentiveAmount(rule, basis)),
          recorded_at: new Date().toISOString(),
          paid: false,
          paid_on: null,
        },
      ],
    };
  }
  if (!paid && current && !current.paid) return { incentives: [] };
  return {};
}

/**
 * Tells the fact an offence came from what the offence's confirmed payments now say (paid, partly
 * paid, unpaid): written through the engine (audited as `payments`), and the fact's own hook
 * records or withdraws the incentive. Called after the offence itself took the new state.
 */
export async function syncFactOfOffence(ctx: HookContext, offenceId: unknown): Promise<void> {
  const offence = await ctx.repo('offences').scoped('read').where({ 't.id': offenceId }).first('t.people_fact_id', 't.payment_status');
  if (!offence?.people_fact_id) return;
  const fact = await ctx.repo('people-facts').scoped('read').where({ 't.id': offence.people_fact_id }).first('t.id', 't.payment_status');
  if (!fact || fact.payment_status === offence.payment_status) return;
  await ctx.repo('people-facts').update(fact.id, { payment_status: offence.payment_status }, undefined, {
    fields: ['payment_status'],
    anyVersion: true,
    action: 'payments',
  });
}

/** The offence-files type of a file: PHOTO for images, VIDEO for videos, else the book's first. */
async function offenceFiles(ctx: HookContext, files: number[]): Promise<Record<string, unknown>[]> {
  if (!files.length) return [];
  const types = await ctx.repo('offence-files-type').scoped('read').where({ 't.is_active': true }).orderBy('t.id').select('t.id', 't.code');
  if (!types.length) return [];
  const byCode = (code: string) => types.find((t: { code: string }) => t.code === code)?.id ?? types[0].id;
  const mimes = new Map<number, string>(
    (await ctx.repo('resource-view').scoped('read').whereIn('t.id', files).select('t.id', 't.mime')).map(
      (r: { id: number; mime: string }) => [Number(r.id), r.mime],
    ),
  );
  return files
    .filter((id) => mimes.has(Number(id)))
    .map((id) => ({
      type_id: mimes.get(Number(id))!.startsWith('video/') ? byCode('VIDEO') : byCode('PHOTO'),
      file: id,
      note: null,
    }));
}

export const PEOPLE_FACT_HOOKS: Record<string, Hook> = {
  /**
   * Every create and update (its district and mahalla are kept to its region by `within`): a new
   * fact gets its number, the time it was received, its source (the public site's, a population user's own, or
   * staff's) and its status row; and the incentive follows the linked offence's payments.
   */
  'peopleFacts.afterWrite': async (ctx) => {
    const { row, before, principal } = ctx;
    const out: HookResult = {};
    if (!before) {
      // a population user's fact is theirs by their row set (another informant is the engine's 403)
      const actor = actorOf(principal);
      out.fact_source = actor === null ? 'public' : Number(row.informant_user_id ?? 0) === actor ? 'population' : 'staff';
      out.received_at = row.created_at;
      out.number = factNumber(row.id as number, row.created_at as string);
      out.status_id = await statusIdOf(ctx, String(row.status));
    }
    return { ...out, ...(await incentiveOf(ctx)) };
  },

  /** A move of the fact (take, reject): its status row follows the state. */
  'peopleFacts.move': async (ctx) => ({ status_id: await statusIdOf(ctx, ctx.to) }),

  /**
   * Assigning the fact: the chosen user must be an active staff user of the fact's region (or of
   * every region) who may read facts and turn them into offences — else a 400 beside the inspector.
   */
  'peopleFacts.assign': async (ctx) => {
    const { trx, row, entity } = ctx;
    const user = await ctx
      .repo('users')
      .scoped('read')
      .where({ 't.id': row.inspector_id })
      .first('t.id', 't.kind', 't.status', 't.region_id');
    const toOffence = entity.workflow!.actions['to-offence'].action;
    const ok =
      user &&
      user.kind === 'staff' &&
      user.status === 'active' &&
      (user.region_id == null || Number(user.region_id) === Number(row.region_id)) &&
      (await holdsActions(trx, Number(user.id), [entity.access.read, toOffence]));
    if (!ok) throw validationError({ inspector_id: { key: 'errors.fact_not_inspector' } });
    return { status_id: await statusIdOf(ctx, ctx.to) };
  },

  /**
   * Turning the fact into an offence: a draft offence through the engine, in the same transaction,
   * prefilled from the fact (region, district, mahalla, address, map location, description, its
   * photos and videos as the offence's typed files), dated the day the fact was received unless
   * told otherwise, fined by the chosen article at its lowest multiple unless told otherwise, its
   * inspector the assigned one or the caller, and linked both ways.
   */
  'peopleFacts.toOffence': async (ctx) => {
    const { row, params = {}, principal } = ctx;
    const article = await ctx.repo('fine').scoped('read').where({ 't.id': params.fine_id }).first('t.min_multiple');
    const received = todayTashkent(new Date(row.received_at as string));
    const offence = await ctx.repo('offences').create(
      {
        number: row.number,
        offence_date: params.offence_date ?? received,
        opened_on: todayTashkent(),
        region_id: row.region_id,
        area_id: row.area_id,
        mahalla_id: row.mahalla_id,
        address: row.address,
        location: row.location,
        description: row.description,
        offence_type_id: params.offence_type_id ?? null,
        fine_id: params.fine_id,
        fine_multiple: params.fine_multiple ?? article?.min_multiple,
        inspector_id: row.inspector_id ?? actorOf(principal),
        people_fact_id: row.id,
        files: await offenceFiles(ctx, ((row.files as number[] | null) ?? []).map(Number)),
      },
      { fields: ['people_fact_id'], action: 'people-fact' },
    );
    return { status_id: await statusIdOf(ctx, ctx.to), offence_id: offence.id, payment_status: offence.payment_status ?? 'unpaid' };
  },

  /** The incentive paid out to the informant (the fund's staff): only a recorded one, once. */
  'peopleFacts.payIncentive': async ({ row }) => {
    const current = ((row.incentives as Incentive[] | undefined) ?? [])[0];
    if (!current) throw new ApiError('workflow', 'errors.fact_no_incentive', { id: row.number });
    if (current.paid) throw new ApiError('workflow', 'errors.fact_incentive_paid', { id: row.number });
    return { incentives: [{ id: current.id, paid: true, paid_on: todayTashkent() }] };
  },
};
