/**
 * Reports as the back-office sees them: their declarations in /api/meta `reports[]` (what the
 * parameters bar is built from) and the answer of `GET /api/reports/:name` (what the chart and the
 * table show). The shapes are the session-2 contract of the report engine (api/reports).
 */

/** A report parameter's declaration. */
export type ReportParamDef =
  | { type: 'year'; caption?: string; required?: boolean; default?: 'current' | number; min?: number }
  | { type: 'ref'; caption?: string; required?: boolean; ref: string; default?: number }
  | { type: 'enum'; caption?: string; required?: boolean; values: string[]; default?: string }
  | { type: 'date'; caption?: string; required?: boolean; default?: 'current' | 'today' | string }
  | { type: 'string'; caption?: string; required?: boolean; default?: string }
  | { type: 'integer'; caption?: string; required?: boolean; default?: number };

export type ReportParamType = ReportParamDef['type'];

export type ColumnType = 'string' | 'integer' | 'decimal' | 'money' | 'percent' | 'date';

export interface ReportColumn {
  name: string;
  type: ColumnType;
  /** translated (in the answer) or a caption key (in /api/meta) */
  caption: string;
  /** has a value in the totals row (the declaration says how: a sum, or a ratio of two sums) */
  total?: boolean | 'sum' | { ratio: [string, string] };
}

export type ChartType = 'bar' | 'line' | 'pie' | 'doughnut';

export interface ReportChartDef {
  type: ChartType;
  /** the column whose values label the points (bars, slices) */
  label: string;
  /** the numeric columns drawn, one data set each */
  series: string[];
  stacked?: boolean;
  horizontal?: boolean;
}

/**
 * A link from a column's cells to another route: `route` has `:params`, replaced by the encoded
 * `k=v;k=v` of `params`, whose values name a row key, or a report parameter as `$name`.
 */
export interface ReportDrill {
  route: string;
  column: string;
  params: Record<string, string>;
}

/** A report of /api/meta `reports[]`. */
export interface ReportMeta {
  name: string;
  caption: string;
  action?: number;
  params: Record<string, ReportParamDef>;
  columns?: ReportColumn[];
  chart?: ReportChartDef | null;
  drill?: ReportDrill | null;
  public?: boolean;
}

export type ParamValue = string | number;
export type ParamValues = Record<string, ParamValue>;

export type ReportRow = Record<string, unknown>;

/** `GET /api/reports/:name?<params>` */
export interface ReportResult {
  name: string;
  title: string;
  params: Record<string, unknown>;
  columns: ReportColumn[];
  rows: ReportRow[];
  /** the totals of all the rows, whichever page is shown */
  totals?: Record<string, unknown> | null;
  /** how many rows the report has (every page) */
  total?: number;
  /** the page answered (`page` from 1), when one was asked for */
  page?: { page: number; perPage: number } | null;
  chart?: ReportChartDef | null;
  drill?: ReportDrill | null;
  /** the year shown, the newest year with figures up to it (null: none), whether the one shown is empty, and whether the API moved a year not asked for to that one */
  period?: { year: number; latest: number | null; empty: boolean; moved: boolean };
}

/** A page of a report's rows as the table asks for it (`page` from 1). */
export interface ReportPage {
  page: number;
  perPage: number;
}
