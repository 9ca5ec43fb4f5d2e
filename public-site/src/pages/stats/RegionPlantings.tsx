import { useApi, type Summary } from '../../api';
import { LazyBarChart } from '../../components/Chart';
import { StatsFilters, StatsNav, yearOf } from '../../components/Filters';
import { EmptyState, ErrorState, Loading, PageTitle } from '../../components/ui';
import { fmtInt, fmtPercent } from '../../format';
import { pick, useI18n } from '../../i18n';

/** /region-plantings-statistics: trees and plantings by region for a year, from /stats/summary. */
export default function RegionPlantings({ path, query }: { path: string; query: URLSearchParams }) {
  const { t, lang } = useI18n();
  const year = yearOf(query);
  const summary = useApi<Summary>(`/public/stats/summary?year=${year}`);
  const s = summary.data;
  const rows = s ? [...s.by_region].sort((a, b) => b.trees - a.trees) : [];
  const title = t('stats.by_region_chart', { year });
  return (
    <div className="container">
      <PageTitle>{t('page.region_plantings_stats')}</PageTitle>
      <StatsNav path={path} />
      <StatsFilters path={path} query={query} />
      {summary.error ? <ErrorState error={summary.error} retry={summary.reload} /> : !s ? <Loading height={400} /> : (
        <>
          <dl className="facts cards">
            <div><dt>{t('common.trees')}</dt><dd data-testid="stats-trees">{fmtInt(s.trees)}</dd></div>
            <div><dt>{t('common.plantings')}</dt><dd>{fmtInt(s.plantings)}</dd></div>
            <div><dt>{t('stats.done')}</dt><dd>{fmtPercent(s.progress)}</dd></div>
          </dl>
          {s.trees === 0 ? <EmptyState title={t('stats.empty')} /> : (
            <section className="card">
              <LazyBarChart caption={title} labels={rows.map((r) => pick(r.name, lang))} values={rows.map((r) => r.trees)}
                seriesLabel={t('common.trees')} ariaLabel={t('common.chart', { title })} />
            </section>
          )}
          <section className="card table-wrap">
            <table className="table" data-testid="stats-table">
              <caption className="visually-hidden">{title}</caption>
              <thead>
                <tr>
                  <th scope="col" className="num hide-narrow">{t('common.rank')}</th>
                  <th scope="col">{t('common.region')}</th>
                  <th scope="col" className="num">{t('common.trees')}</th>
                  <th scope="col" className="num">{t('common.plantings')}</th>
                  <th scope="col" className="num hide-narrow">{t('common.share')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={r.region_id}>
                    <td className="num hide-narrow">{i + 1}</td>
                    <th scope="row">{pick(r.name, lang)}</th>
                    <td className="num">{fmtInt(r.trees)}</td>
                    <td className="num">{fmtInt(r.plantings)}</td>
                    <td className="num hide-narrow">{s.trees ? fmtPercent(r.trees / s.trees) : '—'}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <td className="hide-narrow" />
                  <th scope="row">{t('common.total')}</th>
                  <td className="num" data-testid="stats-total-trees">{fmtInt(s.trees)}</td>
                  <td className="num">{fmtInt(s.plantings)}</td>
                  <td className="num hide-narrow">{s.trees ? fmtPercent(1) : '—'}</td>
                </tr>
              </tfoot>
            </table>
          </section>
        </>
      )}
    </div>
  );
}
