import type OlMap from 'ol/Map';
import type VectorSource from 'ol/source/Vector';
import type { BubbleBoard } from './bubbleBoard';
import type { Item } from './mapTypes';
import { fromLonLat } from './olkit';

/** For tests and debugging, on the map's element as `__ecofond`: where a place is on the screen, what each layer holds. */
export function exposeForTests(target: HTMLElement, map: OlMap, sources: Map<string, VectorSource>, board: BubbleBoard): void {
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
    /** a planting layer's (the main one's) cluster circles as drawn: centre and radius in pixels, and how far the centre moved off its place */
    bubbles: (key = 'trees') => {
      const resolution = map.getView().getResolution() ?? 1;
      return sources
        .get(key)!
        .getFeatures()
        .filter((f) => (f.get('item') as Item).kind === 'cluster')
        .map((f) => {
          const item = f.get('item') as Item;
          const [x, y] = map.getPixelFromCoordinate(board.centre(f, resolution));
          const [x0, y0] = map.getPixelFromCoordinate(fromLonLat([item.lng, item.lat]));
          return { x, y, r: board.radius(item.count), count: item.count, moved: Math.hypot(x - x0, y - y0), regionId: item.regionId };
        });
    },
    /** the bubbles' shared scale: the biggest count of the view and its radius */
    scale: () => board.scale(),
    /** the OpenLayers layers from bottom to top: the switcher layer each draws and its zIndex */
    order: () =>
      map
        .getAllLayers()
        .filter((l) => l.getVisible())
        .map((l) => ({ key: (l.get('def') as { key: string } | undefined)?.key ?? null, z: l.getZIndex() ?? 0 }))
        .sort((a, b) => a.z - b.z),
    setView: (lng: number, lat: number, z: number) => {
      map.getView().setCenter(fromLonLat([lng, lat]));
      map.getView().setZoom(z);
    },
  };
}
