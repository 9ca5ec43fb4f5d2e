import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import type { MetaModel } from '../meta/types.ts';
import type { AppState, AppContext } from './middleware.ts';
import { ApiError, forbidden, notFound, validationError } from './errors.ts';
import type { EntityMeta } from '../meta/types.ts';
import { normalisePayload } from '../engine/normalise.ts';
import { compileSchema, fieldSchema, toFieldErrors } from '../engine/payload-schema.ts';
import { baseValueOn } from '../domain/base-value.ts';
import { calculateCompensation } from '../domain/compensation.ts';
import { Repository } from '../engine/repository.ts';
import { rawBody } from './raw-body.ts';
import { readPaymentSheet } from '../fund/payment-sheet.ts';
import { FORMATS } from '../meta/formats.ts';
import { parseTiyin, formatTiyin } from '../domain/money.ts';
import { currentYearTashkent } from '../meta/today.ts';
import { signableReport } from '../hooks/reports.ts';
import { canonicalContent } from '../esign/canonical.ts';

const IMPORT_LIMIT = 10 * 1024 * 1024;

/**
 * The fund's calls beyond CRUD: a bank statement imported into a payment stack, a subject found by
 * INN, and a subject's balance at the start and end of a year.
 */
export function fundRoutes(model: MetaModel, knex: Knex, guard: Middleware<AppState>): Router<AppState> {
  const router = new Router<AppState>();
  const stacks = model.entities.get('stack-payments')!;
  const payments = model.entities.get('payments')!;
  const subjects = model.entities.get('subject')!;
  const repo = (ctx: AppContext, e = stacks) => new Repository({ knex, model, principal: ctx.state.principal!, lang: ctx.state.lang }, e);

  /**
   * POST <stack>/:id/import with the .xlsx as the body: every row checked first (errors by row
   * number), then all payments written in one transaction; payers whose INN is a subject's are
   * attached to it. A stack is imported once.
   */
  router.post(`${stacks.path}/:id/import`, guard, async (ctx) => {
    const stackRepo = repo(ctx);
    const paymentRepo = repo(ctx, payments);
    stackRepo.assertCan('update');
    paymentRepo.assertCan('create');
    const id = Number(ctx.params.id);
    await stackRepo.getOne(id, 'update');
    const { payments: rows, errors } = await readPaymentSheet(await rawBody(ctx, IMPORT_LIMIT, 'errors.import_file'));
    const codes = new Map<string, number>((await knex('income_types').select('id', 'code')).map((r: { id: number; code: string }) => [r.code, r.id]));
    rows.forEach((p) => { if (p.income_code && !codes.has(p.income_code)) errors[`rows.${p.row}.income_code`] = { key: 'validation.ref_not_found' }; });
    if (Object.keys(errors).length) throw new ApiError('validation', 'errors.import_rows', {}, errors);
    const result = await knex.transaction(async (trx) => {
      const stack = await trx('payment_stacks').where({ id }).forUpdate().first('id');
      if (!stack) throw notFound();
      if (await trx('payments').where({ stack_id: id }).first('id')) throw new ApiError('inUse', 'errors.stack_imported');
      const inns = [...new Set(rows.map((r) => r.payer_inn).filter((x): x is string => !!x && x.length === 9))];
      const bySubject = new Map<string, { id: number; region_id: number }>(
        (await trx('subjects').whereIn('inn', inns).select('id', 'inn', 'region_id')).map((s: { id: number; inn: string; region_id: number }) => [s.inn, s]),
      );
      let attached = 0;
      let total = 0n;
      for (let i = 0; i < rows.length; i += 500) {
        const batch = rows.slice(i, i + 500).map((p) => {
          const subject = p.payer_inn ? bySubject.get(p.payer_inn) : undefined;
          if (subject) attached++;
          total += parseTiyin(p.amount);
          const { row: _row, ...fields } = p;
          return {
            ...fields, stack_id: id, income_type_id: p.income_code ? codes.get(p.income_code) : null,
            subject_id: subject?.id ?? null, region_id: subject?.region_id ?? null, status: subject ? 'defined' : 'undefined',
            created_by: ctx.state.principal!.id, updated_by: ctx.state.principal!.id,
          };
        });
        const inserted = await trx('payments').insert(batch).returning(['id', 'subject_id']);
        const flows = inserted.filter((r: { subject_id: number | null }) => r.subject_id).map((r: { id: number }) => ({
          entity: payments.name, record_id: r.id, action: 'attach', from_state: 'undefined', to_state: 'defined', comment: 'import: payer INN', user_id: ctx.state.principal!.id,
        }));
        if (flows.length) await trx('flows').insert(flows);
      }
      await trx('payment_stacks').where({ id }).update({
        rows_count: rows.length, total_amount: formatTiyin(total), version: trx.raw('version + 1'), updated_at: trx.fn.now(), updated_by: ctx.state.principal!.id,
      });
      return { imported: rows.length, attached, total_amount: formatTiyin(total) };
    });
    ctx.body = result;
  });

  /** What a subject signs for a report: its canonical content, base64, and the same as JSON to show. */
  const reports = model.entities.get('subject-report-yearly');
  if (reports) {
    router.get(`${reports.path}/:id/signable`, guard, async (ctx) => {
      const r = repo(ctx, reports);
      const report = await r.getOne(Number(ctx.params.id));
      const document = await signableReport(knex, report.id as number);
      ctx.body = { document, content: Buffer.from(canonicalContent(document)).toString('base64') };
    });
  }

  /**
   * The ecological calculator: the report's compensation formula on ingredients typed in, at the
   * base value in force on a date, without saving anything. Validated like a report's ingredients.
   */
  const calculator = model.menu.flatMap((s) => s.children).find((c) => c.route === 'ecologic-calculator');
  if (reports && calculator?.action) {
    const validate = calculatorValidator(reports);
    router.post('/ecofund/ecologic-calculator', guard, async (ctx) => {
      if (!ctx.state.principal!.actions.has(calculator.action!)) throw forbidden();
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
    });
  }

  /** A subject by its INN, within the caller's scope: "subject not found for the INN" otherwise. */
  router.get(`${subjects.path}/by-inn/:inn`, guard, async (ctx) => {
    const inn = String(ctx.params.inn).replace(/\s/g, '');
    if (!new RegExp(FORMATS.inn.pattern).test(inn)) throw validationError({ inn: { key: FORMATS.inn.message } });
    const r = repo(ctx, subjects);
    const row = await r.scoped('read').where('t.inn', inn).first('t.id');
    if (!row) throw new ApiError('notFound', 'errors.inn_not_found', { inn });
    ctx.body = await r.getOne(row.id);
  });

  /**
   * A subject's balance for a year: confirmed payments before the year and during it, by income
   * code. Compensation charged by accepted reports is subtracted once reports are in place.
   */
  router.get(`${subjects.path}/:id/balance`, guard, async (ctx) => {
    const r = repo(ctx, subjects);
    const subject = await r.getOne(Number(ctx.params.id));
    const year = ctx.query.year ? Number(ctx.query.year) : currentYearTashkent();
    if (!Number.isInteger(year) || year < 2000 || year > 2100) throw validationError({ year: { key: 'validation.wrong_value' } });
    const start = `${year}-01-01`;
    const end = `${year}-12-31`;
    const confirmed = () => knex('payments').where({ subject_id: subject.id, status: 'confirmed' });
    const sum = async (q: Knex.QueryBuilder) => String((await q.sum('amount as s').first())?.s ?? '0');
    const before = await sum(confirmed().where('paid_on', '<', start));
    const during = await sum(confirmed().whereBetween('paid_on', [start, end]));
    const byCode = await knex('payments as p').join('payment_splits as s', 's.parent_id', 'p.id')
      .where({ 'p.subject_id': subject.id, 'p.status': 'confirmed' }).whereBetween('p.paid_on', [start, end])
      .groupBy('s.income_code').orderBy('s.income_code')
      .select('s.income_code', knex.raw('sum(p.amount)::text as amount'), knex.raw('sum(s.budget)::text as budget'), knex.raw('sum(s.fund)::text as fund'), knex.raw('sum(s.organisation)::text as organisation'));
    const money = (s: string) => formatTiyin(parseTiyin(s));
    ctx.body = {
      subject_id: subject.id, year,
      balance_start: money(before),
      paid_in_year: money(during),
      balance_end: formatTiyin(parseTiyin(money(before)) + parseTiyin(money(during))),
      by_income_code: byCode,
    };
  });
  return router;
}

function calculatorValidator(reports: EntityMeta) {
  return compileSchema({
    type: 'object',
    required: ['report_date', 'ingredients'],
    properties: { report_date: fieldSchema({ ...reports.fields.report_date, max: undefined }), ingredients: { ...fieldSchema(reports.fields.ingredients), minItems: 1 } },
  });
}
