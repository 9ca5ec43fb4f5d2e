import { lazy, Suspense } from 'react';
import { fileUrl, qs, useLangApi, useSticky, type EntityPage, type LatLngValue, type Ring } from '../../api';
import { FilterTabs, regionOf, StatsFilters, useSetQuery } from '../../components/Filters';
import { Found, Gallery, Pager, pageOf, useEnum } from '../../components/List';
import { EmptyState, ErrorState, Icon, Loading, PageTitle } from '../../components/ui';
import { fmtDate, fmtDecimal, fmtInt } from '../../format';
import { useI18n } from '../../i18n';
import { detailGate } from '../../components/DetailGate';
import { href } from '../../router';
import { Paragraphs } from '../News';

const FeatureMap = lazy(() => import('../../map/FeatureMap'));

/** A garden, park or public park (`green-areas`, public fields). */
export interface GreenArea {
  id: number;
  name: string;
  kind: 'garden' | 'park' | 'public_park';
  region_id: number;
  region_id_name?: string;
  area_id?: number | null;
  area_id_name?: string | null;
  address?: string | null;
  area_ha?: string | null;
  trees?: number | null;
  info?: string | null;
  founded_on?: string | null;
  location?: LatLngValue | null;
  shape?: Ring | null;
  images?: number[] | null;
}

const KINDS = ['all', 'garden', 'park', 'public_park'] as const;
type KindTab = (typeof KINDS)[number];
const PER_PAGE = 12;
/** the map layer of each kind (see map/layers.ts) */
export const KIND_LAYER: Record<GreenArea['kind'], string> = { garden: 'gardens', park: 'parks', public_park: 'public_parks' };

/** /green-area-garden-park (tabs by kind, a region) and /green-area-garden-park/:id. */
export default function GreenAreas({ params, query, path }: { params: Record<string, string>; query: URLSearchParams; path: string }) {
  return params.id ? <GreenAreaItem id={params.id} /> : <GreenAreaList query={query} path={path} />;
}

function GreenAreaList({ query, path }: { query: URLSearchParams; path: string }) {
  const { t } = useI18n();
  const enumOf = useEnum();
  const set = useSetQuery(path, query);
  const kind = (KINDS as readonly string[]).includes(query.get('kind') ?? '') ? (query.get('kind') as KindTab) : 'all';
  const page = pageOf(query);
  const loaded = useLangApi<EntityPage<GreenArea>>(
    `/public/entities/green-areas${qs({
      page,
      perPage: PER_PAGE,
      kind: kind === 'all' ? null : kind,
      region_id: regionOf(query),
      q: query.get('q'),
    })}`,
  );
  const data = useSticky(loaded);
  return (
    <div className="container">
      <PageTitle sub={t('green.lead')}>{t('page.green_areas')}</PageTitle>
      <FilterTabs
        label={t('green.kind')}
        value={kind}
        testId="kind-tabs"
        options={KINDS.map((k) => ({ value: k, label: k === 'all' ? t('green.kind_all') : enumOf('green.kind', k) }))}
        onChange={(k) => set({ kind: k === 'all' ? null : k })}
      />
      <StatsFilters path={path} query={query} year={false} region search={t('list.search_name')} />
      {loaded.error ? (
        <ErrorState error={loaded.error} retry={loaded.reload} />
      ) : !data ? (
        <Loading height={300} />
      ) : data.rows.length === 0 ? (
        <EmptyState title={t('list.empty')} icon="leaf" />
      ) : (
        <>
          <Found total={data.total} />
          <ul className="cards-grid" data-testid="green-list" aria-busy={loaded.loading}>
            {data.rows.map((g) => (
              <li key={g.id} className="item-card" data-testid="green-card">
                {g.images?.[0] ? (
                  <img className="item-thumb" src={fileUrl(g.images[0])} alt="" width={320} height={180} loading="lazy" decoding="async" />
                ) : (
                  <span className="item-thumb placeholder" aria-hidden="true">
                    <Icon name="leaf" />
                  </span>
                )}
                <div className="item-body">
                  <p className="pill">{enumOf('green.kind', g.kind)}</p>
                  <h2 className="item-title">
                    <a href={href(`/green-area-garden-park/${g.id}`)}>{g.name}</a>
                  </h2>
                  <p className="muted small">{[g.region_id_name, g.area_id_name].filter(Boolean).join(', ')}</p>
                  <p className="small">
                    {g.area_ha != null && (
                      <span>
                        {t('green.area_ha')}: <strong>{fmtDecimal(g.area_ha, 2)}</strong>
                      </span>
                    )}
                    {g.area_ha != null && g.trees != null && ' · '}
                    {g.trees != null && (
                      <span>
                        {t('green.trees')}: <strong>{fmtInt(g.trees)}</strong>
                      </span>
                    )}
                  </p>
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

function GreenAreaItem({ id }: { id: string }) {
  const { t } = useI18n();
  const enumOf = useEnum();
  const valid = /^\d{1,15}$/.test(id);
  const item = useLangApi<GreenArea>(valid ? `/public/entities/green-areas/${id}` : null);
  const gate = detailGate(valid, item, {
    title: t('page.green_area'),
    notFound: t('list.not_found'),
    icon: 'leaf',
    testId: 'not-found',
    back: (
      <a className="btn" href={href('/green-area-garden-park')}>
        {t('green.all')}
      </a>
    ),
  });
  if (gate || !item.data) return gate;
  const g = item.data;
  const none = <span className="muted">{t('tree.not_specified')}</span>;
  const rows: [string, React.ReactNode][] = [
    [t('green.kind'), enumOf('green.kind', g.kind)],
    [t('common.region'), g.region_id_name || none],
    [t('common.district'), g.area_id_name || none],
    [t('common.address'), g.address || none],
    [t('green.area_ha'), g.area_ha != null ? fmtDecimal(g.area_ha, 2) : none],
    [t('green.trees'), g.trees != null ? fmtInt(g.trees) : none],
    [t('green.founded_on'), g.founded_on ? fmtDate(g.founded_on) : none],
  ];
  const loc = g.location;
  return (
    <article className="container detail" data-testid="green-item">
      <p className="crumbs small no-print">
        <a href={href('/green-area-garden-park')}>← {t('green.all')}</a>
      </p>
      <PageTitle sub={enumOf('green.kind', g.kind)}>{g.name}</PageTitle>
      <div className="detail-grid">
        <section className="card">
          <dl className="props" data-testid="green-props">
            {rows.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section className="card map-card">
          <h2>{t('common.on_map')}</h2>
          {loc || g.shape ? (
            <Suspense fallback={<Loading label={t('common.map_loading')} height={260} />}>
              <FeatureMap
                items={[{ id: g.id, lat: loc?.lat, lng: loc?.lng, shape: g.shape, title: g.name }]}
                label={`${t('common.on_map')}: ${g.name}`}
              />
            </Suspense>
          ) : (
            <p className="muted">{t('common.no_location')}</p>
          )}
          {loc && (
            <p className="no-print small">
              <a href={href(`/map?lat=${loc.lat}&lng=${loc.lng}&z=16&layers=trees,${KIND_LAYER[g.kind] ?? 'parks'}`)}>
                {t('tree.on_big_map')} →
              </a>
            </p>
          )}
        </section>
      </div>
      {g.info && (
        <section className="card prose">
          <h2>{t('green.info')}</h2>
          <Paragraphs text={g.info} />
        </section>
      )}
      {g.images && g.images.length > 0 && (
        <section className="card">
          <h2>{t('common.images')}</h2>
          <Gallery ids={g.images} alt={g.name} />
        </section>
      )}
    </article>
  );
}
