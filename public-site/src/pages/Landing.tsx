import { useEffect } from 'react';
import { useApi, useLangApi, type EntityPage, type SiteContent, type Summary } from '../api';
import { RichText } from '../components/RichText';
import { newestFirst, NewsCard, type Publication } from '../components/NewsCard';
import { LazyBarChart } from '../components/Chart';
import { EmptyState, ErrorState, Icon, Loading } from '../components/ui';
import { fmtInt, fmtPercent } from '../format';
import { pick, useI18n } from '../i18n';
import { href } from '../router';
import { scrollToId } from '../scroll';
import { currentYear } from '../tashkent';

/**
 * The landing page: this year's count against the 200 million aim, a chart by region (lazy chunk),
 * and the three newest publications. Kept light: no map, no chart code up front.
 */
export function Landing() {
  const { t, lang } = useI18n();
  const year = currentYear();
  const summary = useApi<Summary>(`/public/stats/summary?year=${year}`);
  const s = summary.data;
  const regions = s ? [...s.by_region].sort((a, b) => b.trees - a.trees) : [];

  const jump = (id: string) => (e: React.MouseEvent) => {
    e.preventDefault();
    history.replaceState(history.state, '', `#/#${id}`);
    scrollToId(id);
  };

  return (
    <div className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <div className="container">
          <p className="eyebrow">{t('app.tagline')}</p>
          <h1 id="hero-title" tabIndex={-1} data-page-title>
            {t('landing.title')}
          </h1>
          <p className="lead">{t('landing.lead')}</p>
          <DocumentTitle />
        </div>
      </section>

      <nav className="container section-nav" aria-label={t('common.section_nav')}>
        <a href="#/#progress" onClick={jump('progress')}>
          {t('landing.sec_progress')}
        </a>
        <a href="#/#regions" onClick={jump('regions')}>
          {t('landing.sec_regions')}
        </a>
        <a href="#/#news" onClick={jump('news')}>
          {t('landing.sec_news')}
        </a>
      </nav>

      <section id="progress" className="container card progress-card" aria-labelledby="progress-title">
        <h2 id="progress-title" className="visually-hidden">
          {t('landing.sec_progress')}
        </h2>
        {summary.error ? (
          <ErrorState error={summary.error} retry={summary.reload} />
        ) : !s ? (
          <Loading height={150} />
        ) : (
          <>
            <p className="count-label">{t('landing.planted_year', { year: s.year })}</p>
            <p className="big-count" data-testid="landing-trees">
              {fmtInt(s.trees)}
            </p>
            <p className="goal">{t('landing.of_goal', { goal: fmtInt(s.goal) })}</p>
            <div
              className="progress"
              role="progressbar"
              aria-label={t('landing.progress')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(s.progress * 10000) / 100}
              aria-valuetext={fmtPercent(s.progress)}
            >
              <span style={{ width: `${Math.min(100, s.progress * 100)}%` }} />
            </div>
            <p className="progress-text">
              <span>{t('landing.progress')}</span> <strong data-testid="landing-progress">{fmtPercent(s.progress)}</strong>
            </p>
            <dl className="facts">
              <div>
                <dt>{t('common.plantings')}</dt>
                <dd data-testid="landing-plantings">{fmtInt(s.plantings)}</dd>
              </div>
              <div>
                <dt>{t('landing.by_registry')}</dt>
                <dd>{fmtInt(s.by_source.registry ?? 0)}</dd>
              </div>
              <div>
                <dt>{t('landing.by_public')}</dt>
                <dd>{fmtInt(s.by_source.public ?? 0)}</dd>
              </div>
            </dl>
            <p className="muted small">{t('landing.updated')}</p>
          </>
        )}
      </section>

      <section className="container cta-grid" aria-label={t('nav.main')}>
        <a className="cta-card" href={href('/map')}>
          <Icon name="map" />
          <span>
            <strong>{t('landing.cta_map')}</strong>
            <small>{t('landing.cta_map_text')}</small>
          </span>
        </a>
        <a className="cta-card accent" href={href('/population-seedlings')}>
          <Icon name="tree" />
          <span>
            <strong>{t('landing.cta_plant')}</strong>
            <small>{t('landing.cta_plant_text')}</small>
          </span>
        </a>
        <a className="cta-card" href={href('/region-plantings-statistics')}>
          <Icon name="chart" />
          <span>
            <strong>{t('landing.cta_stats')}</strong>
            <small>{t('landing.cta_stats_text')}</small>
          </span>
        </a>
      </section>

      <section id="regions" className="container card" aria-labelledby="regions-title">
        <h2 id="regions-title">{t('landing.regions_title', { year })}</h2>
        {summary.error ? null : !s ? (
          <Loading height={300} />
        ) : s.trees === 0 ? (
          <EmptyState title={t('stats.empty')} />
        ) : (
          <>
            <LazyBarChart
              labels={regions.map((r) => pick(r.name, lang))}
              values={regions.map((r) => r.trees)}
              seriesLabel={t('common.trees')}
              ariaLabel={t('common.chart', { title: t('landing.regions_title', { year }) })}
            />
            <details className="table-details">
              <summary>{t('common.show_table')}</summary>
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">{t('common.region')}</th>
                    <th scope="col" className="num">
                      {t('common.trees')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {regions.map((r) => (
                    <tr key={r.region_id}>
                      <th scope="row">{pick(r.name, lang)}</th>
                      <td className="num">{fmtInt(r.trees)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </>
        )}
        <p>
          <a className="more" href={href('/region-plantings-statistics')}>
            {t('landing.regions_more')} →
          </a>
        </p>
      </section>

      <LatestNews />
      <LandingBlocks />
    </div>
  );
}

/** The three newest publications. */
function LatestNews() {
  const { t } = useI18n();
  const news = useLangApi<EntityPage<Publication>>('/public/entities/publications?page=1&perPage=3');
  const rows = news.data ? [...news.data.rows].sort(newestFirst).slice(0, 3) : [];
  return (
    <section id="news" className="container card" aria-labelledby="news-title">
      <h2 id="news-title">{t('landing.sec_news')}</h2>
      {news.error ? (
        <ErrorState error={news.error} retry={news.reload} />
      ) : !news.data ? (
        <Loading height={200} />
      ) : rows.length === 0 ? (
        <EmptyState title={t('news.empty')} text={t('news.empty_text')} icon="news" testId="news-empty" />
      ) : (
        <>
          <div className="news-list compact" data-testid="latest-news">
            {rows.map((n) => (
              <NewsCard key={n.id} item={n} headingLevel={3} />
            ))}
          </div>
          <p>
            <a className="more" href={href('/news')}>
              {t('news.all')} →
            </a>
          </p>
        </>
      )}
    </section>
  );
}

/** The landing's blocks edited in the back-office (site section `landing`); none, nothing shown. */
function LandingBlocks() {
  const { t } = useI18n();
  const blocks = useLangApi<EntityPage<SiteContent>>('/public/entities/site-content?section_code=landing&perPage=20');
  return (
    <>
      {(blocks.data?.rows ?? []).map((b) => (
        <section key={b.id} className="container card prose" data-testid={`landing-${b.code}`}>
          {b.title && <h2>{b.title}</h2>}
          <RichText html={b.body} />
          {b.code === 'landing-suggest' && (
            <p>
              <a className="btn primary" href={href('/suggestion')}>
                {t('page.suggestion')}
              </a>
            </p>
          )}
        </section>
      ))}
    </>
  );
}

function DocumentTitle() {
  const { t } = useI18n();
  useEffect(() => {
    document.title = `${t('app.name')} — ${t('landing.title')}`;
  }, [t]);
  return null;
}
