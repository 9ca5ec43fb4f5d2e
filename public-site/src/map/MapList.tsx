import type { LayerItem, Region, Species } from '../api';
import { fmtCoord, fmtInt } from '../format';
import { pick, useI18n } from '../i18n';
import { href } from '../router';
import { LAYERS, type LayerDef } from './layers';
import type { EntityState, Item, PlantingsState } from './mapTypes';

const LIST_MAX = 30;

/**
 * The objects in the view under the map, a section per layer on, for keyboard and screen-reader
 * users: a cluster zooms in, a place's trees open their passport, an entity layer's item opens its
 * popup on the map (and a link to its page).
 */
export function MapList({
  enabled,
  plantings,
  entities,
  regions,
  species,
  onZoomTo,
  onShow,
}: {
  enabled: Set<string>;
  plantings: Record<string, PlantingsState>;
  entities: Record<string, EntityState>;
  regions: Region[];
  species: Species[];
  onZoomTo: (i: Item) => void;
  onShow: (layer: LayerDef, item: LayerItem) => void;
}) {
  const { t, lang } = useI18n();
  const regionName = (id?: number) => pick(regions.find((r) => r.id === id)?.name, lang);
  const speciesName = (id?: number) => pick(species.find((s) => s.id === id)?.name, lang);
  return (
    <details className="map-list" data-testid="map-list">
      <summary>{t('map.in_view')}</summary>
      {LAYERS.filter((l) => enabled.has(l.key)).map((def) => {
        if (def.source === 'plantings') {
          const s = plantings[def.key];
          if (!s) return null;
          const listed = [...s.items].sort((a, b) => b.count - a.count).slice(0, LIST_MAX);
          return (
            <section key={def.key}>
              <h3 className="small">
                {t(def.title)} ({fmtInt(s.items.length)})
              </h3>
              {s.status === 'idle' && s.items.length === 0 ? (
                <p className="small">{t('map.empty')}</p>
              ) : (
                <ul>
                  {listed.map((i, n) => (
                    <li key={`${i.kind}${i.id ?? ''}-${i.lng}-${i.lat}-${n}`}>
                      {i.kind === 'tree' ? (
                        <a href={href(`/tree/${i.id}`)}>
                          {t('map.tree_item', { name: speciesName(i.speciesId) || `№ ${i.id}`, n: fmtInt(i.count) })}
                        </a>
                      ) : (
                        <button type="button" className="link" onClick={() => onZoomTo(i)}>
                          {t('map.zoom_to', {
                            name: i.regionId ? regionName(i.regionId) : t('map.group', { lat: fmtCoord(i.lat), lng: fmtCoord(i.lng) }),
                            n: fmtInt(i.count),
                          })}
                        </button>
                      )}
                    </li>
                  ))}
                  {s.items.length > LIST_MAX && <li className="muted">{t('map.more', { n: fmtInt(s.items.length - LIST_MAX) })}</li>}
                </ul>
              )}
            </section>
          );
        }
        const s = entities[def.key];
        if (!s) return null;
        return (
          <section key={def.key} data-testid={`map-list-${def.key}`}>
            <h3 className="small">
              {t(def.title)} ({fmtInt(s.items.length)})
            </h3>
            {s.status === 'idle' && s.items.length === 0 ? (
              <p className="small">{t('map.layer_empty')}</p>
            ) : (
              <ul>
                {s.items.slice(0, LIST_MAX).map((i) => (
                  <li key={i.id}>
                    <button type="button" className="link" onClick={() => onShow(def, i)}>
                      {i.title || `№ ${i.id}`}
                    </button>
                    {def.detail && (
                      <>
                        {' '}
                        · <a href={href(def.detail(i.id))}>{t('map.open_page')}</a>
                      </>
                    )}
                  </li>
                ))}
                {s.items.length > LIST_MAX && <li className="muted">{t('map.more', { n: fmtInt(s.items.length - LIST_MAX) })}</li>}
              </ul>
            )}
          </section>
        );
      })}
    </details>
  );
}
