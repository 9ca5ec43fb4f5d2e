import { fileUrl } from '../api';
import { fmtInt } from '../format';
import { hasKey, useI18n } from '../i18n';
import { href, withQuery } from '../router';
import { scrollToTop } from '../scroll';

/** The page of a list from the address (?page=2), 1-based. */
export function pageOf(query: URLSearchParams): number {
  const p = Number(query.get('page'));
  return Number.isSafeInteger(p) && p > 1 ? p : 1;
}

/** Previous / next and "page 2 of 7" under a list; links, so the browser's back goes back a page. */
export function Pager({ path, query, total, perPage }: { path: string; query: URLSearchParams; total: number; perPage: number }) {
  const { t } = useI18n();
  const page = pageOf(query);
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (pages <= 1) return null;
  const link = (p: number) => href(`${path}${withQuery(query, { page: p === 1 ? null : p })}`);
  return (
    <nav className="pager" aria-label={t('list.pages')} data-testid="pager">
      {page > 1 ? (
        <a className="btn" href={link(page - 1)} rel="prev" onClick={() => scrollToTop()} data-testid="pager-prev">
          ← {t('list.prev')}
        </a>
      ) : (
        <span />
      )}
      <span className="pager-info" aria-current="page">
        {t('list.page_of', { page, pages })}
      </span>
      {page < pages ? (
        <a className="btn" href={link(page + 1)} rel="next" onClick={() => scrollToTop()} data-testid="pager-next">
          {t('list.next')} →
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** "Found: 12" above a list. */
export function Found({ total }: { total: number }) {
  const { t } = useI18n();
  return (
    <p className="muted small" role="status" data-testid="list-total">
      {t('list.found', { n: fmtInt(total) })}
    </p>
  );
}

/** An enumeration's value in the current language: `<prefix>.<value>` if the site has it, else the value. */
export function useEnum() {
  const { t } = useI18n();
  return (prefix: string, v: unknown): string => {
    if (v === null || v === undefined || v === '') return '';
    const key = `${prefix}.${String(v)}`;
    return hasKey(key) ? t(key) : String(v);
  };
}

/** A row's pictures: small, lazily loaded, sized (no jumping), each opening the full picture. */
export function Gallery({
  ids,
  alt,
  urlOf = fileUrl,
}: {
  ids: (number | string)[] | null | undefined;
  alt: string;
  urlOf?: (id: number | string) => string;
}) {
  const { t } = useI18n();
  if (!ids?.length) return null;
  return (
    <ul className="gallery" aria-label={t('common.images')}>
      {ids.map((id, i) => (
        <li key={id}>
          <a href={urlOf(id)} target="_blank" rel="noopener">
            <img src={urlOf(id)} alt={`${alt} — ${i + 1}`} width={240} height={160} loading="lazy" decoding="async" />
            <span className="visually-hidden"> {t('common.new_window')}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
