import { useI18n } from '../i18n';
import type { EntityState, PlantingsState } from './mapTypes';

/** The pills above the map: the plantings' level, loading, a failure, a truncated answer, no base map. */
export function MapStatus({
  enabled,
  plantings,
  entities,
  noBase,
}: {
  enabled: Set<string>;
  plantings: Record<string, PlantingsState>;
  entities: Record<string, EntityState>;
  noBase: boolean;
}) {
  const { t } = useI18n();
  const trees = plantings.trees;
  const busy = Object.values(plantings).some((s) => s.status === 'loading') || Object.values(entities).some((s) => s.status === 'loading');
  const failed = Object.values(plantings).some((s) => s.status === 'error') || Object.values(entities).some((s) => s.status === 'error');
  const truncated = Object.values(plantings).some((s) => s.truncated) || Object.values(entities).some((s) => s.truncated);
  return (
    <div className="map-status">
      {trees?.layer && enabled.has('trees') && (
        <span className="pill" role="status">
          {t('map.layer', { layer: t(`map.layer.${trees.layer}`) })}
        </span>
      )}
      {busy && (
        <span className="pill" aria-hidden="true">
          {t('map.loading')}
        </span>
      )}
      {failed && (
        <span className="pill warn" role="alert">
          {t('map.error')}
        </span>
      )}
      {truncated && (
        <span className="pill warn" role="status">
          {t('map.truncated')}
        </span>
      )}
      {noBase && (
        <span className="pill muted" data-testid="map-no-base">
          {t('map.base_off_short')}
        </span>
      )}
    </div>
  );
}
