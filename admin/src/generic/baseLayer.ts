import TileLayer from 'ol/layer/Tile';
import OSM from 'ol/source/OSM';

declare global {
  interface Window {
    __ECOFOND_CONFIG__?: { mapTiles?: string; eimzoKey?: string };
  }
}

/**
 * The maps' base layer: the tiles the server's `site.map_tiles` setting names (written into the
 * page as window.__ECOFOND_CONFIG__.mapTiles, `…/{z}/{x}/{y}.png`), else OpenStreetMap's.
 * Leaflet's `{s}` becomes OpenLayers' `{a-c}` (the subdomains the server's Content-Security-Policy allows).
 */
export function baseLayer(): TileLayer<OSM> {
  const url = typeof window === 'undefined' ? undefined : window.__ECOFOND_CONFIG__?.mapTiles?.trim().replace('{s}', '{a-c}');
  return new TileLayer({ source: url ? new OSM({ url, attributions: [] }) : new OSM() });
}
