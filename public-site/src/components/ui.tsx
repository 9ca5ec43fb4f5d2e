import { useEffect, type ReactNode } from 'react';
import { useI18n, type Key } from '../i18n';
import type { ApiError } from '../api';
import { href } from '../router';

/** The page's heading, also the document's title; focused after a navigation (see App). */
export function PageTitle({ children, sub }: { children: string; sub?: ReactNode }) {
  const { t } = useI18n();
  useEffect(() => {
    document.title = `${children} — ${t('app.name')}`;
  }, [children, t]);
  return (
    <header className="page-head">
      <h1 tabIndex={-1} data-page-title>{children}</h1>
      {sub && <p className="page-sub">{sub}</p>}
    </header>
  );
}

export function Loading({ label, height }: { label?: string; height?: number }) {
  const { t } = useI18n();
  return (
    <div className="loading" role="status" style={height ? { minHeight: height } : undefined}>
      <span className="spinner" aria-hidden="true" />
      <span>{label ?? t('common.loading')}</span>
    </div>
  );
}

export function EmptyState({ title, text, icon = 'leaf', children, testId }: { title: string; text?: string; icon?: IconName; children?: ReactNode; testId?: string }) {
  return (
    <div className="empty" data-testid={testId ?? 'empty-state'}>
      <Icon name={icon} className="empty-icon" />
      <p className="empty-title">{title}</p>
      {text && <p className="empty-text">{text}</p>}
      {children}
    </div>
  );
}

/** An API error with a retry button; connection errors get their own message. */
export function ErrorState({ error, retry }: { error: ApiError; retry?: () => void }) {
  const { t } = useI18n();
  const title = error.status === 0 ? t('err.connection') : error.message || t('err.system');
  return (
    <div className="empty error-box" role="alert">
      <Icon name="alert" className="empty-icon" />
      <p className="empty-title">{title}{error.code !== undefined && error.status !== 0 ? ` (${t('err.code', { code: String(error.code) })})` : ''}</p>
      {error.description && <p className="empty-text">{error.description}</p>}
      {retry && <button type="button" className="btn" onClick={retry}>{t('common.retry')}</button>}
    </div>
  );
}

const MEANWHILE: { path: string; title: Key }[] = [
  { path: '/map', title: 'page.map' },
  { path: '/region-plantings-statistics', title: 'page.region_plantings_stats' },
  { path: '/population-seedlings', title: 'page.planting_form' },
];

/** A section whose data the public API does not give yet. */
export function ComingSoon() {
  const { t } = useI18n();
  return (
    <EmptyState title={t('soon.title')} text={t('soon.text')} icon="clock" testId="coming-soon">
      <p className="empty-text">{t('soon.meanwhile')}</p>
      <ul className="chips">
        {MEANWHILE.map((m) => <li key={m.path}><a className="chip" href={href(m.path)}>{t(m.title)}</a></li>)}
      </ul>
    </EmptyState>
  );
}

export type IconName = 'leaf' | 'map' | 'chart' | 'news' | 'alert' | 'clock' | 'menu' | 'close' | 'pin' | 'print' | 'locate' | 'tree' | 'lock' | 'check';
const PATHS: Record<IconName, string> = {
  leaf: 'M17 8C8 10 5.9 16.2 3.8 21.3l1.9.7 1-2.3c.5.2 1 .3 1.3.3C19 20 22 3 22 3c-1 2-8 2.3-13 3.3S2 11.5 2 13.5s1.8 3.8 1.8 3.8C7 8 17 8 17 8z',
  map: 'M15 5.1 9 3 3 5v16l6-2.1 6 2.1 6-2V3l-6 2.1zM15 19l-6-2.1V5l6 2.1V19z',
  chart: 'M4 20h16v2H2V2h2v18zm3-3V9h3v8H7zm5 0V5h3v12h-3zm5 0v-5h3v5h-3z',
  news: 'M20 3H4a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2zM5 7h6v6H5V7zm0 8h14v2H5v-2zm8-8h6v2h-6V7zm0 4h6v2h-6v-2z',
  alert: 'M1 21h22L12 2 1 21zm12-3h-2v-2h2v2zm0-4h-2v-4h2v4z',
  clock: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 11h-5v-2h3V6h2v7z',
  menu: 'M3 6h18v2H3V6zm0 5h18v2H3v-2zm0 5h18v2H3v-2z',
  close: 'M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 12z',
  pin: 'M12 2a7 7 0 0 0-7 7c0 5.3 7 13 7 13s7-7.7 7-13a7 7 0 0 0-7-7zm0 9.5a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z',
  print: 'M19 8H5a3 3 0 0 0-3 3v6h4v4h12v-4h4v-6a3 3 0 0 0-3-3zm-3 11H8v-5h8v5zm3-7a1 1 0 1 1 0-2 1 1 0 0 1 0 2zm-1-9H6v4h12V3z',
  locate: 'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm8.9 3A9 9 0 0 0 13 3.1V1h-2v2.1A9 9 0 0 0 3.1 11H1v2h2.1a9 9 0 0 0 7.9 7.9V23h2v-2.1a9 9 0 0 0 7.9-7.9H23v-2h-2.1zM12 19a7 7 0 1 1 0-14 7 7 0 0 1 0 14z',
  tree: 'M12 2 5 12h3l-4 6h7v4h2v-4h7l-4-6h3L12 2z',
  lock: 'M18 8h-1V6A5 5 0 0 0 7 6v2H6a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V10a2 2 0 0 0-2-2zM9 6a3 3 0 0 1 6 0v2H9V6zm3 11a2 2 0 1 1 0-4 2 2 0 0 1 0 4z',
  check: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2z',
};

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg className={`icon ${className ?? ''}`} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
