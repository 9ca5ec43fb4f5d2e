import type { Knex } from 'knex';
import type { Lang, MetaModel, ReportColumnMeta, ReportMeta } from '../meta/types.ts';
import { translate } from '../meta/captions.ts';
import { currentYearTashkent, todayTashkent } from '../meta/today.ts';
import { addDecimal, divRoundHalfUp, formatFixed, parseDecimal, pow10, type Decimal } from '../domain/decimal.ts';
import { ApiError } from '../kernel/errors.ts';
import type { ReportPaging, ReportParams } from './params.ts';

/** Reports refuse to answer with more rows than this unless a page is asked for (`page`, `perPage`: runReportPage); a page holds at most this many. */
export const REPORT_MAX_ROWS = 5000;

export interface ReportResult {
  name: string;
  title: string;
  params: ReportParams;
  columns: { name: string; type: ReportColumnMeta['type']; caption: string; total: boolean }[];
  rows: Record<string, unknown>[];
  /** the totals of every row of the report, not of the page */
  totals: Record<string, number | string>;
  /** how many rows the report has (all pages) */
  total: number;
  /** the page answered, when one was asked for */
  page: ReportPaging | null;
  chart: ReportMeta['chart'] | null;
  drill: ReportMeta['drill'] | null;
}

/**
 * Runs a report's query with its resolved parameters (plus :lang, :today and :current_year), then
 * gives every column its declared type — integers as numbers, decimals, money and percents as
 * exact fixed-point strings — and computes the totals exactly: sums, or ratios of two sums.
 */
/** What a report's query runs with, in its own transaction (the JSON answer and the Excel's cursor alike). */
export const REPORT_SETTINGS: readonly string[] = ['jit = off'];

export async function runReport(
  knex: Knex,
  model: MetaModel,
  r: ReportMeta,
  params: ReportParams,
  lang: Lang,
  now: Date = new Date(),
  paging: ReportPaging | null = null,
): Promise<ReportResult> {
  if (paging) return runReportPage(knex, model, r, params, lang, now, paging);
  const limit = Math.min(r.maxRows ?? REPORT_MAX_ROWS, REPORT_MAX_ROWS);
  // no JIT: a report's query is planned with costs that invite it over large tables, and compiling
  // it takes longer than running it (bench/fund-reports, docs/performance.md); SET LOCAL ends with the transaction
  const raw = await knex.transaction(async (trx) => {
    for (const setting of REPORT_SETTINGS) await trx.raw(`SET LOCAL ${setting}`);
    const result = await trx.raw(`SELECT * FROM (${r.query}) AS report LIMIT ${limit + 1}`, reportBindings(params, lang, now));
    return (result.rows ?? result) as Record<string, unknown>[];
  });
  if (raw.length > limit) throw new ApiError('badRequest', 'errors.export_too_large', { max: limit, count: `${limit}+` });
  const rows = raw.map((row) => typedRow(model, r, lang, row));
  const totals = new ReportTotals(r.columns);
  for (const row of rows) totals.add(row);
  return { ...reportHead(model, r, params, lang), rows, totals: totals.result(), total: rows.length, page: null };
}

/** What the paged query adds to a report's columns (no report column starts so). */
const PAGED = '__report_';

/**
 * One page of a report, in one query run once: the report's rows numbered in its own order, the
 * page's rows by their numbers, and beside them the row count and the sums of every column the
 * totals need over all the rows — summed by PostgreSQL in numeric (exact), each row's value
 * rounded first to its column's scale as a typed row rounds it, so the totals are the ones the
 * whole answer (and the Excel export) gives. A page past the end has no rows and the same totals.
 */
async function runReportPage(
  knex: Knex,
  model: MetaModel,
  r: ReportMeta,
  params: ReportParams,
  lang: Lang,
  now: Date,
  paging: ReportPaging,
): Promise<ReportResult> {
  const summed = totalInputs(r.columns);
  const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const sums = summed
    .map((c, i) => {
      const v = `CAST(report.${ident(c.name)} AS numeric)`;
      return `, sum(${c.type === 'integer' ? v : `round(${v}, ${scaleOf(c)})`}) AS ${PAGED}sum_${i}`;
    })
    .join('');
  const from = (paging.page - 1) * paging.perPage;
  const sql = `WITH report AS MATERIALIZED (SELECT report.*, row_number() OVER () AS ${PAGED}n FROM (${r.query}) AS report),
    totals AS (SELECT count(*) AS ${PAGED}count${sums} FROM report)
    SELECT totals.*, page.* FROM totals LEFT JOIN LATERAL (SELECT * FROM report WHERE report.${PAGED}n > ${from} AND report.${PAGED}n <= ${from + paging.perPage} ORDER BY report.${PAGED}n) AS page ON true`;
  const raw = await knex.transaction(async (trx) => {
    for (const setting of REPORT_SETTINGS) await trx.raw(`SET LOCAL ${setting}`);
    const result = await trx.raw(sql, reportBindings(params, lang, now));
    return (result.rows ?? result) as Record<string, unknown>[];
  });
  const head = raw[0] ?? {};
  const totals = new ReportTotals(r.columns);
  totals.add(Object.fromEntries(summed.map((c, i) => [c.name, head[`${PAGED}sum_${i}`]])));
  const rows = raw
    .filter((row) => row[`${PAGED}n`] !== null && row[`${PAGED}n`] !== undefined)
    .map((row) => {
      const own: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) if (!k.startsWith(PAGED)) own[k] = v;
      return typedRow(model, r, lang, own);
    });
  return { ...reportHead(model, r, params, lang), rows, totals: totals.result(), total: Number(head[`${PAGED}count`] ?? 0), page: paging };
}

/** The columns a report's totals sum: those totalled, and the two of every ratio. */
function totalInputs(columns: ReportColumnMeta[]): ReportColumnMeta[] {
  const names = new Set<string>();
  for (const c of columns) if (c.total) for (const n of c.total === 'sum' ? [c.name] : c.total.ratio) names.add(n);
  return columns.filter((c) => names.has(c.name));
}

/** The bindings a report's query is run with: its resolved parameters, :lang, :today and :current_year. */
export function reportBindings(params: ReportParams, lang: Lang, now: Date = new Date()): Record<string, unknown> {
  return { ...params, lang, today: todayTashkent(now), current_year: currentYearTashkent(now) };
}

/** A report's answer but its rows and totals: title, parameters, columns in the caller's language, chart and drill-down. */
export function reportHead(
  model: MetaModel,
  r: ReportMeta,
  params: ReportParams,
  lang: Lang,
): Omit<ReportResult, 'rows' | 'totals' | 'total' | 'page'> {
  return {
    name: r.name,
    title: translate(model, lang, r.caption),
    params,
    columns: r.columns.map((c) => ({
      name: c.name,
      type: c.type,
      caption: translate(model, lang, c.caption ?? `report.${c.name}`),
      total: !!c.total,
    })),
    chart: r.chart ?? null,
    drill: r.drill ?? null,
  };
}

/** A row of the query with every column given its declared type (and translated where the column says so). */
export function typedRow(model: MetaModel, r: ReportMeta, lang: Lang, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const c of r.columns) {
    out[c.name] = typed(c, row[c.name]);
    if (c.translate && out[c.name] !== null) out[c.name] = translate(model, lang, `${c.translate}.${String(out[c.name])}`);
  }
  return out;
}

export function scaleOf(c: ReportColumnMeta): number {
  return c.scale ?? (c.type === 'decimal' || c.type === 'money' || c.type === 'percent' ? 2 : 0);
}

function typed(c: ReportColumnMeta, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (c.type) {
    case 'integer':
      return Number(v);
    case 'decimal':
    case 'money':
    case 'percent':
      return formatFixed(toDecimal(v), scaleOf(c));
    case 'date':
      return v instanceof Date ? isoDate(v) : String(v).slice(0, 10);
    default:
      return String(v);
  }
}

function isoDate(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function toDecimal(v: unknown): Decimal {
  const s = typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(6)) : String(v);
  return parseDecimal(s, { maxScale: 40, allowNegative: true, name: 'report value' });
}

/**
 * A report's totals, row by row (an export streams its rows): sums in exact fixed point; a ratio
 * total is 100 × sum(a) / sum(b), rounded half up.
 */
export class ReportTotals {
  private readonly sums = new Map<string, Decimal>();
  constructor(private readonly columns: ReportColumnMeta[]) {
    for (const c of columns) {
      if (!c.total) continue;
      for (const name of c.total === 'sum' ? [c.name] : c.total.ratio) this.sums.set(name, { units: 0n, scale: 0 });
    }
  }

  get any(): boolean {
    return this.sums.size > 0;
  }

  add(row: Record<string, unknown>): void {
    for (const [name, s] of this.sums) {
      const v = row[name];
      if (v !== null && v !== undefined) this.sums.set(name, addDecimal(s, toDecimal(v)));
    }
  }

  result(): Record<string, number | string> {
    const totals: Record<string, number | string> = {};
    for (const c of this.columns) {
      if (!c.total) continue;
      const scale = scaleOf(c);
      if (c.total === 'sum') {
        const s = this.sums.get(c.name)!;
        totals[c.name] = c.type === 'integer' ? Number(formatFixed(s, 0)) : formatFixed(s, scale);
        continue;
      }
      const [a, b] = c.total.ratio.map((n) => this.sums.get(n)!);
      if (b.units === 0n) {
        totals[c.name] = formatFixed({ units: 0n, scale: 0 }, scale);
        continue;
      }
      // 100 × a / b at the column's scale: (a.units × 10^(b.scale) × 100 × 10^scale) / (b.units × 10^(a.scale))
      const num = a.units * pow10(b.scale) * 100n * pow10(scale);
      const den = b.units * pow10(a.scale);
      totals[c.name] = formatFixed({ units: divRoundHalfUp(num, den), scale }, scale);
    }
    return totals;
  }
}
