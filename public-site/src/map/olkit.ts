import 'ol/ol.css';
import OlMap from 'ol/Map';
import View from 'ol/View';
import TileLayer from 'ol/layer/Tile';
import XYZ from 'ol/source/XYZ';
import { defaults as defaultControls } from 'ol/control/defaults';
import { defaults as defaultInteractions } from 'ol/interaction/defaults';
import { fromLonLat, toLonLat, transformExtent } from 'ol/proj';
import type { T } from '../i18n';
import { UZ_BOUNDS } from '../geo';

/**
 * What the site's three maps share (all of it in the lazily loaded map chunk): the base layer of
 * OSM-style tiles from a configurable URL, dropped when it is switched off or fails to load, and
 * the controls' captions in the site's language.
 */
// window.__ECOFOND_CONFIG__ is declared with the site's other settings in ../config.ts
import type {} from '../config';

const OSM = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/**
 * The tile URL: the page's window.__ECOFOND_CONFIG__.mapTiles, else VITE_MAP_TILES at build, else OSM; "" for none.
 * Leaflet's `{s}` becomes OpenLayers' `{a-c}` (the subdomains the server's Content-Security-Policy allows).
 */
export function tilesUrl(): string {
  const page = window.__ECOFOND_CONFIG__?.mapTiles;
  const built = import.meta.env.VITE_MAP_TILES as string | undefined;
  const url = typeof page === 'string' ? page : typeof built === 'string' ? built : OSM;
  return url.trim().replace('{s}', '{a-c}');
}

export interface SiteMapOptions {
  target: HTMLElement;
  t: T;
  /** called when there is no base map: switched off, or its tiles do not load */
  onNoBase: () => void;
  center?: [number, number];
  zoom?: number;
  wheelZoom?: boolean;
}

export function createSiteMap(o: SiteMapOptions): OlMap {
  const url = tilesUrl();
  const map = new OlMap({
    target: o.target,
    controls: defaultControls({
      rotate: false,
      zoomOptions: { zoomInTipLabel: o.t('map.zoom_in'), zoomOutTipLabel: o.t('map.zoom_out') },
      attributionOptions: { tipLabel: o.t('map.attributions'), collapsible: true },
    }),
    interactions: defaultInteractions({ mouseWheelZoom: o.wheelZoom ?? true, altShiftDragRotate: false, pinchRotate: false }),
    view: new View({
      center: fromLonLat(o.center ?? [64.5, 41.4]),
      zoom: o.zoom ?? 5,
      minZoom: 3,
      maxZoom: 19,
      constrainResolution: false,
    }),
  });
  // OpenLayers reports its first view (moveend) only from a second frame; a map of vector layers
  // alone may render just once, so ask for that second frame
  map.once('postrender', () => map.render());
  if (!url) {
    queueMicrotask(o.onNoBase);
  } else {
    const source = new XYZ({
      url,
      maxZoom: 19,
      attributions:
        url === OSM ? '© <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener">OpenStreetMap</a>' : undefined,
    });
    const base = new TileLayer({ source, className: 'base-layer' });
    let loaded = 0;
    let failed = 0;
    source.on('tileloadend', () => {
      loaded++;
    });
    source.on('tileloaderror', () => {
      failed++;
      if (loaded === 0 && failed === 2) {
        map.removeLayer(base);
        o.onNoBase();
      }
    });
    map.getLayers().insertAt(0, base);
  }
  return map;
}

/** The controls' tooltips in the current language (after a change of language). */
export function retitleControls(target: HTMLElement | null, t: T): void {
  if (!target) return;
  const set = (sel: string, text: string) =>
    target.querySelectorAll<HTMLElement>(sel).forEach((b) => {
      b.title = text;
    });
  set('.ol-zoom-in', t('map.zoom_in'));
  set('.ol-zoom-out', t('map.zoom_out'));
  set('.ol-attribution button', t('map.attributions'));
}

/** The view's extent in EPSG:4326, clamped to the world: [minLng, minLat, maxLng, maxLat]. */
export function viewBounds(map: OlMap): number[] {
  const e = transformExtent(map.getView().calculateExtent(map.getSize()), 'EPSG:3857', 'EPSG:4326');
  return [Math.max(-180, e[0]), Math.max(-85, e[1]), Math.min(180, e[2]), Math.min(85, e[3])].map((n) => Math.round(n * 1e5) / 1e5);
}

export function fitUzbekistan(map: OlMap, padding = 10, maxZoom?: number): void {
  map.getView().fit(transformExtent([...UZ_BOUNDS], 'EPSG:4326', 'EPSG:3857'), {
    size: map.getSize(),
    padding: [padding, padding, padding, padding],
    maxZoom,
  });
}

export { fromLonLat, toLonLat };
