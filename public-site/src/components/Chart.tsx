import { lazy, Suspense, useEffect, useState } from 'react';
import { useI18n } from '../i18n';
import type { BarChartProps } from '../charts/BarChart';
import { Loading } from './ui';

const BarChart = lazy(() => import('../charts/BarChart'));

function useNarrow(): boolean {
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
