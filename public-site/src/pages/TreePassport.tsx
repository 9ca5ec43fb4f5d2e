import { lazy, Suspense } from 'react';
import { useApi, type Passport } from '../api';
import { EmptyState, ErrorState, Icon, Loading, PageTitle } from '../components/ui';
import { fmtCoord, fmtDate, fmtDecimal, fmtInt } from '../format';
import { hasKey, LANGS, pick, useI18n } from '../i18n';
import { href } from '../router';

const PointMap = lazy(() => import('../map/PointMap'));

/** /tree/:id: a planting's public passport, printable (see the print stylesheet). */
export default function TreePassport({ params }: { params: Record<string, string> }) {
  const { t, lang } = useI18n();
  const id = params.id;
  const valid = /^\d{1,15}$/.test(id);
  const p = useApi<Passport>(valid ? `/public/plantings/${id}` : null);

  if (!valid || p.error?.status === 404) {
    return (
      <div className="container narrow">
        <PageTitle>{t('page.tree')}</PageTitle>
        <EmptyState title={t('tree.not_found')} text={t('tree.not_found_text')} icon="tree" testId="tree-not-found">
          <p><a className="btn primary" href={href('/map')}>{t('page.map')}</a></p>
        </EmptyState>
      </div>
    );
  }
  if (p.error) return <div className="container narrow"><PageTitle>{t('page.tree')}</PageTitle><ErrorState error={p.error} retry={p.reload} /></div>;
  if (!p.data) return <div className="container narrow"><Loading height={400} /></div>;

  const d = p.data;
  const none = <span className="muted">{t('tree.not_specified')}</span>;
  const enumCaption = (prefix: string, v: string | null) => {
    if (!v) return none;
    const key = `${prefix}.${v}`;
    return hasKey(key) ? t(key) : v;
  };
  const url = `${window.location.origin}/#/tree/${d.id}`;
  const rows: [string, React.ReactNode][] = [
    [t('tree.count'), fmtInt(d.count)],
    [t('tree.planted_on'), fmtDate(d.planted_on)],
    [t('tree.region'), pick(d.region, lang)],
    [t('tree.place'), d.place || none],
    [t('tree.place_type'), enumCaption('place_type', d.place_type)],
    [t('tree.height'), d.height_m != null ? `${fmtDecimal(d.height_m, 2)} ${t('tree.unit_m')}` : none],
    [t('tree.circumference'), d.circumference_cm != null ? `${fmtDecimal(d.circumference_cm, 1)} ${t('tree.unit_cm')}` : none],
    [t('tree.responsible'), d.responsible || none],
    [t('tree.irrigation'), d.irrigation == null ? none : d.irrigation ? t('tree.yes') : t('tree.no')],
    [t('tree.source'), enumCaption('source', d.source)],
    [t('tree.coordinates'), `${fmtCoord(d.location.lat)}; ${fmtCoord(d.location.lng)}`],
  ];

  return (
    <article className="container passport" data-testid="passport">
      <PageTitle>{t('tree.title', { id: d.id })}</PageTitle>
      <div className="passport-head">
        <Icon name="tree" className="passport-icon" />
        <div>
          <p className="species-name" data-testid="passport-species">{pick(d.species, lang)}</p>
          <p className="latin" lang="la">{d.latin_name}</p>
          <p className="muted">{enumCaption('kind', d.kind)}</p>
        </div>
        <button type="button" className="btn no-print" onClick={() => window.print()}><Icon name="print" /> {t('tree.print')}</button>
      </div>
      <div className="passport-grid">
        <section className="card">
          <dl className="props">
            {rows.map(([k, v]) => <div key={k}><dt>{k}</dt><dd>{v}</dd></div>)}
          </dl>
        </section>
        <section className="card">
          <h2>{t('tree.names')}</h2>
          <dl className="props names">
            {LANGS.map((l) => <div key={l.code}><dt>{t(`tree.lang.${l.code}`)}</dt><dd lang={l.html}>{d.species[l.code]}</dd></div>)}
            <div><dt>{t('tree.lang.la')}</dt><dd lang="la"><i>{d.latin_name}</i></dd></div>
          </dl>
        </section>
        <section className="card map-card">
          <h2>{t('tree.location')}</h2>
          <Suspense fallback={<Loading label={t('common.map_loading')} height={260} />}>
            <PointMap lat={d.location.lat} lng={d.location.lng} label={`${t('tree.location')}: ${fmtCoord(d.location.lat)}; ${fmtCoord(d.location.lng)}`} />
          </Suspense>
          <p className="no-print"><a href={href(`/map?lat=${d.location.lat}&lng=${d.location.lng}&z=16`)}>{t('tree.on_big_map')} →</a></p>
        </section>
      </div>
      <p className="print-only small">{t('tree.address', { url })}</p>
    </article>
  );
}
