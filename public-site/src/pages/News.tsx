import { EmptyState, PageTitle } from '../components/ui';
import { useI18n } from '../i18n';
import { href } from '../router';

/** /news and /news/:id: the API has no news yet, so both show an empty state. */
export default function News({ params }: { params: Record<string, string> }) {
  const { t } = useI18n();
  if (params.id) {
    return (
      <div className="container narrow">
        <PageTitle>{t('page.news_item')}</PageTitle>
        <EmptyState title={t('news.not_found')} text={t('news.empty_text')} icon="news">
          <p><a className="btn" href={href('/news')}>{t('news.all')}</a></p>
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="container narrow">
      <PageTitle>{t('page.news')}</PageTitle>
      <EmptyState title={t('news.empty')} text={t('news.empty_text')} icon="news" testId="news-empty" />
    </div>
  );
}
