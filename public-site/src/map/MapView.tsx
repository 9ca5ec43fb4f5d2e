import { useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { Region, Species } from '../api';
import { useI18n } from '../i18n';
import { LAYERS } from './layers';
import { LayerSwitch } from './LayerSwitch';
import { MapLegend } from './MapLegend';
import { MapList } from './MapList';
import { MapPopup } from './MapPopup';
import { MapStatus } from './MapStatus';
import type { PlantingsState } from './mapTypes';
import { useTreeMap } from './useTreeMap';

/**
 * The tree map with its layers. Plantings (and irrigated plantings) come one request per view
 * (`/public/map/plantings?bbox&zoom`, again on every moveend): regions and grid cells as circles
 * sized by their count (a click zooms in to the next level), single plantings as points (a click
 * opens the passport). The other layers (model streets, parks, gardens, old trees, the areas where
 * residents may plant) come from `/public/map/layers/:entity?bbox=` for the view, a moment after
 * it stops moving; a click shows a popup with the title and a link to the item's page. A layer
 * switcher of checkboxes turns each on and off (kept in the address: `layers=trees,parks`). The
 * same objects are listed under the map for keyboard and screen-reader users. On a narrow map (a
 * phone) the popup is a sheet along the bottom of the screen instead, its × always on the screen; the
 * legend under the map shows the bubbles' scale.
 */
export interface MapViewProps {
  initial: { lat: number; lng: number; z: number } | null;
  layers: string[];
  regions: Region[];
  species: Species[];
}

export default function MapView({ initial, layers: initialLayers, regions, species }: MapViewProps) {
  const { t } = useI18n();
  const [enabled, setEnabled] = useState<Set<string>>(() => new Set(initialLayers));
  const enabledRef = useRef(enabled);
  enabledRef.current = enabled;
  const { el, api, plantings, entities, popup, popupEl, noBase, sheet } = useTreeMap({ initial, regions, enabledRef });

  const toggle = (key: string, on: boolean) => {
    const n = new Set(enabledRef.current);
    if (on) n.add(key);
    else n.delete(key);
    enabledRef.current = n; // the map's handlers read it before the next render
    setEnabled(n);
    api.current?.toggle(key, on);
  };

  // closed by its ×: the keyboard goes back to the map
  const close = () => {
    api.current?.show(null);
    el.current?.focus({ preventScroll: true });
  };

  const countOf = (key: string) => {
    const def = LAYERS.find((l) => l.key === key)!;
    const s = def.source === 'plantings' ? plantings[key] : entities[key];
    return s && s.status === 'idle'
      ? def.source === 'plantings'
        ? (s as PlantingsState).items.reduce((n, i) => n + i.count, 0)
        : s.items.length
      : null;
  };

  return (
    <>
      <LayerSwitch enabled={enabled} countOf={countOf} onToggle={toggle} />
      <MapStatus enabled={enabled} plantings={plantings} entities={entities} noBase={noBase} />
      <div className="map-wrap">
        <div ref={el} className="map big-map" data-testid="map" role="application" aria-label={t('map.label')} tabIndex={0} />
        {popup && sheet && <MapPopup popup={popup} sheet onClose={close} />}
      </div>
      {createPortal(popup && !sheet ? <MapPopup popup={popup} onClose={close} /> : null, popupEl)}
      <MapLegend enabled={enabled} plantings={plantings} />
      <MapList
        enabled={enabled}
        plantings={plantings}
        entities={entities}
        regions={regions}
        species={species}
        onZoomTo={(i) => api.current?.zoomTo(i)}
        onShow={(layer, item) => {
          api.current?.show({ layer, item });
          el.current?.scrollIntoView({ block: 'nearest' });
        }}
      />
    </>
  );
}
