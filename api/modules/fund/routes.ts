import type { RouteHandler } from '../types.ts';
import type { EntityMeta } from '../../meta/types.ts';
import { ApiError, validationError } from '../../http/errors.ts';
import { normalisePayload } from '../../engine/normalise.ts';
import { compileSchema, fieldSchema, toFieldErrors } from '../../engine/payload-schema.ts';
import { Workflow } from '../../engine/workflow.ts';
import { baseValueOn } from '../../domain/base-value.ts';
import { calculateCompensation } from '../../domain/compensation.ts';
import { parseTiyin, formatTiyin } from '../../domain/money.ts';
import { currentYearTashkent } from '../../meta/today.ts';
import { rawBody } from '../../http/raw-body.ts';
import { readPaymentSheet } from '../../fund/payment-sheet.ts';
import { signableReport } from './reports.ts';
import { canonicalContent } from '../../esign/canonical.ts';

const IMPORT_LIMIT = 10 * 1024 * 1024;

function calculatorValidator(reports: EntityMeta) {
  return compileSchema({
    type: 'object',
    required: ['report_date', 'ingredients'],
    properties: { report_date: fieldSchema({ ...reports.fields.report_date, max: undefined }), ingredients: { ...fieldSchema(reports.fields.ingredients), minItems: 1 } },
  });
}
/** The parts of a subject's balance as `fund_subject_balance` gives them. */
const BALANCE_PARTS = ['paid', 'accrued', 'fines', 'late_fines', 'penya', 'balance'] as const;
type BalancePart = typeof BALANCE_PARTS[number];
/** A numeric from the database ("0", "12.5", null) as money with its two decimals. */
const formatMoney = (v: unknown): string => {
  if (v === null || v === undefined) return '0.00';
  const [i, f = ''] = String(v).split('.');
  return `${i}.${(f + '00').slice(0, 2)}`;
};
let calculatorCheck: { e: EntityMeta; v: ReturnType<typeof calculatorValidator> } | undefined;

/** The fund's calls beyond CRUD (metadata/modules/fund.json). */
export const FUND_HANDLERS: Record<string, RouteHandler> = {
  /**
   * POST <stack>/:id/import with the .xlsx as the body: every row checked (errors by row number),
   * then all payments created through the engine in one transaction (validated as a single create,
   * one audit row each) and those whose payer's INN is a subject's attached to it by the `attach`
   * action (a flow row each) when the caller may attach. A stack is imported once.
   */
  'fund.importStatement': async (ctx, rc) => {
    const { knex, row: stack } = rc;
    const payments = rc.repo('payments');
    payments.assertCan('create');
    const { payments: rows, errors } = await readPaymentSheet(await rawBody(ctx, IMPORT_LIMIT, 'errors.import_file'));
    const codes = new Map<string, number>((await knex('income_types').select('id', 'code')).map((r: { id: number; code: string }) => [r.code, r.id]));
    rows.forEach((p) => { if (p.income_code && !codes.has(p.income_code)) errors[`rows.${p.row}.income_code`] = { key: 'validation.ref_not_found' }; });
    if (Object.keys(errors).length) throw new ApiError('validation', 'errors.import_rows', {}, errors);
    ctx.body = await knex.transaction(async (trx) => {
      const stacks = rc.repo().other(rc.entity!.name, { trx });
      const locked = await stacks.scoped('update', trx).where('t.id', stack!.id as number).forUpdate().first('t.id');
      if (!locked) throw new ApiError('notFound');
      if (await trx('payments').where({ stack_id: stack!.id }).first('id')) throw new ApiError('inUse', 'errors.stack_imported');
      const inTrx = payments.other('payments', { trx });
      let created: Record<string, unknown>[];
      try {
        created = await inTrx.createMany(rows.map(({ row: _row, income_code, ...p }) => ({ ...p, stack_id: stack!.id, income_type_id: income_code ? codes.get(income_code) : null })), { action: 'import' });
      } catch (err) {
        // the engine names rows by their place in the import; the sheet's own row numbers are what the user sees
        if (err instanceof ApiError && err.fieldErrors) {
          const renamed = Object.fromEntries(Object.entries(err.fieldErrors).map(([k, v]) => [k.replace(/^rows\.(\d+)\./, (_m, n) => `rows.${rows[Number(n) - 1]?.row ?? n}.`), v]));
          throw new ApiError('validation', 'errors.import_rows', {}, renamed);
        }
        throw err;
      }
      // payers whose INN is a subject's, in the caller's scope: attached, one move per subject
      const inns = [...new Set(rows.map((r) => r.payer_inn).filter((x): x is string => !!x && x.length === 9))];
      const bySubject = new Map<string, number>((await inTrx.other('subject').scoped('read', trx).whereIn('t.inn', inns).select('t.id', 't.inn')).map((s: { id: number; inn: string }) => [s.inn, s.id]));
      const groups = new Map<number, number[]>();
      created.forEach((p, i) => {
        const subject = rows[i].payer_inn ? bySubject.get(rows[i].payer_inn!) : undefined;
        if (subject) groups.set(subject, [...(groups.get(subject) ?? []), p.id as number]);
      });
      let attached = 0;
      if (inTrx.can('wf:attach')) {
        const workflow = new Workflow(inTrx);
        for (const [subject, ids] of groups) attached += (await workflow.runMany('attach', { ids, subject_id: subject, comment: 'import: payer INN' })).changed;
      }
      const total = rows.reduce((s, r) => s + parseTiyin(r.amount), 0n);
      await stacks.update(stack!.id as number, { rows_count: rows.length, total_amount: formatTiyin(total) }, undefined, { fields: ['rows_count', 'total_amount'], action: 'import', anyVersion: true });
      return { imported: rows.length, attached, total_amount: formatTiyin(total) };
    });
  },

  /** What a subject signs for a report: its canonical content, base64, and the same as JSON to show. */
  'fund.signable': async (ctx, { knex, row }) => {
    const document = await signableReport(knex, row!.id as number);
    ctx.body = { document, content: Buffer.from(canonicalContent(document)).toString('base64') };
  },

  /**
   * The ecological calculator: the report's compensation formula on ingredients typed in, at the
   * base value in force on a date, without saving anything. Validated like a report's ingredients.
   */
  'fund.calculator': async (ctx, { knex, model }) => {
    const reports = model.entities.get('subject-report-yearly')!;
    if (calculatorCheck?.e !== reports) calculatorCheck = { e: reports, v: calculatorValidator(reports) };
    const validate = calculatorCheck.v;
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const input = normalisePayload({ ...reports, fields: { report_date: reports.fields.report_date, ingredients: reports.fields.ingredients } }, body);
    if (!validate(input)) throw validationError(toFieldErrors(reports, validate.errors ?? []));
    const lines = (input.ingredients as Record<string, string | null>[]).map((l) => ({ pollutant: l.pollutant ?? '', mass: l.mass!, norm: l.norm!, coefficients: [l.coefficient1 ?? '1', l.coefficient2 ?? '1'] }));
    let base;
    try { base = baseValueOn(await knex('min_oklads').select('start_date', 'amount'), input.report_date as string); } catch {
      throw new ApiError('validation', 'errors.base_value_missing', {}, { report_date: { key: 'errors.base_value_missing' } });
    }
    const result = calculateCompensation(lines, base.amount);
    ctx.body = {
      report_date: input.report_date, base_value: formatTiyin(base.amount), base_value_since: base.start_date,
      lines: result.lines.map((l) => ({ pollutant: l.ingredient.pollutant, multiples: l.multiples, amount: formatTiyin(l.amount) })),
      total_multiples: result.totalMultiples, amount: formatTiyin(result.amount),
    };
  },

  /** A subject by its INN, within the caller's scope: "subject not found for the INN" otherwise. */
  'fund.subjectByInn': async (ctx, rc) => {
    const inn = rc.params.inn as string;
    const r = rc.repo();
    const row = await r.scoped('read').where('t.inn', inn).first('t.id');
    // the spec's "no such INN in the system" (whether another region's subject has it is not said)
    if (!row) throw new ApiError('notFound', 'errors.inn_not_in_system', { inn });
    ctx.body = await r.getOne(row.id);
  },

  /**
   * A subject's balance for a year, from the one definition of it, the SQL function
   * `fund_subject_balance` (docs/domain-rules.md §8) that the reports read too: the balance before
   * the year and at its end — confirmed payments less accrued compensation (accepted reports),
   * protocols' fines, late-report fines and penya — and the year's movements of each, with the
   * year's confirmed payments by income code. `years` are the years with any of them, newest
   * first; without `year` the balance is of the newest of them (the current year when there is
   * none), so that it opens on figures.
   */
  'fund.subjectBalance': async (ctx, { knex, row: subject }) => {
    const id = subject!.id as number;
    const years = (await knex.raw('SELECT DISTINCT CAST(extract(year FROM on_date) AS int) AS y FROM fund_subject_ledger(CAST(? AS bigint)) ORDER BY y DESC', [id])).rows
      .map((r: { y: number }) => Number(r.y));
    const raw = ctx.query.year;
    const year = raw === undefined ? (years[0] ?? currentYearTashkent()) : typeof raw === 'string' && /^\d{4}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(year) || year < 2000 || year > 2100) throw validationError({ year: { key: 'validation.wrong_value' } });
    const at = async (before: string): Promise<Record<BalancePart, bigint>> => {
      const row = (await knex.raw('SELECT paid, accrued, fines, late_fines, penya, balance FROM fund_subject_balance(CAST(? AS date), CAST(? AS bigint))', [before, id])).rows[0] ?? {};
      return Object.fromEntries(BALANCE_PARTS.map((k) => [k, parseTiyin(formatMoney(row[k]))])) as Record<BalancePart, bigint>;
    };
    const start = await at(`${year}-01-01`);
    const end = await at(`${year + 1}-01-01`);
    const inYear = (k: BalancePart) => formatTiyin(end[k] - start[k]);
    const byCode = await knex('payments as p').join('payment_splits as s', 's.parent_id', 'p.id')
      .where({ 'p.subject_id': id, 'p.status': 'confirmed' }).whereBetween('p.paid_on', [`${year}-01-01`, `${year}-12-31`])
      .groupBy('s.income_code').orderBy('s.income_code')
      .select('s.income_code', knex.raw('sum(p.amount)::text as amount'), knex.raw('sum(s.budget)::text as budget'), knex.raw('sum(s.fund)::text as fund'), knex.raw('sum(s.organisation)::text as organisation'));
    ctx.body = {
      subject_id: id, year, years,
      balance_start: formatTiyin(start.balance),
      paid_in_year: inYear('paid'),
      accrued_in_year: inYear('accrued'),
      fines_in_year: inYear('fines'),
      late_fines_in_year: inYear('late_fines'),
      penya_in_year: inYear('penya'),
      balance_end: formatTiyin(end.balance),
      by_income_code: byCode,
    };
  },
};
