import type OlMap from 'ol/Map';
import type { LayerItem } from '../api';
import { navigate } from '../router';
import type { LayerDef } from './layers';
import type { Item, MapApi } from './mapTypes';

const isData = (l: { get: (k: string) => unknown }) => !!l.get('def');

/**
 * A click on the map: on a planting, its passport (a place's trees) or the next zoom level (a
 * cluster); on an entity layer's item, its popup; elsewhere, the popup closed. The pointer is a
 * hand over anything clickable.
 */
export function bindMapClicks(map: OlMap, target: HTMLElement, { show, zoomTo }: Pick<MapApi, 'show' | 'zoomTo'>): void {
  map.on('click', (e) => {
    // the topmost point under the pointer, else the topmost outline
    let hit: { def: LayerDef; item: unknown } | undefined;
    map.forEachFeatureAtPixel(
      e.pixel,
      (f, layer) => {
        const def = layer?.get('def') as LayerDef | undefined;
        if (!def) return undefined;
        const point = f.getGeometry()?.getType() === 'Point';
        if (point || !hit) hit = { def, item: f.get('item') };
        return point ? true : undefined;
      },
      { hitTolerance: 6, layerFilter: isData },
    );
    if (!hit) {
      show(null);
      return;
    }
    if (hit.def.source === 'plantings') {
      const item = hit.item as Item;
      show(null);
      if (item.kind === 'tree') navigate(`/tree/${item.id}`);
      else zoomTo(item);
    } else {
      show({ layer: hit.def, item: hit.item as LayerItem });
    }
  });
  map.on('pointermove', (e) => {
    if (e.dragging) return;
    target.style.cursor = map.hasFeatureAtPixel(e.pixel, { hitTolerance: 6, layerFilter: isData }) ? 'pointer' : '';
  });
}
