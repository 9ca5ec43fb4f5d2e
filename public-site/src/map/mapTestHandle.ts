import type OlMap from 'ol/Map';
import type VectorSource from 'ol/source/Vector';
import { bubbleRadius } from './bubbles';
import type { Item } from './mapTypes';
import { fromLonLat } from './olkit';

/** For tests and debugging, on the map's element as `__ecofond`: where a place is on the screen, what each layer holds. */
export function exposeForTests(target: HTMLElement, map: OlMap, sources: Map<string, VectorSource>): void {
  (target as unknown as { __ecofond: unknown }).__ecofond = {
    pixelOf: (lng: number, lat: number) => map.getPixelFromCoordinate(fromLonLat([lng, lat])),
    zoom: () => map.getView().getZoom(),
    items: () =>
      sources
        .get('trees')!
        .getFeatures()
        .map((f) => f.get('item') as Item),
    layerItems: (key: string) => [
      ...new Set(
        sources
          .get(key)!
          .getFeatures()
          .map((f) => f.get('item')),
      ),
    ],
    features: (key: string) =>
      sources
        .get(key)!
        .getFeatures()
        .map((f) => f.getGeometry()?.getType()),
    /** the main layer's cluster circles as drawn: centre and radius in pixels */
    bubbles: () =>
      sources
        .get('trees')!
        .getFeatures()
        .filter((f) => (f.get('item') as Item).kind === 'cluster')
        .map((f) => {
          const item = f.get('item') as Item;
          const [x, y] = map.getPixelFromCoordinate(fromLonLat([item.lng, item.lat]));
          return { x, y, r: bubbleRadius(item.count, f, map.getView().getResolution() ?? 1), count: item.count };
        }),
    setView: (lng: number, lat: number, z: number) => {
      map.getView().setCenter(fromLonLat([lng, lat]));
      map.getView().setZoom(z);
    },
  };
}
