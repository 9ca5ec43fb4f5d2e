import OlMap from 'ol/Map';
import View from 'ol/View';
import VectorLayer from 'ol/layer/Vector';
import type VectorSource from 'ol/source/Vector';
import Polygon from 'ol/geom/Polygon';
import MultiPoint from 'ol/geom/MultiPoint';
import { fromLonLat, toLonLat } from 'ol/proj';
import { getCenter, isEmpty } from 'ol/extent';
import { Circle, Fill, Stroke, Style } from 'ol/style';
import 'ol/ol.css';
import { baseLayer } from './baseLayer';
import { mapControls } from './mapControls';
import { openRing, type Ring } from './polygonRing';

/** Tashkent, where an empty map opens. */
const CENTRE: [number, number] = [69.2797, 41.3111];

const round = (n: number) => Math.round(n * 1e6) / 1e6;

const STYLES = [
  new Style({ stroke: new Stroke({ color: '#2e7d32', width: 2 }), fill: new Fill({ color: 'rgba(46, 125, 50, 0.15)' }) }),
  // the corners, so that one sees what to drag
  new Style({
    image: new Circle({ radius: 4, fill: new Fill({ color: '#2e7d32' }), stroke: new Stroke({ color: '#fff', width: 1 }) }),
    geometry: (f) => {
      const g = f.getGeometry();
      return g instanceof Polygon ? new MultiPoint(g.getCoordinates()[0]) : undefined;
    },
  }),
];

/** The map's geometry of a ring (closed, in the map's projection). */
export function toGeometry(ring: Ring): Polygon {
  const coords = ring.map(([lng, lat]) => fromLonLat([lng, lat]));
  return new Polygon([[...coords, coords[0]]]);
}

/** A ring of the map's polygon, open and rounded to six decimals (about 10 cm). */
export function fromGeometry(g: Polygon): Ring {
  const outer = g.getCoordinates()[0] ?? [];
  return openRing(
    outer.map((c) => {
      const [lng, lat] = toLonLat(c);
      return [round(lng), round(lat)] as [number, number];
    }),
  );
}

export function fit(map: OlMap | null, g: Polygon) {
  if (!map) return;
  const extent = g.getExtent();
  // one point (or a line of points typed so far) has no area to fit: centre on it
  if (isEmpty(extent)) map.getView().setCenter(getCenter(extent));
  else map.getView().fit(extent, { padding: [24, 24, 24, 24], maxZoom: 17, duration: 0 });
}

export function baseMap(target: HTMLElement, source: VectorSource, translate: (key: string) => string): OlMap {
  return new OlMap({
    target,
    controls: mapControls(translate),
    layers: [baseLayer(), new VectorLayer({ source, style: STYLES })],
    view: new View({ center: fromLonLat(CENTRE), zoom: 10 }),
  });
}
