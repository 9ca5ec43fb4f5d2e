import { useEffect, useRef, useState } from 'react';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import { Circle, Fill, Stroke, Style, Text } from 'ol/style';
import type { FeatureLike } from 'ol/Feature';
import { call, type MapAnswer, type Region, type Species } from '../api';
import { fmtCoord, fmtInt, fmtShort } from '../format';
import { pick, useI18n } from '../i18n';
import { href, navigate } from '../router';
import { createSiteMap, fitUzbekistan, fromLonLat, toLonLat, viewBounds, retitleControls } from './olkit';

/**
 * The tree map: one request per view (`/public/map/plantings?bbox&zoom`, again on every moveend):
 * regions and grid cells as circles sized by their count with the count inside (a click zooms in
 * to the next level), single plantings as points (a click opens the passport). The same objects
 * are listed under the map for keyboard and screen-reader users.
 */
export interface MapViewProps {
  initial: { lat: number; lng: number; z: number } | null;
  regions: Region[];
  species: Species[];
}

interface Item { kind: 'cluster' | 'tree'; lng: number; lat: number; count: number; id?: number; regionId?: number; speciesId?: number }

/** The zoom a click on a cluster goes to: the next level of aggregation (see api/map/grid.ts). */
export function nextZoom(z: number): number {
  if (z < 7) return 7;
  if (z < 10) return 10;
  if (z < 13) return 13;
  if (z < 15) return 15;
  return Math.min(19, z + 1);
}

const styleCache = new Map<string, Style>();
function clusterStyle(count: number): Style {
  const r = Math.round(Math.min(40, 13 + 5 * Math.log10(Math.max(1, count))));
  const key = `c${r}:${count}`;
  let s = styleCache.get(key);
  if (!s) {
    s = new Style({
      image: new Circle({ radius: r, fill: new Fill({ color: 'rgba(46,125,50,0.82)' }), stroke: new Stroke({ color: '#fff', width: 2 }) }),
      text: new Text({ text: fmtShort(count), font: 'bold 12px system-ui, sans-serif', fill: new Fill({ color: '#fff' }) }),
    });
    styleCache.set(key, s);
  }
  return s;
}
function treeStyle(count: number): Style {
  const key = `t${count}`;
  let s = styleCache.get(key);
  if (!s) {
    s = new Style({
      image: new Circle({ radius: 8, fill: new Fill({ color: '#1b5e20' }), stroke: new Stroke({ color: '#fff', width: 2 }) }),
      text: count > 1 ? new Text({ text: fmtShort(count), offsetY: -17, font: 'bold 11px system-ui, sans-serif', fill: new Fill({ color: '#1b5e20' }), stroke: new Stroke({ color: '#fff', width: 3 }) }) : undefined,
    });
    styleCache.set(key, s);
  }
  return s;
}
const styleOf = (f: FeatureLike) => {
  const item = f.get('item') as Item;
  return item.kind === 'tree' ? treeStyle(item.count) : clusterStyle(item.count);
};

const LIST_MAX = 30;

export default function MapView({ initial, regions, species }: MapViewProps) {
  const { t, lang } = useI18n();
  const el = useRef<HTMLDivElement>(null);
  const api = useRef<{ zoomTo: (i: Item) => void } | null>(null);
  const [state, setState] = useState<{ status: 'loading' | 'idle' | 'error'; layer?: MapAnswer['layer']; truncated?: boolean; items: Item[] }>({ status: 'loading', items: [] });
  const [noBase, setNoBase] = useState(false);
  const tRef = useRef(t);
  tRef.current = t;
  const langRef = useRef(lang);
  langRef.current = lang;

  useEffect(() => {
    const target = el.current!;
    const map = createSiteMap({
      target, t: tRef.current, onNoBase: () => setNoBase(true),
      center: initial ? [initial.lng, initial.lat] : undefined, zoom: initial?.z,
    });
    if (!initial) fitUzbekistan(map, 30, 6); // the whole country, counted by region

    // region names, for orientation when there is no base map (faint, only when zoomed out)
    const names = new VectorSource({
      features: regions.map((r) => new Feature({ geometry: new Point(fromLonLat([r.centre.lng, r.centre.lat])), region: r })),
    });
    const namesLayer = new VectorLayer({ source: names, declutter: true, maxZoom: 8.5, className: 'names-layer' });
    map.addLayer(namesLayer);
    const setNames = (l: typeof lang) => {
      namesLayer.setStyle((f) => new Style({
        text: new Text({ text: pick((f.get('region') as Region).name, l), offsetY: 30, font: '12px system-ui, sans-serif', fill: new Fill({ color: '#33691e' }), stroke: new Stroke({ color: '#fff', width: 3 }) }),
      }));
    };
    setNames(lang);

    const source = new VectorSource();
    map.addLayer(new VectorLayer({ source, style: styleOf, className: 'plantings-layer' }));

    let ctl: AbortController | null = null;
    let seq = 0;
    const load = async () => {
      ctl?.abort();
      ctl = new AbortController();
      const mine = ++seq;
      const zoom = Math.round((map.getView().getZoom() ?? 5) * 100) / 100;
      const bbox = viewBounds(map);
      target.dataset.state = 'loading';
      target.dataset.zoom = String(zoom);
      setState((s) => ({ ...s, status: 'loading' }));
      const c = map.getView().getCenter();
      if (c) {
        const [lng, lat] = toLonLat(c);
        navigate(`/map?lat=${lat.toFixed(5)}&lng=${lng.toFixed(5)}&z=${zoom}`, { replace: true });
      }
      try {
        const answer = await call<MapAnswer>(`/public/map/plantings?bbox=${bbox.join(',')}&zoom=${zoom}`, { lang: langRef.current, signal: ctl.signal });
        if (mine !== seq) return;
        const items: Item[] = answer.items.map((a) => answer.layer === 'trees'
          ? { kind: 'tree', lng: a[0], lat: a[1], count: a[2], id: a[3], speciesId: a[4] }
          : { kind: 'cluster', lng: a[0], lat: a[1], count: a[2], regionId: answer.layer === 'regions' ? a[3] : undefined });
        source.clear(true);
        source.addFeatures(items.map((item) => new Feature({ geometry: new Point(fromLonLat([item.lng, item.lat])), item })));
        target.dataset.layer = answer.layer;
        target.dataset.state = 'idle';
        target.dataset.count = String(items.length);
        setState({ status: 'idle', layer: answer.layer, truncated: !!answer.truncated, items });
      } catch (e) {
        if (mine !== seq || (e as Error).name === 'AbortError') return;
        target.dataset.state = 'error';
        setState((s) => ({ ...s, status: 'error' }));
      }
    };
    map.on('moveend', () => { void load(); });

    const zoomTo = (item: Item) => {
      const view = map.getView();
      view.animate({ center: fromLonLat([item.lng, item.lat]), zoom: nextZoom(view.getZoom() ?? 5), duration: 400 });
    };
    api.current = { zoomTo };
    map.on('click', (e) => {
      const f = map.forEachFeatureAtPixel(e.pixel, (x) => x, { hitTolerance: 6, layerFilter: (l) => l.getClassName() === 'plantings-layer' });
      const item = f?.get('item') as Item | undefined;
      if (!item) return;
      if (item.kind === 'tree') navigate(`/tree/${item.id}`);
      else zoomTo(item);
    });
    map.on('pointermove', (e) => {
      if (e.dragging) return;
      const hit = map.hasFeatureAtPixel(e.pixel, { hitTolerance: 6, layerFilter: (l) => l.getClassName() === 'plantings-layer' });
      target.style.cursor = hit ? 'pointer' : '';
    });

    // for tests and debugging: where a place is on the screen
    (target as unknown as { __ecofond: unknown }).__ecofond = {
      pixelOf: (lng: number, lat: number) => map.getPixelFromCoordinate(fromLonLat([lng, lat])),
      zoom: () => map.getView().getZoom(),
      items: () => source.getFeatures().map((f) => f.get('item') as Item),
    };
    const onResize = () => map.updateSize();
    window.addEventListener('resize', onResize);
    (target as unknown as { __setNames: typeof setNames }).__setNames = setNames;
    return () => {
      ctl?.abort();
      window.removeEventListener('resize', onResize);
      map.setTarget(undefined);
      map.dispose();
    };
    // the map is built once; the language is applied below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    (el.current as unknown as { __setNames?: (l: typeof lang) => void } | null)?.__setNames?.(lang);
  }, [lang]);

  const regionName = (id?: number) => pick(regions.find((r) => r.id === id)?.name, lang);
  const speciesName = (id?: number) => pick(species.find((s) => s.id === id)?.name, lang);
  const listed = [...state.items].sort((a, b) => b.count - a.count).slice(0, LIST_MAX);

  useEffect(() => { retitleControls(el.current, t); }, [t]);

  return (
    <>
      <div className="map-status">
        {state.layer && <span className="pill" role="status">{t('map.layer', { layer: t(`map.layer.${state.layer}`) })}</span>}
        {state.status === 'loading' && <span className="pill" aria-hidden="true">{t('map.loading')}</span>}
        {state.status === 'error' && <span className="pill warn" role="alert">{t('map.error')}</span>}
        {state.truncated && <span className="pill warn" role="status">{t('map.truncated')}</span>}
        {noBase && <span className="pill muted" data-testid="map-no-base">{t('map.base_off')}</span>}
      </div>
      <div ref={el} className="map big-map" data-testid="map" role="application" aria-label={t('map.label')} tabIndex={0} />
      <p className="muted small">{t('map.legend')}</p>
      <details className="map-list" data-testid="map-list">
        <summary>{t('map.in_view')} ({fmtInt(state.items.length)})</summary>
        {state.status === 'idle' && state.items.length === 0 ? <p>{t('map.empty')}</p> : (
          <ul>
            {listed.map((i, n) => (
              <li key={`${i.kind}${i.id ?? ''}-${i.lng}-${i.lat}-${n}`}>
                {i.kind === 'tree'
                  ? <a href={href(`/tree/${i.id}`)}>{t('map.tree_item', { name: speciesName(i.speciesId) || `№ ${i.id}`, n: fmtInt(i.count) })}</a>
                  : <button type="button" className="link" onClick={() => api.current?.zoomTo(i)}>
                    {t('map.zoom_to', { name: i.regionId ? regionName(i.regionId) : t('map.group', { lat: fmtCoord(i.lat), lng: fmtCoord(i.lng) }), n: fmtInt(i.count) })}
                  </button>}
              </li>
            ))}
            {state.items.length > LIST_MAX && <li className="muted">{t('map.more', { n: fmtInt(state.items.length - LIST_MAX) })}</li>}
          </ul>
        )}
      </details>
    </>
  );
}
