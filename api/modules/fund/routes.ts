import type { RouteHandler } from '../types.ts';
import type { EntityMeta } from '../../meta/types.ts';
import { ApiError, badParam, validationError } from '../../kernel/errors.ts';
import { normalisePayload } from '../../engine/normalise.ts';
import { compileSchema, fieldSchema, toFieldErrors } from '../../engine/payload-schema.ts';
import { baseValueOn } from '../../domain/base-value.ts';
import { calculateCompensation } from '../../domain/compensation.ts';
import { parseTiyin, formatTiyin } from '../../domain/money.ts';
import { currentYearTashkent } from '../../meta/today.ts';
import { rawBody } from '../../http/raw-body.ts';
import { importMaxBytes } from '../../engine/import.ts';
import { importStatement } from './statement-import.ts';
import { queueStatementImport } from './statement-job.ts';
import { jobView } from '../../jobs/queue.ts';
import { backgroundParam } from '../../jobs/export-kinds.ts';
import { signableReport } from './reports.ts';
import { canonicalContent } from '../../esign/canonical.ts';
import { esignSettings, trustSummary } from '../../esign/trust.ts';
import { subjectBalanceBefore, subjectLedgerYears } from '../../read-models/subject-balance.ts';

function calculatorValidator(reports: EntityMeta) {
  return compileSchema({
    type: 'object',
    required: ['report_date', 'ingredients'],
    properties: {
      report_date: fieldSchema({ ...reports.fields.report_date, max: undefined }),
      ingredients: { ...fieldSchema(reports.fields.ingredients), minItems: 1 },
    },
  });
}
/** The parts of a subject's balance as `fund_subject_balance` gives them. */
const BALANCE_PARTS = ['paid', 'accrued', 'fines', 'late_fines', 'penya', 'balance'] as const;
type BalancePart = (typeof BALANCE_PARTS)[number];
/** A numeric from the database ("0", "12.5", null) as money with its two decimals. */
const formatMoney = (v: unknown): string => {
  if (v === null || v === undefined) return '0.00';
  const [i, f = ''] = String(v).split('.');
  return `${i}.${(f + '00').slice(0, 2)}`;
};
let calculatorCheck: { e: EntityMeta; v: ReturnType<typeof calculatorValidator> } | undefined;

/** `?preview=`: 1/true or 0/false/none; anything else is a 400 naming it. */
function previewParam(v: unknown): boolean {
  if (v === undefined || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw badParam('preview');
}

/** `?expect=`: a preview's token (statement-import.ts previewToken), or none; anything else is a 400 naming it. */
function expectParam(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string' && /^[A-Za-z0-9_-]{32}$/.test(v)) return v;
  throw badParam('expect');
}

/** The fund's calls beyond CRUD (metadata/modules/fund.json). */
export const FUND_HANDLERS: Record<string, RouteHandler> = {
  /**
   * POST <stack>/:id/import with the .xlsx as the body (IMPORT_MAX_MB): the statement imported by
   * `importStatement` (statement-import.ts) — every row checked, the first hundred errors by row
   * number and their count answered, else all payments written in one transaction and payers that
   * are subjects attached. A stack is imported once.
   */
  'fund.importStatement': async (ctx, rc) => {
    rc.repo('payments').assertCan('create');
    const background = backgroundParam(ctx.query.background);
    // `?preview=1`: everything checked and written, then rolled back: what would be attached, and to whom
    const preview = previewParam(ctx.query.preview);
    // `?expect=<token>`: the write of a preview, refused (409) when it would not write what was previewed
    const expect = expectParam(ctx.query.expect);
    if (preview && expect) throw badParam('expect');
    const file = await rawBody(ctx, importMaxBytes(), 'errors.import_file');
    const stackId = rc.row!.id as number;
    if (background) {
      // `?background=1`: a job of the caller's with a progress (statement-job.ts); 202 and the job
      const job = await queueStatementImport(rc.knex, rc.model, {
        userId: rc.principal!.id,
        lang: rc.lang,
        stackId,
        number: String(rc.row!.number ?? rc.row!.id),
        file,
        preview,
        expect,
      });
      ctx.status = 202;
      ctx.set('Location', `/api/jobs/${job.id}`);
      ctx.body = jobView(rc.model, rc.lang, job);
      return;
    }
    const repo = (name: string) => rc.repo(name);
    ctx.body = preview
      ? await importStatement({ knex: rc.knex, repo, stackId, file, preview: true })
      : await importStatement({ knex: rc.knex, repo, stackId, file, expect });
  },

  /**
   * What a subject signs for a report: its canonical content, base64, and the same as JSON to show;
   * with whose certificates are accepted (the signing screen says so: docs/e-signature.md).
   */
  'fund.signable': async (ctx, rc) => {
    // the report was read in the caller's scope (rc.row): its subject and lines are read with it
    const document = await signableReport({ trx: rc.knex, repo: (e) => rc.trustedRepo(e) }, rc.row!.id as number);
    ctx.body = {
      document,
      content: Buffer.from(canonicalContent(document)).toString('base64'),
      trust: trustSummary(await esignSettings(rc.knex)),
    };
  },

  /**
   * The ecological calculator: the report's compensation formula on ingredients typed in, at the
   * base value in force on a date, without saving anything. Validated like a report's ingredients.
   */
  'fund.calculator': async (ctx, rc) => {
    const { model } = rc;
    const reports = model.entities.get('subject-report-yearly')!;
    if (calculatorCheck?.e !== reports) calculatorCheck = { e: reports, v: calculatorValidator(reports) };
    const validate = calculatorCheck.v;
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const input = normalisePayload(
      { ...reports, fields: { report_date: reports.fields.report_date, ingredients: reports.fields.ingredients } },
      body,
    );
    if (!validate(input)) throw validationError(toFieldErrors(reports, validate.errors ?? []));
    const lines = (input.ingredients as Record<string, string | null>[]).map((l) => ({
      pollutant: l.pollutant ?? '',
      mass: l.mass!,
      norm: l.norm!,
      coefficients: [l.coefficient1 ?? '1', l.coefficient2 ?? '1'],
    }));
    let base;
    try {
      base = baseValueOn(
        await rc.trustedRepo('min-oklads').scoped('read', rc.knex).select('t.start_date', 't.amount'),
        input.report_date as string,
      );
    } catch {
      throw new ApiError('validation', 'errors.base_value_missing', {}, { report_date: { key: 'errors.base_value_missing' } });
    }
    const result = calculateCompensation(lines, base.amount);
    ctx.body = {
      report_date: input.report_date,
      base_value: formatTiyin(base.amount),
      base_value_since: base.start_date,
      lines: result.lines.map((l) => ({ pollutant: l.ingredient.pollutant, multiples: l.multiples, amount: formatTiyin(l.amount) })),
      total_multiples: result.totalMultiples,
      amount: formatTiyin(result.amount),
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
  'fund.subjectBalance': async (ctx, rc) => {
    const { knex, row: subject } = rc;
    const id = subject!.id as number;
    const years = await subjectLedgerYears(knex, id);
    const raw = ctx.query.year;
    const year =
      raw === undefined ? (years[0] ?? currentYearTashkent()) : typeof raw === 'string' && /^\d{4}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(year) || year < 2000 || year > 2100) throw validationError({ year: { key: 'validation.wrong_value' } });
    const at = async (before: string): Promise<Record<BalancePart, bigint>> => {
      const row = await subjectBalanceBefore(knex, before, id);
      return Object.fromEntries(BALANCE_PARTS.map((k) => [k, parseTiyin(formatMoney(row[k]))])) as Record<BalancePart, bigint>;
    };
    const start = await at(`${year}-01-01`);
    const end = await at(`${year + 1}-01-01`);
    const inYear = (k: BalancePart) => formatTiyin(end[k] - start[k]);
    // the subject's confirmed payments and their splits (child rows), read with the subject the caller may see
    const byCode = await rc
      .trustedRepo('payments')
      .scopedChildren('read', 'splits', 's', knex)
      .where({ 't.subject_id': id, 't.status': 'confirmed' })
      .whereBetween('t.paid_on', [`${year}-01-01`, `${year}-12-31`])
      .groupBy('s.income_code')
      .orderBy('s.income_code')
      .select(
        's.income_code',
        knex.raw('sum(t.amount)::text as amount'),
        knex.raw('sum(s.budget)::text as budget'),
        knex.raw('sum(s.fund)::text as fund'),
        knex.raw('sum(s.organisation)::text as organisation'),
      );
    ctx.body = {
      subject_id: id,
      year,
      years,
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
