import { useEffect, type ReactNode } from 'react';
import { useI18n } from '../i18n';
import type { ApiError } from '../api';

/** The page's heading, also the document's title; focused after a navigation (see App). */
export function PageTitle({ children, sub }: { children: string; sub?: ReactNode }) {
  const { t } = useI18n();
  useEffect(() => {
    document.title = `${children} — ${t('app.name')}`;
  }, [children, t]);
  return (
    <header className="page-head">
      <h1 tabIndex={-1} data-page-title>
        {children}
      </h1>
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

export function EmptyState({
  title,
  text,
  icon = 'leaf',
  children,
  testId,
}: {
  title: string;
  text?: string;
  icon?: IconName;
  children?: ReactNode;
  testId?: string;
}) {
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
      <p className="empty-title">
        {title}
        {error.code !== undefined && error.status !== 0 ? ` (${t('err.code', { code: String(error.code) })})` : ''}
      </p>
      {error.description && <p className="empty-text">{error.description}</p>}
      {retry && (
        <button type="button" className="btn" onClick={retry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}

export type IconName =
  | 'leaf'
  | 'map'
  | 'chart'
  | 'news'
  | 'alert'
  | 'clock'
  | 'menu'
  | 'close'
  | 'pin'
  | 'print'
  | 'locate'
  | 'tree'
  | 'lock'
  | 'check'
  | 'download'
  | 'phone'
  | 'mail'
  | 'info'
  | 'image'
  | 'chevron'
  | 'play';
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
  locate:
    'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm8.9 3A9 9 0 0 0 13 3.1V1h-2v2.1A9 9 0 0 0 3.1 11H1v2h2.1a9 9 0 0 0 7.9 7.9V23h2v-2.1a9 9 0 0 0 7.9-7.9H23v-2h-2.1zM12 19a7 7 0 1 1 0-14 7 7 0 0 1 0 14z',
  tree: 'M12 2 5 12h3l-4 6h7v4h2v-4h7l-4-6h3L12 2z',
  lock: 'M18 8h-1V6A5 5 0 0 0 7 6v2H6a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V10a2 2 0 0 0-2-2zM9 6a3 3 0 0 1 6 0v2H9V6zm3 11a2 2 0 1 1 0-4 2 2 0 0 1 0 4z',
  check: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2z',
  download: 'M5 20h14v-2H5v2zM19 9h-4V3H9v6H5l7 7 7-7z',
  phone:
    'M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.57a1 1 0 0 1-.25 1L6.6 10.8z',
  mail: 'M20 4H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2zm0 4-8 5-8-5V6l8 5 8-5v2z',
  info: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 15h-2v-6h2v6zm0-8h-2V7h2v2z',
  image: 'M21 19V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2zM8.5 13.5l2.5 3 3.5-4.5 4.5 6H5l3.5-4.5z',
  chevron: 'M8.6 16.6 13.2 12 8.6 7.4 10 6l6 6-6 6z',
  play: 'M8 5v14l11-7L8 5z',
};

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg className={`icon ${className ?? ''}`} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
