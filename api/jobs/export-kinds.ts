import { datedFileName } from '../meta/today.ts';
import type { Knex } from 'knex';
import type { EntityMeta, Lang, MetaModel, ReportMeta, Text3 } from '../meta/types.ts';
import { LANGS } from '../meta/types.ts';
import { translate } from '../meta/captions.ts';
import type { Principal } from '../auth/ability.ts';
import type { AppContext } from '../http/middleware.ts';
import { badParam, forbidden, notFound, validationError } from '../kernel/errors.ts';
import { Repository } from '../engine/repository.ts';
import { parseListParams } from '../engine/list-params.ts';
import { writeExport, type ExportFormat } from '../engine/export.ts';
import { GEOJSON_TYPE, geometryFields } from '../engine/geojson.ts';
import { jobSetting } from '../auth/config.ts';
import { canOpenReport, resolveReportParams } from '../reports/params.ts';
import { REPORT_SETTINGS, reportBindings } from '../reports/run.ts';
import { writeReport } from '../reports/export.ts';
import { refTable, sortExpression } from '../engine/sql.ts';
import { enqueueJob, jobView, type JobRun } from './queue.ts';

/**
 * Large exports as background jobs (docs/exports.md, "Background exports"): `GET …/export` of a
 * list or a report counts its rows up to the setting `exports.background_rows` (a capped count:
 * at most that many rows are looked at); over it, the export is queued as a job of its caller
 * and answered `202` with the job, instead of streaming. `?background=1` always queues, `?background=0`
 * always streams. The job runs the same writer into a file, as its owner stands when it runs.
 * A user may have `jobs.per_user` jobs queued or running at once; one more export to queue is a 429.
 */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const text3 = (model: MetaModel, key: string): Text3 => Object.fromEntries(LANGS.map((l) => [l, translate(model, l, key)])) as Text3;

/** `?background=`: true (always a job), false (always the stream), undefined (decided by the count); anything else is a 400 naming it. */
export function backgroundParam(v: unknown): boolean | undefined {
  if (v === undefined || v === '' || v === 'auto') return undefined;
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  throw badParam('background');
}

/** The list's query without what only the route reads (`background`). */
export function exportQuery<Q extends Record<string, unknown>>(query: Q): Q {
  const { background: _b, ...rest } = query;
  return rest as Q;
}

/**
 * For a list's export route: queues the export as a job and answers 202 when it is asked for or
 * the list holds more rows than the setting; answers false when the route should stream it.
 * Everything the stream would refuse (no right to export, a bad filter) is refused here first.
 */
export async function queueListExport(
  ctx: AppContext,
  knex: Knex,
  model: MetaModel,
  e: EntityMeta,
  format: ExportFormat,
): Promise<boolean> {
  const mode = backgroundParam(ctx.query.background);
  if (mode === false) return false;
  const principal = ctx.state.principal!;
  const query = exportQuery(ctx.query);
  const base = { knex, model, principal, lang: ctx.state.lang };
  const repo = new Repository(base, e);
  repo.assertCan('export');
  if (format === 'geojson' && !geometryFields(e)) throw notFound();
  const params = parseListParams(e, query as Record<string, string | string[] | undefined>);
  const limit = await jobSetting(knex, 'exports.background_rows');
  // a capped count: exact up to the setting, looking at no more rows than that; beyond it, the planner's estimate
  const count = await new Repository({ ...base, countLimit: limit }, e).count(params, 'export');
  if (mode === undefined && count.exact) return false;
  const job = await enqueueJob(
    knex,
    {
      kind: 'export',
      userId: principal.id,
      lang: ctx.state.lang,
      params: { entity: e.name, format, query },
      title: text3(model, e.caption),
      total: count.total,
    },
    { perUser: await jobSetting(knex, 'jobs.per_user') },
  );
  answerQueued(ctx, model, job);
  return true;
}

/** The same for a report's export: its rows counted up to the setting over its query, as the caller's scope forces its parameters. */
export async function queueReportExport(ctx: AppContext, knex: Knex, model: MetaModel, r: ReportMeta): Promise<boolean> {
  const mode = backgroundParam(ctx.query.background);
  if (mode === false) return false;
  const principal = ctx.state.principal!;
  const query = exportQuery(ctx.query);
  const { params, errors } = resolveReportParams(r, query, principal);
  if (errors) throw validationError(errors);
  const limit = await jobSetting(knex, 'exports.background_rows');
  let total: number | null = null;
  if (mode === undefined) {
    const n = await countReport(knex, r, params, ctx.state.lang, limit + 1);
    if (n <= limit) return false;
  } else total = await countReport(knex, r, params, ctx.state.lang);
  const job = await enqueueJob(
    knex,
    {
      kind: 'report-export',
      userId: principal.id,
      lang: ctx.state.lang,
      params: { report: r.name, query },
      title: text3(model, r.caption),
      total,
    },
    { perUser: await jobSetting(knex, 'jobs.per_user') },
  );
  answerQueued(ctx, model, job);
  return true;
}

function answerQueued(ctx: AppContext, model: MetaModel, job: Parameters<typeof jobView>[2]): void {
  ctx.status = 202;
  ctx.set('Location', `/api/jobs/${job.id}`);
  ctx.body = jobView(model, ctx.state.lang, job);
}

/** A report's rows, counted (up to `cap` when given) over its query. */
async function countReport(knex: Knex, r: ReportMeta, params: Record<string, unknown>, lang: Lang, cap?: number): Promise<number> {
  return knex.transaction(async (trx) => {
    for (const setting of REPORT_SETTINGS) await trx.raw(`SET LOCAL ${setting}`);
    const inner =
      cap === undefined ? `SELECT 1 FROM (${r.query}) AS report` : `SELECT 1 FROM (${r.query}) AS report LIMIT ${Math.floor(cap)}`;
    const res = await trx.raw(`SELECT count(*)::int AS n FROM (${inner}) AS c`, reportBindings(params as never, lang) as Knex.ValueDict);
    return Number((res.rows ?? res)[0].n);
  });
}

/** The titles of the referenced rows a report was run for, for the file's header (as the route writes them). */
async function paramTitles(
  knex: Knex,
  model: MetaModel,
  r: ReportMeta,
  params: Record<string, unknown>,
  lang: Lang,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, p] of Object.entries(r.params)) {
    const v = params[name];
    if (v === null || v === undefined || p.type !== 'ref') continue;
    const e = model.entities.get(p.ref!);
    if (!e) continue;
    const row = await knex(`${refTable(model, p.ref!)} as t`)
      .where('t.id', v)
      .first(knex.raw(`${sortExpression(e, e.titleField, lang, 't')} as title`));
    if (row?.title) out[name] = String(row.title);
  }
  return out;
}

// a list's export: the same writer as the route's, into the job's file, as its owner stands now
const exportJob: JobRun = async ({ knex, model, principal, lang, params, signal, progress, output }) => {
  const entity = String(params.entity);
  const format = params.format === 'geojson' ? 'geojson' : 'xlsx';
  const e = model.entities.get(entity);
  if (!e) throw notFound();
  const out = output(datedFileName(e.name, format), format === 'geojson' ? GEOJSON_TYPE : XLSX_TYPE);
  const { rows } = await writeExport(
    { knex, model, principal, lang },
    entity,
    format,
    (params.query ?? {}) as Record<string, unknown>,
    out,
    {
      signal,
      onBatch: (n) => progress(n),
    },
  );
  progress(rows);
  return { rows };
};

// a report's export: its parameters resolved again for its owner as they stand now (a scoped user's own region forced)
const reportExportJob: JobRun = async ({ knex, model, principal, lang, params, signal, progress, output }) => {
  const r = model.reports.get(String(params.report));
  if (!r) throw notFound();
  if (!canOpenReport(r, principal as Principal)) throw forbidden();
  const resolved = resolveReportParams(r, (params.query ?? {}) as Record<string, unknown>, principal);
  if (resolved.errors) throw validationError(resolved.errors);
  const total = await countReport(knex, r, resolved.params, lang);
  progress(0, total);
  const out = output(datedFileName(r.name, 'xlsx'), XLSX_TYPE);
  const { rows } = await writeReport(knex, model, r, resolved.params, lang, await paramTitles(knex, model, r, resolved.params, lang), out, {
    signal,
    onBatch: (n) => progress(n),
  });
  progress(rows);
  return { rows };
};

/** The export job kinds, registered by start-up's registry (api/registry.ts). */
export const EXPORT_JOB_KINDS: Record<string, JobRun> = { export: exportJob, 'report-export': reportExportJob };
