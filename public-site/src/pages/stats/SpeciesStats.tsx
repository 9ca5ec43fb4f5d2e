import { useApi, type SpeciesStat } from '../../api';
import { LazyBarChart } from '../../components/Chart';
import { regionOf, StatsFilters, StatsNav, yearOf } from '../../components/Filters';
import { EmptyState, ErrorState, Loading, PageTitle } from '../../components/ui';
import { fmtInt, fmtPercent } from '../../format';
import { hasKey, pick, useI18n } from '../../i18n';

const TOP = 15;

/**
 * /trees-types-statistics (the country) and /region-trees-types-statistics (one region, chosen):
 * trees by species for a year from /stats/species — a chart of the most planted and the full table.
 */
export default function SpeciesStats({ path, query }: { path: string; query: URLSearchParams }) {
  const { t, lang } = useI18n();
  const byRegion = path === '/region-trees-types-statistics';
  const year = yearOf(query);
  const region = regionOf(query);
  const api = byRegion && !region ? null : `/public/stats/species?year=${year}${region ? `&region_id=${region}` : ''}`;
  const stats = useApi<SpeciesStat[]>(api);
  const rows = stats.data ?? [];
  const total = rows.reduce((s, r) => s + r.trees, 0);
  const kinds = new Map<string, number>();
  for (const r of rows) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + r.trees);
  const kindName = (k: string) => { const key = `kind.${k}`; return hasKey(key) ? t(key) : k; };
  const title = t('stats.species_chart', { year });
  const top = rows.slice(0, TOP);

  return (
    <div className="container">
      <PageTitle>{t(byRegion ? 'page.region_species_stats' : 'page.species_stats')}</PageTitle>
      <StatsNav path={path} />
      <StatsFilters path={path} query={query} region={byRegion} regionRequired={byRegion} />
      {!api ? <EmptyState title={t('stats.region_hint')} icon="map" testId="region-hint" />
        : stats.error ? <ErrorState error={stats.error} retry={stats.reload} />
          : !stats.data ? <Loading height={400} />
            : rows.length === 0 ? <EmptyState title={t('stats.empty')} /> : (
              <>
                <dl className="facts cards">
                  <div><dt>{t('common.trees')}</dt><dd data-testid="stats-trees">{fmtInt(total)}</dd></div>
                  <div><dt>{t('stats.species_count')}</dt><dd>{fmtInt(rows.length)}</dd></div>
                  {[...kinds].map(([k, n]) => <div key={k}><dt>{kindName(k)}</dt><dd>{fmtInt(n)}</dd></div>)}
                </dl>
                <section className="card">
                  <LazyBarChart caption={title} labels={top.map((r) => pick(r.name, lang))} fullLabels={top.map((r) => `${pick(r.name, lang)} (${r.latin_name})`)}
                    values={top.map((r) => r.trees)} seriesLabel={t('common.trees')} ariaLabel={t('common.chart', { title })} color="#558b2f" />
                </section>
                <section className="card table-wrap">
                  <table className="table" data-testid="stats-table">
                    <caption className="visually-hidden">{title}</caption>
                    <thead>
                      <tr>
                        <th scope="col" className="num hide-narrow">{t('common.rank')}</th>
                        <th scope="col">{t('common.species')}</th>
                        <th scope="col" className="hide-narrow">{t('common.kind')}</th>
                        <th scope="col" className="num">{t('common.trees')}</th>
                        <th scope="col" className="num">{t('common.share')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((r, i) => (
                        <tr key={r.species_id}>
                          <td className="num hide-narrow">{i + 1}</td>
                          <th scope="row">{pick(r.name, lang)} <i className="latin" lang="la">{r.latin_name}</i></th>
                          <td className="hide-narrow">{kindName(r.kind)}</td>
                          <td className="num">{fmtInt(r.trees)}</td>
                          <td className="num">{fmtPercent(total ? r.trees / total : 0)}</td>
                        </tr>
                      ))}
                    </tbody>
                    <tfoot>
                      <tr><td className="hide-narrow" /><th scope="row">{t('common.total')}</th><td className="hide-narrow" /><td className="num" data-testid="stats-total-trees">{fmtInt(total)}</td><td className="num">{fmtPercent(1)}</td></tr>
                    </tfoot>
                  </table>
                </section>
              </>
            )}
    </div>
  );
}
