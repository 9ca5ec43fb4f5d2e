import { lazy, Suspense, useState } from 'react';
import { useApi, type Region, type Species } from '../api';
import { ErrorState, Loading, PageTitle } from '../components/ui';
import { useI18n } from '../i18n';
import { layersOf } from '../map/layers';

const MapView = lazy(() => import('../map/MapView'));

/** /map: the tree map and its layers (OpenLayers, lazy). `?lat&lng&z&layers` keeps the view in the address. */
export default function MapPage({ query }: { query: URLSearchParams }) {
  const { t } = useI18n();
  const regions = useApi<Region[]>('/public/regions');
  const species = useApi<Species[]>('/public/species');
  // the view the page opened with; later moves only rewrite the address
  const [initial] = useState(() => {
    const lat = Number(query.get('lat')),
      lng = Number(query.get('lng')),
      z = Number(query.get('z'));
    return query.has('lat') &&
      Number.isFinite(lat) &&
      Number.isFinite(lng) &&
      Number.isFinite(z) &&
      Math.abs(lat) <= 85 &&
      Math.abs(lng) <= 180 &&
      z >= 3 &&
      z <= 19
      ? { lat, lng, z }
      : null;
  });
  const [layers] = useState(() => layersOf(query.get('layers')));
  const error = regions.error ?? species.error;
  return (
    <div className="container wide map-page">
      <PageTitle sub={t('map.hint')}>{t('page.map')}</PageTitle>
      {error ? (
        <ErrorState
          error={error}
          retry={() => {
            regions.reload();
            species.reload();
          }}
        />
      ) : !regions.data || !species.data ? (
        <Loading label={t('common.map_loading')} height={420} />
      ) : (
        <Suspense fallback={<Loading label={t('common.map_loading')} height={420} />}>
          <MapView initial={initial} layers={layers} regions={regions.data} species={species.data} />
        </Suspense>
      )}
    </div>
  );
}
