import { lazy, Suspense } from 'react';
import { useApi, type Benefits, type Passport } from '../api';
import { QrCode } from '../components/Qr';
import { SourceLine } from '../components/Source';
import { Gallery } from '../components/List';
import { Icon, Loading, PageTitle } from '../components/ui';
import { fmtCoord, fmtDate, fmtDecimal, fmtInt } from '../format';
import { hasKey, LANGS, pick, useI18n, type T } from '../i18n';
import { detailGate } from '../components/DetailGate';
import { href } from '../router';

const PointMap = lazy(() => import('../map/PointMap'));

/**
 * /tree/:id: a planting's public passport, with its ecosystem benefits when the API gives them;
 * printable (see the print stylesheet) with a QR code of its address.
 */
export default function TreePassport({ params }: { params: Record<string, string> }) {
  const { t, lang } = useI18n();
  const id = params.id;
  const valid = /^\d{1,15}$/.test(id);
  const p = useApi<Passport>(valid ? `/public/plantings/${id}` : null);

  const gate = detailGate(valid, p, {
    title: t('page.tree'),
    notFound: t('tree.not_found'),
    notFoundText: t('tree.not_found_text'),
    icon: 'tree',
    testId: 'tree-not-found',
    back: (
      <a className="btn primary" href={href('/map')}>
        {t('page.map')}
      </a>
    ),
  });
  if (gate || !p.data) return gate;

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
    // the responsible person's name is not public (the plantings entity's public block leaves it out)
    [t('tree.organisation'), d.organisation ? (typeof d.organisation === 'string' ? d.organisation : pick(d.organisation, lang)) : none],
    ...(d.dbh_cm != null ? [[t('tree.dbh'), `${fmtDecimal(d.dbh_cm, 1)} ${t('tree.unit_cm')}`] as [string, React.ReactNode]] : []),
    [t('tree.irrigation'), d.irrigation == null ? none : d.irrigation ? t('tree.yes') : t('tree.no')],
    [t('tree.source'), enumCaption('source', d.source)],
    [t('tree.coordinates'), `${fmtCoord(d.location.lat)}; ${fmtCoord(d.location.lng)}`],
  ];

  return (
    <article className="container passport" data-testid="passport">
      {/* a passport is one tree; a registry row of many trees is a planting's passport */}
      <PageTitle>{t(Number(d.count) > 1 ? 'tree.group_title' : 'tree.title', { id: d.id })}</PageTitle>
      <div className="passport-head">
        <Icon name="tree" className="passport-icon" />
        <div>
          <p className="species-name" data-testid="passport-species">
            {pick(d.species, lang)}
          </p>
          <p className="latin" lang="la">
            {d.latin_name}
          </p>
          <p className="muted">{enumCaption('kind', d.kind)}</p>
        </div>
        <button type="button" className="btn no-print" onClick={() => window.print()}>
          <Icon name="print" /> {t('tree.print')}
        </button>
        <figure className="passport-qr">
          <QrCode text={url} label={t('tree.qr', { url })} testId="passport-qr" />
          <figcaption className="small muted">{t('tree.qr_caption')}</figcaption>
        </figure>
      </div>
      <div className="passport-grid">
        <section className="card">
          <dl className="props">
            {rows.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section className="card">
          <h2>{t('tree.names')}</h2>
          <dl className="props names">
            {LANGS.map((l) => (
              <div key={l.code}>
                <dt>{t(`tree.lang.${l.code}`)}</dt>
                <dd lang={l.html}>{d.species[l.code]}</dd>
              </div>
            ))}
            <div>
              <dt>{t('tree.lang.la')}</dt>
              <dd lang="la">
                <i>{d.latin_name}</i>
              </dd>
            </div>
          </dl>
        </section>
        {d.benefits && <BenefitsCard b={d.benefits} t={t} />}
        <section className="card map-card">
          <h2>{t('tree.location')}</h2>
          <Suspense fallback={<Loading label={t('common.map_loading')} height={260} />}>
            <PointMap
              lat={d.location.lat}
              lng={d.location.lng}
              label={`${t('tree.location')}: ${fmtCoord(d.location.lat)}; ${fmtCoord(d.location.lng)}`}
            />
          </Suspense>
          <p className="no-print">
            <a href={href(`/map?lat=${d.location.lat}&lng=${d.location.lng}&z=16`)}>{t('tree.on_big_map')} →</a>
          </p>
        </section>
      </div>
      {d.images && d.images.length > 0 && (
        <section className="card no-print">
          <h2>{t('common.images')}</h2>
          <Gallery ids={d.images} alt={pick(d.species, lang)} urlOf={(r) => `/api/public/plantings/${d.id}/images/${r}`} />
        </section>
      )}
      <p className="print-only small">{t('tree.address', { url })}</p>
    </article>
  );
}

/** What the planting gives back each year and has stored, with where the figures come from. */
function BenefitsCard({ b, t }: { b: Benefits; t: T }) {
  const v = (x: number | string | null, digits: number, unit: string) =>
    x === null || x === undefined || x === '' ? '—' : `${fmtDecimal(x, digits)}\u00a0${unit}`;
  // many trees: tonnes rather than kilograms
  const kg = (x: number | string | null, perYear: boolean) =>
    x !== null && x !== undefined && Number(x) >= 10_000
      ? v(Number(x) / 1000, 1, t(perYear ? 'unit.t_year' : 'unit.t'))
      : v(x, 1, t(perYear ? 'unit.kg_year' : 'unit.kg'));
  return (
    <section className="card benefits" data-testid="passport-benefits">
      <h2>{t('tree.benefits')}</h2>
      <dl className="facts cards">
        <div>
          <dt>{t('tree.co2_stored')}</dt>
          <dd data-testid="benefit-co2-stored">{kg(b.co2_stored_kg, false)}</dd>
        </div>
        <div>
          <dt>{t('tree.co2_year')}</dt>
          <dd>{kg(b.co2_sequestered_kg_year, true)}</dd>
        </div>
        <div>
          <dt>{t('tree.rain_year')}</dt>
          <dd>{v(b.rain_intercepted_m3_year, 2, t('unit.m3_year'))}</dd>
        </div>
      </dl>
      <SourceLine source={b.source} />
    </section>
  );
}
