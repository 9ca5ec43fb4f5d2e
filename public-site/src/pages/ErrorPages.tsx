import { EmptyState, PageTitle } from '../components/ui';
import { useI18n } from '../i18n';
import { href } from '../router';

/** /error-404 (and every unknown route), /error-403 and /error. */
export default function ErrorPages({ path, params }: { path: string; params: Record<string, string> }) {
  const { t } = useI18n();
  const kind = path === '/error-403' ? 403 : path === '/error' ? 500 : 404;
  const title = kind === 403 ? t('page.forbidden') : kind === 500 ? t('page.error') : t('page.not_found');
  const text = kind === 403 ? t('err.forbidden_text') : kind === 500 ? t('err.generic_text') : t('err.not_found_text');
  return (
    <div className="container narrow" data-testid={`error-${kind}`} data-catch-all={params.status ? 'true' : undefined}>
      <PageTitle>{title}</PageTitle>
      <EmptyState title={kind === 500 ? title : String(kind)} text={text} icon={kind === 403 ? 'lock' : 'alert'}>
        <p className="row-gap">
          <a className="btn primary" href={href('/')}>
            {t('common.back_home')}
          </a>
          {kind === 500 && (
            <button type="button" className="btn" onClick={() => window.location.reload()}>
              {t('err.reload')}
            </button>
          )}
        </p>
      </EmptyState>
    </div>
  );
}
