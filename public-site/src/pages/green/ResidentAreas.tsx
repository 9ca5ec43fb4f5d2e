import { lazy, Suspense } from 'react';
import { qs, useApi, useLangApi, useSticky, type EntityPage, type LatLngValue, type Ring, type Species } from '../../api';
import { regionOf, StatsFilters } from '../../components/Filters';
import { Found, Pager, pageOf, useEnum } from '../../components/List';
import { EmptyState, ErrorState, Icon, Loading, PageTitle } from '../../components/ui';
import { fmtDecimal, fmtInt, fmtPercent } from '../../format';
import { pick, useI18n } from '../../i18n';
import { detailGate } from '../../components/DetailGate';
import { href, navigate } from '../../router';
import { Paragraphs } from '../News';

const FeatureMap = lazy(() => import('../../map/FeatureMap'));

/** A place where residents may plant (`resident-planting-areas`, public fields). */
interface ResidentArea {
  id: number;
  name: string;
  region_id: number;
  region_id_name?: string;
  area_id_name?: string | null;
  address?: string | null;
  shape?: Ring | null;
  location?: LatLngValue | null;
  area_ha?: string | null;
  capacity?: number | null;
  planted?: number | null;
  recommended_species?: number[] | null;
  recommended_species_names?: string[] | null;
  status?: 'open' | 'full' | 'closed' | null;
  contact_phone?: string | null;
  info?: string | null;
}

const PER_PAGE = 20;
const AREA_COLOR = '#6a1b9a';

/** /resident-planting-areas (a list and their outlines on a map) and /resident-planting-areas/:id. */
export default function ResidentAreas({ params, query, path }: { params: Record<string, string>; query: URLSearchParams; path: string }) {
  return params.id ? <ResidentAreaItem id={params.id} /> : <ResidentAreaList query={query} path={path} />;
}

function Fill({ a }: { a: ResidentArea }) {
  const { t } = useI18n();
  if (!a.capacity) return null;
  const share = Math.min(1, (a.planted ?? 0) / a.capacity);
  return (
    <>
      <div
        className="progress thin"
        role="progressbar"
        aria-label={t('rpa.filled')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
        aria-valuetext={fmtPercent(share)}
      >
        <span style={{ width: `${share * 100}%` }} />
      </div>
      <p className="small">{t('rpa.planted_of', { planted: fmtInt(a.planted ?? 0), capacity: fmtInt(a.capacity) })}</p>
    </>
  );
}

function ResidentAreaList({ query, path }: { query: URLSearchParams; path: string }) {
  const { t } = useI18n();
  const enumOf = useEnum();
  const page = pageOf(query);
  const loaded = useLangApi<EntityPage<ResidentArea>>(
    `/public/entities/resident-planting-areas${qs({ page, perPage: PER_PAGE, region_id: regionOf(query), q: query.get('q') })}`,
  );
  const data = useSticky(loaded);
  return (
    <div className="container">
      <PageTitle sub={t('rpa.lead')}>{t('page.resident_areas')}</PageTitle>
      <StatsFilters path={path} query={query} year={false} region search={t('list.search_name')} />
      {loaded.error ? (
        <ErrorState error={loaded.error} retry={loaded.reload} />
      ) : !data ? (
        <Loading height={300} />
      ) : data.rows.length === 0 ? (
        <EmptyState title={t('list.empty')} icon="pin" />
      ) : (
        <>
          <section className="card map-card">
            <h2 className="visually-hidden">{t('common.on_map')}</h2>
            <Suspense fallback={<Loading label={t('common.map_loading')} height={320} />}>
              <FeatureMap
                height={340}
                color={AREA_COLOR}
                labels
                label={t('rpa.map_label')}
                onOpen={(id) => navigate(`/resident-planting-areas/${id}`)}
                items={data.rows.map((a) => ({ id: a.id, lat: a.location?.lat, lng: a.location?.lng, shape: a.shape, title: a.name }))}
              />
            </Suspense>
          </section>
          <Found total={data.total} />
          <ul className="cards-grid" data-testid="rpa-list" aria-busy={loaded.loading}>
            {data.rows.map((a) => (
              <li key={a.id} className="item-card" data-testid="rpa-card">
                <div className="item-body">
                  {a.status && <p className={`pill status-${a.status}`}>{enumOf('rpa.status', a.status)}</p>}
                  <h2 className="item-title">
                    <a href={href(`/resident-planting-areas/${a.id}`)}>{a.name}</a>
                  </h2>
                  <p className="muted small">{[a.region_id_name, a.area_id_name, a.address].filter(Boolean).join(', ')}</p>
                  <Fill a={a} />
                </div>
              </li>
            ))}
          </ul>
          <Pager path={path} query={query} total={data.total} perPage={PER_PAGE} />
        </>
      )}
    </div>
  );
}

function ResidentAreaItem({ id }: { id: string }) {
  const { t, lang } = useI18n();
  const enumOf = useEnum();
  const valid = /^\d{1,15}$/.test(id);
  const item = useLangApi<ResidentArea>(valid ? `/public/entities/resident-planting-areas/${id}` : null);
  const species = useApi<Species[]>('/public/species');
  const gate = detailGate(valid, item, {
    title: t('page.resident_area'),
    notFound: t('list.not_found'),
    icon: 'pin',
    testId: 'not-found',
    back: (
      <a className="btn" href={href('/resident-planting-areas')}>
        {t('rpa.all')}
      </a>
    ),
  });
  if (gate || !item.data) return gate;
  const a = item.data;
  const none = <span className="muted">{t('tree.not_specified')}</span>;
  const free = a.capacity != null ? Math.max(0, a.capacity - (a.planted ?? 0)) : null;
  const recommended = (a.recommended_species ?? []).map((sid, i) => {
    const s = species.data?.find((x) => x.id === Number(sid));
    return s
      ? { id: s.id, name: pick(s.name, lang), latin: s.latin_name }
      : { id: Number(sid), name: a.recommended_species_names?.[i] ?? `№ ${sid}`, latin: '' };
  });
  const loc = a.location;
  const plantHref = href(`/population-seedlings${loc ? `?lat=${loc.lat}&lng=${loc.lng}` : ''}`);
  return (
    <article className="container detail" data-testid="rpa-item">
      <p className="crumbs small no-print">
        <a href={href('/resident-planting-areas')}>← {t('rpa.all')}</a>
      </p>
      <PageTitle sub={[a.region_id_name, a.area_id_name, a.address].filter(Boolean).join(', ')}>{a.name}</PageTitle>
      <dl className="facts cards" data-testid="rpa-facts">
        <div>
          <dt>{t('rpa.capacity')}</dt>
          <dd data-testid="rpa-capacity">{a.capacity != null ? fmtInt(a.capacity) : '—'}</dd>
        </div>
        <div>
          <dt>{t('rpa.planted')}</dt>
          <dd data-testid="rpa-planted">{fmtInt(a.planted ?? 0)}</dd>
        </div>
        <div>
          <dt>{t('rpa.free')}</dt>
          <dd>{free != null ? fmtInt(free) : '—'}</dd>
        </div>
        <div>
          <dt>{t('rpa.status')}</dt>
          <dd data-testid="rpa-status">{a.status ? enumOf('rpa.status', a.status) : '—'}</dd>
        </div>
      </dl>
      <Fill a={a} />
      {a.status === 'open' || !a.status ? (
        <p>
          <a className="btn primary" href={plantHref} data-testid="rpa-plant">
            <Icon name="tree" /> {t('rpa.plant_here')}
          </a>
        </p>
      ) : (
        <p className="muted">{t('rpa.not_open')}</p>
      )}
      <div className="detail-grid">
        <section className="card">
          <h2>{t('rpa.recommended')}</h2>
          {recommended.length === 0 ? (
            <p className="muted">{t('tree.not_specified')}</p>
          ) : (
            <ul className="species-list" data-testid="rpa-species">
              {recommended.map((s) => (
                <li key={s.id}>
                  {s.name}
                  {s.latin && (
                    <>
                      {' '}
                      <i className="latin" lang="la">
                        {s.latin}
                      </i>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
          <dl className="props">
            <div>
              <dt>{t('rpa.area_ha')}</dt>
              <dd>{a.area_ha != null ? fmtDecimal(a.area_ha, 2) : none}</dd>
            </div>
            <div>
              <dt>{t('rpa.contact')}</dt>
              <dd>{a.contact_phone ? <a href={`tel:${a.contact_phone.replace(/[^\d+]/g, '')}`}>{a.contact_phone}</a> : none}</dd>
            </div>
          </dl>
        </section>
        <section className="card map-card">
          <h2>{t('common.on_map')}</h2>
          <Suspense fallback={<Loading label={t('common.map_loading')} height={260} />}>
            <FeatureMap
              color={AREA_COLOR}
              items={[{ id: a.id, lat: loc?.lat, lng: loc?.lng, shape: a.shape, title: a.name }]}
              label={`${t('common.on_map')}: ${a.name}`}
            />
          </Suspense>
          {loc && (
            <p className="no-print small">
              <a href={href(`/map?lat=${loc.lat}&lng=${loc.lng}&z=15&layers=trees,resident_areas`)}>{t('tree.on_big_map')} →</a>
            </p>
          )}
        </section>
      </div>
      {a.info && (
        <section className="card prose">
          <h2>{t('green.info')}</h2>
          <Paragraphs text={a.info} />
        </section>
      )}
    </article>
  );
}
