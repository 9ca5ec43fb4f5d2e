import { fileUrl } from '../api';
import { fmtDate } from '../format';
import { href } from '../router';

/** A publication as the public API gives it (text3 fields in the caller's language). */
export interface Publication {
  id: number;
  title: string;
  summary?: string | null;
  body?: string | null;
  type_id?: number | null;
  type_id_name?: string | null;
  published_at: string;
  image?: number | null;
}

/** The newest first (the API sorts so too; a page is sorted again in case). */
export const newestFirst = (a: Publication, b: Publication) => String(b.published_at).localeCompare(String(a.published_at)) || b.id - a.id;

/** One news item in a list: a small picture (lazy, sized), the date, the title as a link, the summary. */
export function NewsCard({ item, headingLevel = 2 }: { item: Publication; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className={item.image ? 'news-card' : 'news-card no-image'} data-testid="news-card" data-id={item.id}>
      {item.image ? (
        <img className="news-thumb" src={fileUrl(item.image)} alt="" width={128} height={96} loading="lazy" decoding="async" />
      ) : null}
      <div className="news-text">
        <p className="news-meta small">
          <time dateTime={String(item.published_at).slice(0, 10)}>{fmtDate(item.published_at)}</time>
          {item.type_id_name ? (
            <>
              {' '}
              · <span>{item.type_id_name}</span>
            </>
          ) : null}
        </p>
        <H className="news-title">
          <a href={href(`/news/${item.id}`)}>{item.title}</a>
        </H>
        {item.summary && <p className="news-summary">{item.summary}</p>}
      </div>
    </article>
  );
}
