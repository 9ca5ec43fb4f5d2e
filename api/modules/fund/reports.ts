import type { Knex } from 'knex';
import type { Hook, HookContext } from '../types.ts';
import { ApiError, validationError } from '../../kernel/errors.ts';
import { baseValueOn } from '../../domain/base-value.ts';
import { calculateCompensation } from '../../domain/compensation.ts';
import { formatTiyin } from '../../domain/money.ts';
import { canonicalContent } from '../../esign/canonical.ts';
import { acceptSignature } from '../../esign/accept.ts';
import { isESignError } from '../../esign/errors.ts';
import { esignSettings } from '../../esign/trust.ts';
import { lateReportFine } from '../../domain/fines.ts';
import { periodFromCode, reportLateness, type PeriodCode } from '../../domain/periods.ts';
import { fundSetting } from '../../auth/config.ts';
import { todayTashkent } from '../../meta/today.ts';

/** A report's ingredient lines (its `ingredients` child rows), in their order. */
const ingredientsOf = (repo: ReportReads['repo'], reportId: number) =>
  repo('subject-report-yearly').scopedChildren('read', 'ingredients').where({ 't.id': reportId }).orderBy(['c.ordering', 'c.id']);

/**
 * What the report's rules read through: a hook's context (`repo`: the write's trusted read of the
 * report with its ingredient rows, its subject and the base values; `trx`, its transaction, for the
 * fund's settings); a route's trusted repositories; the demo seeds' plain reads.
 */
export interface ReportReads {
  trx: Knex | Knex.Transaction;
  repo: (entity: string) => {
    scoped(op: 'read'): Knex.QueryBuilder;
    /** the report's own child rows (`ingredients`), read with it */
    scopedChildren(op: 'read', field: string, alias?: string): Knex.QueryBuilder;
  };
}

/** A report's computed values: each ingredient line's amount and the total, at the base value in force on its date. */
export interface ReportComputation {
  base_value: string;
  amount: string;
  ingredients: { id: number; amount: string }[];
}

/**
 * Recomputes a report's compensation from its ingredients at the base value in force on the
 * report's date (docs/domain-rules.md): each line's amount and the total, rounded once.
 */
export async function computeReport({ repo }: ReportReads, reportId: number): Promise<ReportComputation> {
  const report = await repo('subject-report-yearly').scoped('read').where({ 't.id': reportId }).first('t.id', 't.report_date');
  const lines: { id: number; mass: string; norm: string; coefficient1: string | null; coefficient2: string | null }[] = await ingredientsOf(
    repo,
    reportId,
  ).select('c.id', 'c.mass', 'c.norm', 'c.coefficient1', 'c.coefficient2');
  const rows = await repo('min-oklads').scoped('read').select('t.start_date', 't.amount');
  let base;
  try {
    base = baseValueOn(rows, report.report_date);
  } catch {
    throw new ApiError('validation', 'errors.base_value_missing', {}, { report_date: { key: 'errors.base_value_missing' } });
  }
  const result = calculateCompensation(
    lines.map((l) => ({
      id: l.id,
      mass: l.mass,
      norm: l.norm,
      coefficients: [l.coefficient1 ?? '1', l.coefficient2 ?? '1'],
    })),
    base.amount,
  );
  return {
    base_value: formatTiyin(base.amount),
    amount: formatTiyin(result.amount),
    ingredients: result.lines.map((line) => ({ id: line.ingredient.id as number, amount: formatTiyin(line.amount) })),
  };
}

/**
 * The report as it is signed: what the subject declared, in a fixed form (docs/e-signature.md) —
 * with the amounts of a computation about to be written, when one is given.
 */
export async function signableReport(
  { repo }: ReportReads,
  reportId: number,
  computed?: ReportComputation,
): Promise<Record<string, unknown>> {
  const r = await repo('subject-report-yearly')
    .scoped('read')
    .where({ 't.id': reportId })
    .first('t.id', 't.subject_id', 't.year', 't.period', 't.month', 't.report_date', 't.amount', 't.base_value');
  const subject = await repo('subject').scoped('read').where({ 't.id': r.subject_id }).first('t.inn');
  const lines = await ingredientsOf(repo, reportId).select(
    'c.id',
    'c.pollutant',
    'c.mass',
    'c.norm',
    'c.coefficient1',
    'c.coefficient2',
    'c.amount',
  );
  const amounts = new Map(computed?.ingredients.map((l) => [l.id, l.amount]));
  const ingredients = lines.map(({ id, ...l }: Record<string, unknown>) => ({ ...l, amount: amounts.get(id as number) ?? l.amount }));
  return {
    report_id: r.id,
    subject_inn: subject?.inn,
    year: r.year,
    period: r.period,
    month: r.month,
    report_date: r.report_date,
    base_value: computed?.base_value ?? r.base_value,
    amount: computed?.amount ?? r.amount,
    ingredients,
  };
}

/**
 * What a sending records about lateness, once: the report's first sending day (`sent_on`), and —
 * when that day is past the period's deadline (its last day + the setting
 * `fund.report_deadline_days`, 15 by default) — the days late and the late-report fine, the setting
 * `fund.late_report_fine_multiple` (4 by default) times the base value in force on that day
 * (docs/domain-rules.md §6). A report sent again (after rejection, or returned to new) keeps what
 * its first sending recorded: the fine is applied once per report, as part of that sending's one
 * audit row, and never on a report that is not sent.
 */
export async function lateness(
  { trx, repo }: ReportReads,
  row: Record<string, unknown>,
  today = todayTashkent(),
): Promise<Record<string, unknown>> {
  if (row.sent_on) return {};
  const period = periodFromCode(row.period as PeriodCode, Number(row.year), row.month == null ? undefined : Number(row.month));
  const daysAfterEnd = Number(await fundSetting(trx as Knex, 'fund.report_deadline_days'));
  const { late, daysLate } = reportLateness(period, { submittedOn: today, daysAfterEnd });
  if (!late) return { sent_on: today, late_days: 0 };
  const multiple = await fundSetting(trx as Knex, 'fund.late_report_fine_multiple');
  let fine;
  try {
    fine = lateReportFine(await repo('min-oklads').scoped('read').select('t.start_date', 't.amount'), today, { multiple });
  } catch (err) {
    if (err instanceof RangeError)
      throw new ApiError('validation', 'errors.base_value_missing', {}, { report_date: { key: 'errors.base_value_missing' } });
    throw err;
  }
  return { sent_on: today, late_days: daysLate, late_fine: formatTiyin(fine.amount) };
}

export const REPORT_HOOKS: Record<string, Hook> = {
  'reports.recalculate': async (ctx: HookContext) => ({ ...(await computeReport(ctx, ctx.row.id as number)) }),
  /**
   * Sending: the amount is recomputed, then the subject's detached signature over the report's
   * canonical content is verified against the trusted CAs and the subject's INN, checked for
   * revocation and time-stamped; the signature and its token are kept. A report is never
   * sent unsigned: "save without signature" is its own action (`save-unsigned`), which keeps the
   * report where it is (docs/report-workflow.md).
   */
  'reports.send': async (ctx) => {
    const { trx, row, params, repo } = ctx;
    const computed = await computeReport(ctx, row.id as number);
    const signature = typeof params?.signature === 'string' ? params.signature.trim() : '';
    if (!signature) throw validationError({ signature: { key: 'esign.required' } });
    const subject = await repo('subject').scoped('read').where({ 't.id': row.subject_id }).first('t.inn');
    // what the subject signed: the report with the amounts it is sent with
    const content = canonicalContent(await signableReport(ctx, row.id as number, computed));
    const settings = await esignSettings(trx);
    if (!settings.trustedCAs.length && !settings.eimzoUrl) throw validationError({ signature: { key: 'esign.untrusted_issuer' } });
    try {
      // verified (locally, or by the E-IMZO server for O'zDSt keys) and time-stamped: the signing
      // time is the RFC 3161 token's, never the signer's clock (docs/e-signature.md)
      const accepted = await acceptSignature({ content, signature, expected: { inn: subject.inn }, settings });
      const s = accepted.signer;
      return {
        ...computed,
        ...(await lateness(ctx, row)),
        signed: true,
        signer: [s.commonName, s.organisation, s.serialNumber].filter(Boolean).join(' · ').slice(0, 255),
        signed_at: accepted.signedAt.toISOString(),
        signature: accepted.signature,
        signature_timestamp: accepted.timestampToken,
        signature_verified_by: accepted.verifiedBy,
      };
    } catch (err) {
      if (isESignError(err)) throw new ApiError('validation', err.messageKey, {}, { signature: { key: err.messageKey } });
      throw err;
    }
  },
};
