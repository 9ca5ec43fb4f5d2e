import { useMemo } from 'react';
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PieController,
  PointElement,
  Tooltip,
  type ChartData as CjsData,
  type ChartOptions,
  type Plugin,
} from 'chart.js';
import { Chart as ChartView } from 'react-chartjs-2';
import { chartData, chartNumber, PALETTE } from './cells';
import type { ReportChartDef, ReportColumn, ReportRow } from './types';

/**
 * A report's chart with Chart.js: bars (stacked, horizontal), lines, pie or doughnut, one data set
 * per `series` column, labelled by the `label` column. Its own chunk, loaded by ReportScreen when a
 * report has a chart. Numbers are formatted by hand (space thousands), so Chart.js's Intl never
 * sees the languages' codes.
 */
Chart.register(
  BarController,
  LineController,
  PieController,
  DoughnutController,
  CategoryScale,
  LinearScale,
  BarElement,
  LineElement,
  PointElement,
  ArcElement,
  Tooltip,
  Legend,
);

/** Marks the canvas once drawn, for tests and anyone waiting for it. */
const drawn: Plugin = {
  id: 'drawn',
  afterRender(chart) {
    chart.canvas.dataset.drawn = 'true';
  },
};

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export interface ReportChartProps {
  chart: ReportChartDef;
  columns: ReportColumn[];
  rows: ReportRow[];
  /** the accessible name of the drawing */
  title: string;
}

export default function ReportChart({ chart, columns, rows, title }: ReportChartProps) {
  const data = useMemo(() => chartData(chart, columns, rows), [chart, columns, rows]);
  const round = chart.type === 'pie' || chart.type === 'doughnut';
  const horizontal = chart.type === 'bar' && !!chart.horizontal;
  const cjs: CjsData = {
    labels: data.labels,
    datasets: round
      ? // a slice per row, coloured in turn; a ring per series
        data.series.map((s) => ({
          label: s.label,
          data: s.values,
          backgroundColor: data.labels.map((_, i) => PALETTE[i % PALETTE.length]),
          borderColor: '#fff',
          borderWidth: 1,
        }))
      : data.series.map((s, i) => ({
          label: s.label,
          data: s.values,
          backgroundColor: PALETTE[i % PALETTE.length],
          borderColor: PALETTE[i % PALETTE.length],
          borderWidth: chart.type === 'line' ? 2 : 0,
          maxBarThickness: 48,
          tension: 0.25,
          pointRadius: 3,
        })),
  };
  // counts step by whole numbers (no "2.50 trees")
  const wholeNumbers = chart.series.every((s) => columns.find((c) => c.name === s)?.type === 'integer');
  const valueAxis = {
    beginAtZero: true,
    stacked: !!chart.stacked,
    ticks: { callback: (v: string | number) => chartNumber(Number(v)), maxTicksLimit: 8, ...(wholeNumbers ? { precision: 0 } : {}) },
    grid: { color: '#e6ebe6' },
  };
  const labelAxis = {
    stacked: !!chart.stacked,
    ticks: {
      autoSkip: !horizontal,
      callback(this: unknown, _v: string | number, i: number) {
        return clip(data.labels[i] ?? '', horizontal ? 32 : data.labels.length <= 6 ? 40 : 18);
      },
    },
    grid: { display: false },
  };
  const options: ChartOptions = {
    responsive: true,
    maintainAspectRatio: false,
    animation: { duration: 300 },
    ...(horizontal ? { indexAxis: 'y' as const } : {}),
    plugins: {
      legend: { display: round || data.series.length > 1, position: round ? 'right' : 'top' },
      tooltip: {
        callbacks: {
          label: (item) => {
            const v = typeof item.raw === 'number' ? item.raw : Number(item.raw);
            return `${item.dataset.label ?? ''}: ${chartNumber(v)}`;
          },
        },
      },
    },
    ...(round ? {} : { scales: horizontal ? { x: valueAxis, y: labelAxis } : { x: labelAxis, y: valueAxis } }),
  };
  // tall enough for every bar's label when the bars lie
  const height = horizontal ? Math.max(260, data.labels.length * 26 + 60) : round ? 320 : 340;
  return (
    <div style={{ position: 'relative', height, width: '100%', maxWidth: round ? 640 : undefined }} data-testid="report-chart">
      <ChartView type={chart.type} data={cjs} options={options} plugins={[drawn]} role="img" aria-label={title} />
    </div>
  );
}
