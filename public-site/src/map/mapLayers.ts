import Feature from 'ol/Feature';
import type OlMap from 'ol/Map';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import type { Region } from '../api';
import type { Lang } from '../i18n';
import { LAYERS } from './layers';
import { DECLUTTER, entityStyle, plantingsStyle, regionNameStyle } from './mapStyles';
import { fromLonLat } from './olkit';

/**
 * Region names, for orientation when there is no base map (faint, only when zoomed out); gives
 * back how to show them in another language.
 */
export function addRegionNames(map: OlMap, regions: Region[]): (lang: Lang) => void {
  const names = new VectorSource({
    features: regions.map((r) => new Feature({ geometry: new Point(fromLonLat([r.centre.lng, r.centre.lat])), region: r })),
  });
  const namesLayer = new VectorLayer({ source: names, declutter: DECLUTTER, maxZoom: 8.5, className: 'names-layer' });
  map.addLayer(namesLayer);
  return (lang) => namesLayer.setStyle(regionNameStyle(lang));
}

/**
 * One vector layer per layer of the switcher, each visible when it is on: the entity layers' small
 * points over the plantings' circles. Each layer carries its definition (`def`), which tells a
 * click on it from one on the names.
 */
export function addDataLayers(
  map: OlMap,
  isOn: (key: string) => boolean,
): { sources: Map<string, VectorSource>; vlayers: Map<string, VectorLayer> } {
  const sources = new Map<string, VectorSource>();
  const vlayers = new Map<string, VectorLayer>();
  for (const def of [...LAYERS].sort((a, b) => (a.source === b.source ? 0 : a.source === 'entity' ? 1 : -1))) {
    const source = new VectorSource();
    const layer = new VectorLayer({
      source,
      className: `${def.source}-layer layer-${def.key}`,
      visible: isOn(def.key),
      // labels never overlap each other or a bubble: names, counts and bubbles declutter together
      declutter: def.source === 'plantings' ? DECLUTTER : undefined,
      style: def.source === 'plantings' ? plantingsStyle(def.color) : entityStyle(def.color),
    });
    layer.set('def', def);
    sources.set(def.key, source);
    vlayers.set(def.key, layer);
    map.addLayer(layer);
  }
  return { sources, vlayers };
}
