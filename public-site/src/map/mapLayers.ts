import Feature from 'ol/Feature';
import type OlMap from 'ol/Map';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import type { Region } from '../api';
import type { Lang } from '../i18n';
import { BubbleBoard } from './bubbleBoard';
import { LAYERS } from './layers';
import { DECLUTTER, entityStyle, plantingsLabelStyle, plantingsStyle, regionNameStyle, Z } from './mapStyles';
import type { Item } from './mapTypes';
import { fromLonLat } from './olkit';

/**
 * Region names, for orientation (faint, only when zoomed out), below each region's bubble and
 * decluttered with the counts; gives back how to show them in another language.
 */
export function addRegionNames(map: OlMap, regions: Region[], board: BubbleBoard): (lang: Lang) => void {
  const names = new VectorSource({
    features: regions.map((r) => new Feature({ geometry: new Point(fromLonLat([r.centre.lng, r.centre.lat])), region: r })),
  });
  const namesLayer = new VectorLayer({ source: names, declutter: DECLUTTER, maxZoom: 8.5, zIndex: Z.names });
  map.addLayer(namesLayer);
  board.dependents.push(namesLayer);
  return (lang) => namesLayer.setStyle(regionNameStyle(lang, (id, resolution) => board.regionBubble(id, resolution)));
}

const countOf = (f: Feature) => (f.get('item') as Item).count;

/**
 * The layers of the switcher, each as OpenLayers layers over one source, in the order of `Z`: a
 * planting layer as its bubbles (the biggest drawn first, so that a small one on a big one stays
 * seen) and its counts on a layer of labels; an entity layer as its outlines under the bubbles and
 * its points above them. Each layer carries its definition (`def`), which tells a click on it from
 * one on the names; `vlayers` gives each switcher layer's OpenLayers layers, to show and hide together.
 */
export function addDataLayers(
  map: OlMap,
  isOn: (key: string) => boolean,
): { sources: Map<string, VectorSource>; vlayers: Map<string, VectorLayer[]>; board: BubbleBoard } {
  const sources = new Map<string, VectorSource>();
  const vlayers = new Map<string, VectorLayer[]>();
  const board = new BubbleBoard(sources, isOn);
  for (const def of LAYERS) {
    const source = new VectorSource();
    // no className: OpenLayers draws the layers on one canvas where it can (fewer canvases on a phone)
    const common = { source, visible: isOn(def.key) };
    let layers: VectorLayer[];
    if (def.source === 'plantings') {
      const ring = !!def.irrigation;
      layers = [
        new VectorLayer({
          ...common,
          zIndex: ring ? Z.irrigation : Z.trees,
          renderOrder: (a, b) => countOf(b as Feature) - countOf(a as Feature),
          style: plantingsStyle(def.color, board, ring),
        }),
        // counts never overlap each other or a region's name
        new VectorLayer({
          ...common,
          zIndex: Z.counts,
          declutter: DECLUTTER,
          style: plantingsLabelStyle(def.color, board, ring),
        }),
      ];
    } else {
      layers = [
        new VectorLayer({ ...common, zIndex: Z.shapes, style: entityStyle(def.color, false) }),
        new VectorLayer({ ...common, zIndex: Z.points, style: entityStyle(def.color, true) }),
      ];
    }
    for (const layer of layers) {
      layer.set('def', def);
      map.addLayer(layer);
    }
    if (def.source === 'plantings') {
      // a planting layer's bubbles take their scale and places from the others (the trees' and the irrigated trees')
      board.dependents.push(...layers);
      source.on('change', () => board.refresh());
    }
    sources.set(def.key, source);
    vlayers.set(def.key, layers);
  }
  return { sources, vlayers, board };
}
