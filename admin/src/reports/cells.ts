import { formatDate, formatNumber } from '../generic/format';
import type { ColumnType, ReportChartDef, ReportColumn, ReportRow } from './types';

/** Numbers are right-aligned. */
export const NUMERIC: ReadonlySet<ColumnType> = new Set(['integer', 'decimal', 'money', 'percent']);

/**
 * A cell as the table shows it: decimals, money and percentages with two decimals and space
 * thousands ("1 234.50"), whole numbers with space thousands, dates as DD.MM.YYYY.
 */
export function formatCell(type: ColumnType, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  switch (type) {
    case 'integer':
      return formatNumber(value, 0);
    case 'decimal':
    case 'money':
    case 'percent':
      return formatNumber(value, 2);
    case 'date':
      return formatDate(value);
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** A number for the chart out of an integer or a decimal string (0 when empty). */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  const n = Number(String(value ?? '').trim());
  return Number.isFinite(n) ? n : 0;
}

export interface ChartSeries {
  key: string;
  label: string;
  values: number[];
}

export interface ChartData {
  labels: string[];
  series: ChartSeries[];
}

/**
 * What the chart draws: one label per row (the `label` column), one series per `series` column
 * with its caption. Series naming no column are left out.
 */
export function chartData(chart: ReportChartDef, columns: ReportColumn[], rows: ReportRow[]): ChartData {
  const byName = new Map(columns.map((c) => [c.name, c]));
  const labelCol = byName.get(chart.label);
  const labels = rows.map((r) => (labelCol ? formatCell(labelCol.type, r[chart.label]) : String(r[chart.label] ?? '')));
  const series = chart.series
    .filter((s) => byName.has(s) || rows.some((r) => s in r))
    .map((s) => ({ key: s, label: byName.get(s)?.caption ?? s, values: rows.map((r) => toNumber(r[s])) }));
  return { labels, series };
}

/** A palette that prints legibly in grey too. */
export const PALETTE = ['#2e7d32', '#1565c0', '#ef6c00', '#6a1b9a', '#00838f', '#c62828', '#9e9d24', '#4e342e', '#ad1457', '#37474f'];

/** Space thousands for the chart's axis and tooltips; decimals only when the value has them. */
export function chartNumber(n: number): string {
  return Number.isInteger(n) ? formatNumber(n, 0) : formatNumber(n, 2);
}
