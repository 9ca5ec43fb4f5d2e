import { BarElement, CategoryScale, Chart, LinearScale, Tooltip, type ChartOptions } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { fmtInt } from '../format';
import { clip, drawn, valueTicks, wrap } from './labels';

/**
 * Chart.js, in its own chunk (loaded by components/Chart.tsx): horizontal bars, numbers formatted
 * by hand (space thousands) so Chart.js's Intl never sees our language codes.
 */
Chart.register(CategoryScale, LinearScale, BarElement, Tooltip);

export interface BarChartProps {
  labels: string[];
  /** full names for tooltips when the axis shows shortened ones */
  fullLabels?: string[];
  values: number[];
  seriesLabel: string;
  ariaLabel: string;
  color?: string;
  compact?: boolean;
}

export default function BarChart({ labels, fullLabels, values, seriesLabel, ariaLabel, color = '#2e7d32', compact }: BarChartProps) {
  const max = compact ? 16 : 34;
  const options: ChartOptions<'bar'> = {
    indexAxis: 'y',
    responsive: true,
    maintainAspectRatio: false,
    animation: { duration: 400 },
    plugins: {
      legend: { display: false },
      tooltip: {
        callbacks: {
          title: (items) => (fullLabels ?? labels)[items[0]?.dataIndex ?? 0] ?? '',
          label: (item) => `${seriesLabel}: ${fmtInt(item.parsed.x)}`,
        },
      },
    },
    scales: {
      x: { beginAtZero: true, ticks: { callback: (v) => fmtInt(Number(v)), ...valueTicks(compact) }, grid: { color: '#e3ebe3' } },
      y: {
        ticks: {
          autoSkip: false,
          callback: (_v, i) => (compact ? wrap(labels[i] ?? '', max) : clip(labels[i] ?? '', max)),
          font: { size: compact ? 11 : 12 },
        },
        grid: { display: false },
      },
    },
  };
  return (
    <Bar
      data={{ labels, datasets: [{ label: seriesLabel, data: values, backgroundColor: color, borderRadius: 3, maxBarThickness: 22 }] }}
      options={options}
      plugins={[drawn]}
      role="img"
      aria-label={ariaLabel}
      data-testid="chart-canvas"
    />
  );
}
