import {
  ArcElement,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { Chart as ChartView } from 'react-chartjs-2';
import { fmtDecimal, fmtInt } from '../format';
import { clip, drawn, valueTicks, wrap } from './labels';

/**
 * A report's chart (its own chunk, loaded by components/Chart.tsx): bar (vertical or horizontal,
 * stacked or not), line, pie or doughnut, with one dataset per series column. Numbers are written
 * by hand (space thousands, comma decimals) so Chart.js's Intl never sees our language codes.
 */
Chart.register(CategoryScale, LinearScale, BarElement, LineElement, PointElement, ArcElement, Tooltip, Legend);

export interface ReportChartProps {
  type: 'bar' | 'line' | 'pie' | 'doughnut';
  labels: string[];
  series: { label: string; values: number[]; decimals: number }[];
  horizontal: boolean;
  stacked: boolean;
  ariaLabel: string;
  compact?: boolean;
}

export const PALETTE = [
  '#2e7d32',
  '#f9a825',
  '#1565c0',
  '#8d6e63',
  '#6a1b9a',
  '#00838f',
  '#c62828',
  '#558b2f',
  '#ef6c00',
  '#37474f',
  '#ad1457',
  '#9e9d24',
];

export default function ReportChart({ type, labels, series, horizontal, stacked, ariaLabel, compact }: ReportChartProps) {
  const round = type === 'pie' || type === 'doughnut';
  const fmt = (v: number, decimals: number) => (decimals ? fmtDecimal(v, decimals) : fmtInt(v));
  const data: ChartData = {
    labels,
    datasets: series.map((s, i) =>
      round
        ? {
            label: s.label,
            data: s.values,
            backgroundColor: labels.map((_, j) => PALETTE[j % PALETTE.length]),
            borderColor: '#fff',
            borderWidth: 2,
          }
        : type === 'line'
          ? {
              label: s.label,
              data: s.values,
              borderColor: PALETTE[i % PALETTE.length],
              backgroundColor: PALETTE[i % PALETTE.length],
              tension: 0.25,
              pointRadius: 3,
            }
          : { label: s.label, data: s.values, backgroundColor: PALETTE[i % PALETTE.length], borderRadius: 3, maxBarThickness: 22 },
    ),
  };
  const max = compact ? 16 : 30;
  const valueAxis = horizontal ? 'x' : 'y';
  const labelAxis = horizontal ? 'y' : 'x';
  const options: ChartOptions = round
    ? {
        responsive: true,
        maintainAspectRatio: false,
        animation: { duration: 400 },
        plugins: {
          legend: { display: true, position: compact ? 'bottom' : 'right', labels: { boxWidth: 12 } },
          tooltip: { callbacks: { label: (item) => `${item.label}: ${fmt(Number(item.raw), series[item.datasetIndex]?.decimals ?? 0)}` } },
        },
      }
    : {
        indexAxis: horizontal ? 'y' : 'x',
        responsive: true,
        maintainAspectRatio: false,
        animation: { duration: 400 },
        plugins: {
          legend: { display: series.length > 1, position: 'bottom', labels: { boxWidth: 12 } },
          tooltip: {
            callbacks: {
              title: (items) => labels[items[0]?.dataIndex ?? 0] ?? '',
              label: (item) =>
                `${item.dataset.label}: ${fmt(Number(horizontal ? item.parsed.x : item.parsed.y), series[item.datasetIndex]?.decimals ?? 0)}`,
            },
          },
        },
        scales: {
          [valueAxis]: {
            beginAtZero: true,
            stacked,
            // figures on one line, never rotated into each other: fewer ticks on a phone, and any that
            // would still touch are skipped
            ticks: { callback: (v: string | number) => fmtInt(Number(v)), ...valueTicks(compact) },
            grid: { color: '#e3ebe3' },
          },
          [labelAxis]: {
            stacked,
            ticks: {
              autoSkip: !horizontal,
              autoSkipPadding: 8,
              maxRotation: compact ? 90 : 60,
              callback: (_v: string | number, i: number) =>
                horizontal && compact ? wrap(labels[i] ?? '', max) : clip(labels[i] ?? '', max),
              font: { size: compact ? 11 : 12 },
            },
            grid: { display: false },
          },
        },
      };
  return (
    <ChartView type={type} data={data} options={options} plugins={[drawn]} role="img" aria-label={ariaLabel} data-testid="chart-canvas" />
  );
}
