import { useI18n } from '../i18n';

/** Where the ecosystem benefits' figures come from, as the API names it (a line, or an object). */
export type BenefitsSource =
  | string
  | { citation?: string; label?: string; title?: string; authors?: string; year?: number; url?: string }
  | null
  | undefined;

/**
 * The benefits' source line: the API's short wording (else the site's own caption naming i-Tree
 * Streets, Interior West), a link to the publication, and that the figures are an estimate.
 */
export function SourceLine({ source }: { source: BenefitsSource }) {
  const { t } = useI18n();
  const s = typeof source === 'string' ? { label: source } : (source ?? {});
  // the citation is a proper name; the English label is the fallback of an older API
  const text = s.citation || s.label || s.title || t('eco.source_default');
  return (
    <p className="source-line small" data-testid="benefits-source">
      {t('eco.source', { source: text })}
      {s.url && (
        <>
          {' '}
          (
          <a href={s.url} target="_blank" rel="noopener">
            {t('eco.source_link')}
            <span className="visually-hidden"> {t('common.new_window')}</span>
          </a>
          )
        </>
      )}
      {'. '}
      {t('eco.estimate')}
    </p>
  );
}
