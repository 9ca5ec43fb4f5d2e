import { useApi, type Summary } from '../../api';
import { StatsFilters, StatsNav, yearOf } from '../../components/Filters';
import { EmptyState, ErrorState, Loading, PageTitle } from '../../components/ui';
import { fmtInt, fmtPercent } from '../../format';
import { useI18n } from '../../i18n';

/**
 * /to-do-pantings-statistics: the plan. The public API gives only the national aim and this
 * year's count; plans by region and organisation are not public yet (an empty state says so).
 */
export default function TodoStats({ path, query }: { path: string; query: URLSearchParams }) {
  const { t } = useI18n();
  const year = yearOf(query);
  const summary = useApi<Summary>(`/public/stats/summary?year=${year}`);
  const s = summary.data;
  return (
    <div className="container">
      <PageTitle>{t('page.todo_stats')}</PageTitle>
      <StatsNav path={path} />
      <StatsFilters path={path} query={query} />
      {summary.error ? <ErrorState error={summary.error} retry={summary.reload} /> : !s ? <Loading height={200} /> : (
        <section className="card">
          <dl className="facts cards">
            <div><dt>{t('stats.goal')}</dt><dd>{fmtInt(s.goal)}</dd></div>
            <div><dt>{t('stats.done')}</dt><dd data-testid="stats-trees">{fmtInt(s.trees)}</dd></div>
            <div><dt>{t('stats.remaining')}</dt><dd>{fmtInt(Math.max(0, s.goal - s.trees))}</dd></div>
          </dl>
          <div className="progress" role="progressbar" aria-label={t('landing.progress')} aria-valuemin={0} aria-valuemax={100}
            aria-valuenow={Math.round(s.progress * 10000) / 100} aria-valuetext={fmtPercent(s.progress)}>
            <span style={{ width: `${Math.min(100, s.progress * 100)}%` }} />
          </div>
          <p className="progress-text"><span>{t('landing.progress')}</span> <strong>{fmtPercent(s.progress)}</strong></p>
        </section>
      )}
      <EmptyState title={t('soon.title')} text={t('stats.plans_soon')} icon="clock" testId="coming-soon" />
    </div>
  );
}
