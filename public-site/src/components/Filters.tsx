import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
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
          <li key={s.path}>
            <a href={href(s.path)} aria-current={s.path === path ? 'page' : undefined}>
              {t(s.title)}
            </a>
          </li>
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

/** Changes a page's filters in place (no scroll, no new history entry); a filter change goes back to page 1. */
export function useSetQuery(path: string, query: URLSearchParams) {
  return (changes: Record<string, string | number | null>) =>
    navigate(`${path}${withQuery(query, { page: null, ...changes })}`, { replace: true });
}

/**
 * A page's filters, kept in the address (#/page?year=…&region=…&q=…): the year, the region (all,
 * or one to choose), a search box, and anything else the page adds (children).
 */
export function StatsFilters({
  path,
  query,
  year = true,
  region = false,
  regionRequired = false,
  search,
  children,
}: {
  path: string;
  query: URLSearchParams;
  year?: boolean;
  region?: boolean;
  regionRequired?: boolean;
  /** the search box's label: the page searches by `q` */
  search?: string;
  children?: ReactNode;
}) {
  const { t, lang } = useI18n();
  const id = useId();
  const regions = useApi<Region[]>(region ? '/public/regions' : null);
  const set = useSetQuery(path, query);
  const regionId = regionOf(query);
  return (
    <form className="filters" aria-label={t('common.filters')} onSubmit={(e) => e.preventDefault()} role="search">
      {year && (
        <div className="field inline">
          <label htmlFor={`${id}-year`}>{t('common.year')}</label>
          <select id={`${id}-year`} value={yearOf(query)} onChange={(e) => set({ year: e.target.value })} data-testid="filter-year">
            {programmeYears().map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </div>
      )}
      {region && (
        <div className="field inline grow">
          <label htmlFor={`${id}-region`}>{t('common.region')}</label>
          <select
            id={`${id}-region`}
            value={regionId ?? ''}
            onChange={(e) => set({ region: e.target.value || null })}
            data-testid="filter-region"
            disabled={!regions.data}
          >
            <option value="">{regionRequired ? t('common.choose_region') : t('common.all_regions')}</option>
            {(regions.data ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {pick(r.name, lang)}
              </option>
            ))}
          </select>
        </div>
      )}
      {children}
      {search && <SearchBox label={search} value={query.get('q') ?? ''} onChange={(q) => set({ q: q || null })} />}
    </form>
  );
}

/** A search box that changes the address a moment after typing stops (and at once on Enter). */
export function SearchBox({ label, value, onChange }: { label: string; value: string; onChange: (q: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const last = useRef(value);
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(value);
    }
  }, [value]);
  const commit = (q: string) => {
    clearTimeout(timer.current);
    const v = q.trim();
    if (v === last.current) return;
    last.current = v;
    onChange(v);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div className="field inline grow">
      <label htmlFor={`${id}-q`}>{label}</label>
      <input
        id={`${id}-q`}
        type="search"
        value={text}
        maxLength={100}
        autoComplete="off"
        data-testid="filter-q"
        onChange={(e) => {
          const v = e.target.value;
          setText(v);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(v), 400);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit(text);
          }
        }}
      />
    </div>
  );
}

/** Tabs that filter a list (kind, period): buttons that say which one is chosen. */
export function FilterTabs<V extends string>({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: V;
  options: { value: V; label: string }[];
  onChange: (v: V) => void;
  testId?: string;
}) {
  return (
    <div className="tabs" role="group" aria-label={label} data-testid={testId}>
      {options.map((o) => (
        <button key={o.value} type="button" aria-pressed={o.value === value} data-value={o.value} onClick={() => onChange(o.value)}>
          {o.label}
        </button>
      ))}
    </div>
  );
}
