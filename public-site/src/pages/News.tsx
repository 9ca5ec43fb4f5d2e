import { fileUrl, qs, useLangApi, useSticky, type EntityPage } from '../api';
import { Pager, pageOf } from '../components/List';
import { newestFirst, NewsCard, type Publication } from '../components/NewsCard';
import { EmptyState, ErrorState, Loading, PageTitle } from '../components/ui';
import { fmtDate } from '../format';
import { useI18n } from '../i18n';
import { detailGate } from '../components/DetailGate';
import { href } from '../router';
import { RichText } from '../components/RichText';

const PER_PAGE = 10;

/** /news (newest first, ten a page) and /news/:id, from the public publications. */
export default function News({ params, query, path }: { params: Record<string, string>; query: URLSearchParams; path: string }) {
  return params.id ? <NewsItem id={params.id} /> : <NewsList query={query} path={path} />;
}

function NewsList({ query, path }: { query: URLSearchParams; path: string }) {
  const { t } = useI18n();
  const page = pageOf(query);
  const loaded = useLangApi<EntityPage<Publication>>(`/public/entities/publications${qs({ page, perPage: PER_PAGE })}`);
  const data = useSticky(loaded);
  return (
    <div className="container narrow">
      <PageTitle>{t('page.news')}</PageTitle>
      {loaded.error ? (
        <ErrorState error={loaded.error} retry={loaded.reload} />
      ) : !data ? (
        <Loading height={300} />
      ) : data.rows.length === 0 ? (
        <EmptyState title={t('news.empty')} text={page > 1 ? undefined : t('news.empty_text')} icon="news" testId="news-empty" />
      ) : (
        <>
          <div className="news-list" data-testid="news-list" aria-busy={loaded.loading}>
            {[...data.rows].sort(newestFirst).map((n) => (
              <NewsCard key={n.id} item={n} />
            ))}
          </div>
          <Pager path={path} query={query} total={data.total} perPage={PER_PAGE} />
        </>
      )}
    </div>
  );
}

/** A text's paragraphs (blank lines) and line breaks, as text: nothing from the API is read as HTML. */
export function Paragraphs({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <>
      {text.split(/\n\s*\n/).map((para, i) => (
        <p key={i}>{para.split('\n').map((line, j) => (j ? [<br key={j} />, line] : line))}</p>
      ))}
    </>
  );
}

function NewsItem({ id }: { id: string }) {
  const { t } = useI18n();
  const valid = /^\d{1,15}$/.test(id);
  const item = useLangApi<Publication>(valid ? `/public/entities/publications/${id}` : null);
  const gate = detailGate(valid, item, {
    title: t('page.news_item'),
    notFound: t('news.not_found'),
    notFoundText: t('news.not_found_text'),
    icon: 'news',
    testId: 'news-not-found',
    back: (
      <a className="btn" href={href('/news')}>
        {t('news.all')}
      </a>
    ),
  });
  if (gate || !item.data) return gate;
  const n = item.data;
  return (
    <article className="container narrow news-item" data-testid="news-item">
      <p className="crumbs small no-print">
        <a href={href('/news')}>← {t('news.all')}</a>
      </p>
      <PageTitle
        sub={
          <>
            <time dateTime={String(n.published_at).slice(0, 10)}>{fmtDate(n.published_at)}</time>
            {n.type_id_name ? ` · ${n.type_id_name}` : ''}
          </>
        }
      >
        {n.title}
      </PageTitle>
      {n.image && <img className="news-image" src={fileUrl(n.image)} alt="" width={720} height={405} loading="lazy" decoding="async" />}
      {n.summary && (
        <p className="lead-text" data-testid="news-summary">
          {n.summary}
        </p>
      )}
      {/* the body is rich text the server keeps to its allow-list (docs/site-content.md) */}
      <RichText html={n.body} className="prose" testId="news-body" />
    </article>
  );
}
