import { useEffect, useId, useRef } from 'react';
import { useApi, type Region } from '../api';
import { pick, useI18n } from '../i18n';
import { STATS } from '../nav';
import { href, navigate, withQuery } from '../router';
import { currentYear, programmeYears } from '../tashkent';

/** The statistics pages' own navigation: a row of links (scrolls sideways on a phone). */
export function StatsNav({ path }: { path: string }) {
  const { t } = useI18n();
  const list = useRef<HTMLUListElement>(null);
  // on a phone the row scrolls sideways: bring the current page's link into view
  useEffect(() => {
    const ul = list.current;
    const a = ul?.querySelector<HTMLElement>('[aria-current=page]');
    if (ul && a && ul.scrollWidth > ul.clientWidth) ul.scrollLeft = a.offsetLeft - ul.offsetLeft - (ul.clientWidth - a.offsetWidth) / 2;
  }, [path]);
  return (
    <nav className="stats-nav" aria-label={t('stats.nav')}>
      <ul ref={list}>
        {STATS.map((s) => (
          <li key={s.path}><a href={href(s.path)} aria-current={s.path === path ? 'page' : undefined}>{t(s.title)}</a></li>
        ))}
      </ul>
    </nav>
  );
}

export function yearOf(query: URLSearchParams): number {
  const y = Number(query.get('year'));
  return programmeYears().includes(y) ? y : currentYear();
}

export function regionOf(query: URLSearchParams): number | null {
  const r = Number(query.get('region'));
  return Number.isSafeInteger(r) && r > 0 ? r : null;
}

/** Year (and region) of a statistics page, kept in the address (#/page?year=…&region=…). */
export function StatsFilters({ path, query, region = false, regionRequired = false }: { path: string; query: URLSearchParams; region?: boolean; regionRequired?: boolean }) {
  const { t, lang } = useI18n();
  const id = useId();
  const regions = useApi<Region[]>(region ? '/public/regions' : null);
  const set = (changes: Record<string, string | number | null>) => navigate(`${path}${withQuery(query, changes)}`, { replace: true });
  const year = yearOf(query);
  const regionId = regionOf(query);
  return (
    <form className="filters" aria-label={t('common.filters')} onSubmit={(e) => e.preventDefault()}>
      <div className="field inline">
        <label htmlFor={`${id}-year`}>{t('common.year')}</label>
        <select id={`${id}-year`} value={year} onChange={(e) => set({ year: e.target.value })} data-testid="filter-year">
          {programmeYears().map((y) => <option key={y} value={y}>{y}</option>)}
        </select>
      </div>
      {region && (
        <div className="field inline grow">
          <label htmlFor={`${id}-region`}>{t('common.region')}</label>
          <select id={`${id}-region`} value={regionId ?? ''} onChange={(e) => set({ region: e.target.value || null })} data-testid="filter-region"
            disabled={!regions.data}>
            <option value="">{regionRequired ? t('common.choose_region') : t('common.all_regions')}</option>
            {(regions.data ?? []).map((r) => <option key={r.id} value={r.id}>{pick(r.name, lang)}</option>)}
          </select>
        </div>
      )}
    </form>
  );
}
