import { lazy, Suspense, useEffect, useState } from 'react';
import { useI18n } from '../i18n';
import type { BarChartProps } from '../charts/BarChart';
import type { ReportChartProps } from '../charts/ReportChart';
import { Loading } from './ui';

const BarChart = lazy(() => import('../charts/BarChart'));
const ReportChart = lazy(() => import('../charts/ReportChart'));

export function useNarrow(): boolean {
  const q = '(max-width: 599px)';
  const [narrow, setNarrow] = useState(() => window.matchMedia(q).matches);
  useEffect(() => {
    const m = window.matchMedia(q);
    const on = () => setNarrow(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return narrow;
}

/** A bar chart (lazy chunk) in a figure whose height follows the number of bars. */
export function LazyBarChart(props: Omit<BarChartProps, 'compact'> & { caption?: string }) {
  const { t } = useI18n();
  const narrow = useNarrow();
  const height = Math.max(160, props.labels.length * (narrow ? 32 : 30) + 50);
  return (
    <figure className="chart" data-testid="chart">
      {props.caption && <figcaption>{props.caption}</figcaption>}
      <div className="chart-box" style={{ height }}>
        <Suspense fallback={<Loading label={t('common.chart_loading')} height={height} />}>
          <BarChart {...props} compact={narrow} />
        </Suspense>
      </div>
    </figure>
  );
}

/**
 * A report's chart (lazy chunk): bars run sideways when there are many labels or the screen is
 * narrow (long region names stay readable at 360 px); the figure's height follows the bars.
 */
export function LazyReportChart(props: Omit<ReportChartProps, 'compact'> & { caption?: string }) {
  const { t } = useI18n();
  const narrow = useNarrow();
  const horizontal = props.type === 'bar' && (props.horizontal || narrow || props.labels.length > 10);
  const round = props.type === 'pie' || props.type === 'doughnut';
  const perBar = Math.max(1, props.stacked ? 1 : props.series.length);
  const height = round
    ? narrow
      ? 340
      : 320
    : horizontal
      ? Math.max(180, props.labels.length * Math.min(60, (narrow ? 22 : 20) + 10 * perBar) + 70)
      : narrow
        ? 280
        : 340;
  return (
    <figure className="chart" data-testid="chart">
      {props.caption && <figcaption>{props.caption}</figcaption>}
      <div className="chart-box" style={{ height }}>
        <Suspense fallback={<Loading label={t('common.chart_loading')} height={height} />}>
          <ReportChart {...props} horizontal={horizontal} compact={narrow} />
        </Suspense>
      </div>
    </figure>
  );
}
