import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Knex } from 'knex';
import type { Lang, MetaModel, ReportMeta } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import type { AppState, AppContext } from './middleware.ts';
import { forbidden, notFound, validationError } from './errors.ts';
import { canOpenReport, resolveReportPaging, resolveReportParams, type ReportParams } from '../reports/params.ts';
import { REPORT_MAX_ROWS, runReport } from '../reports/run.ts';
import { exportReport } from '../reports/export.ts';
import { runOnLatest, yearParam } from '../reports/latest.ts';
import { refTable, sortExpression } from '../engine/sql.ts';
import { PUBLIC_DATA, versionedCache } from '../db/data-version.ts';
import { todayTashkent } from '../meta/today.ts';
import { exportQuery, queueReportExport } from '../jobs/export-kinds.ts';

/**
 * Every report of metadata/reports: `GET /reports/:name` answers rows, totals, chart and drill-down
 * as JSON (a page of the rows with `page` / `perPage`, the totals and row count always of them all) and `GET /reports/:name/export` the same as .xlsx (streamed, every row) — for staff whose actions include the
 * report's action id (a scoped user's own region is forced into the report's scope parameter),
 * and, for reports marked public, the same two calls under /public without sign-in.
 */
export function reportRoutes(model: MetaModel, knex: Knex, guard: Middleware<AppState>, reads: Knex = knex): Router<AppState> {
  const router = new Router<AppState>();
  const staff = (ctx: AppContext): ReportMeta => {
    const r = model.reports.get(String(ctx.params.name));
    if (!r) throw notFound();
    if (!canOpenReport(r, ctx.state.principal!)) throw forbidden();
    return r;
  };
  const pub = (ctx: AppContext): ReportMeta => {
    const r = model.reports.get(String(ctx.params.name));
    if (!r || !r.public) throw notFound();
    ctx.set('Cache-Control', 'public, max-age=60');
    return r;
  };

  // the public calls read from the read pool (a replica's, when DATABASE_READ_URL is set); staff's from the primary
  const answer = async (ctx: AppContext, r: ReportMeta, principal: Principal | null) => {
    const { params, errors } = resolveReportParams(r, ctx.query, principal);
    // a page (`page`, `perPage`): its rows, with the row count and the totals of every row
    const { paging, errors: pagingErrors } = resolveReportPaging(ctx.query, Math.min(r.maxRows ?? REPORT_MAX_ROWS, REPORT_MAX_ROWS));
    if (errors || pagingErrors) throw validationError({ ...errors, ...pagingErrors });
    const now = new Date();
    // on the latest period that has data (api/reports/latest.ts): a year not asked for moves back to it
    const year = yearParam(r);
    const yearAsked = !!year && ctx.query[year] !== undefined && ctx.query[year] !== '';
    const run = () =>
      runOnLatest(r, params, yearAsked, (p) => runReport(principal ? knex : reads, model, r, p, ctx.state.lang, now, paging));
    // the public's answers are kept while the data they read is unchanged (api/db/data-version.ts)
    ctx.body = principal
      ? await run()
      : await versionedCache(reads, PUBLIC_DATA).get(JSON.stringify([r.name, ctx.state.lang, todayTashkent(now), params, paging]), run);
  };
  const download = async (ctx: AppContext, r: ReportMeta, principal: Principal | null) => {
    // staff's large reports become jobs (202, api/jobs/export-kinds.ts); the public's always stream
    if (principal && (await queueReportExport(ctx, knex, model, r))) return;
    const params = resolved(r, exportQuery(ctx.query), principal);
    const db = principal ? knex : reads;
    const { stream, filename } = await exportReport(
      db,
      model,
      r,
      params,
      ctx.state.lang,
      await paramTitles(db, model, r, params, ctx.state.lang),
    );
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    ctx.body = stream;
  };

  router.get('/reports/:name', guard, (ctx) => answer(ctx, staff(ctx), ctx.state.principal!));
  router.get('/reports/:name/export', guard, (ctx) => download(ctx, staff(ctx), ctx.state.principal!));
  router.get('/public/reports/:name', (ctx) => answer(ctx, pub(ctx), null));
  router.get('/public/reports/:name/export', (ctx) => download(ctx, pub(ctx), null));
  return router;
}

function resolved(r: ReportMeta, query: Record<string, unknown>, principal: Principal | null): ReportParams {
  const { params, errors } = resolveReportParams(r, query, principal);
  if (errors) throw validationError(errors);
  return params;
}

/** The titles of the referenced rows a report was run for (a region's name rather than its id), for the export's header. */
async function paramTitles(knex: Knex, model: MetaModel, r: ReportMeta, params: ReportParams, lang: Lang): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, p] of Object.entries(r.params)) {
    const v = params[name];
    if (v === null || p.type !== 'ref') continue;
    const e = model.entities.get(p.ref!);
    if (!e) continue;
    const row = await knex(`${refTable(model, p.ref!)} as t`)
      .where('t.id', v)
      .first(knex.raw(`${sortExpression(e, e.titleField, lang, 't')} as title`));
    if (row?.title) out[name] = String(row.title);
  }
  return out;
}
