import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import Feature from 'ol/Feature';
import Overlay from 'ol/Overlay';
import Point from 'ol/geom/Point';
import Polygon from 'ol/geom/Polygon';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import { Circle, Fill, Stroke, Style, Text } from 'ol/style';
import type { FeatureLike } from 'ol/Feature';
import { call, type LayerAnswer, type LayerItem, type MapAnswer, type Region, type Species } from '../api';
import { fmtCoord, fmtInt, fmtShort } from '../format';
import { bubbleRadius, labelInside, spaceOut } from './bubbles';
import { pick, useI18n } from '../i18n';
import { href, navigate } from '../router';
import { LAYERS, type LayerDef } from './layers';
import { createSiteMap, fitUzbekistan, fromLonLat, toLonLat, viewBounds, retitleControls } from './olkit';

/**
 * The tree map with its layers. Plantings (and irrigated plantings) come one request per view
 * (`/public/map/plantings?bbox&zoom`, again on every moveend): regions and grid cells as circles
 * sized by their count (a click zooms in to the next level), single plantings as points (a click
 * opens the passport). The other layers (model streets, parks, gardens, old trees, the areas where
 * residents may plant) come from `/public/map/layers/:entity?bbox=` for the view, a moment after
 * it stops moving; a click shows a popup with the title and a link to the item's page. A layer
 * switcher of checkboxes turns each on and off (kept in the address: `layers=trees,parks`). The
 * same objects are listed under the map for keyboard and screen-reader users.
 */
export interface MapViewProps {
  initial: { lat: number; lng: number; z: number } | null;
  layers: string[];
  regions: Region[];
  species: Species[];
}

interface Item { kind: 'cluster' | 'tree'; lng: number; lat: number; count: number; id?: number; regionId?: number; speciesId?: number }
type Status = 'off' | 'loading' | 'idle' | 'error';
interface PlantingsState { status: Status; layer?: MapAnswer['layer']; truncated?: boolean; items: Item[] }
interface EntityState { status: Status; truncated?: boolean; items: LayerItem[] }
interface Popup { layer: LayerDef; item: LayerItem }

/** The zoom a click on a cluster goes to: the next level of aggregation (see api/map/grid.ts). */
export function nextZoom(z: number): number {
  if (z < 7) return 7;
  if (z < 10) return 10;
  if (z < 13) return 13;
  if (z < 15) return 15;
  return Math.min(19, z + 1);
}

const ENTITY_DEBOUNCE_MS = 250;
/** The declutter group of the names and the plantings' layers. */
const DECLUTTER = 'labels';
const LIST_MAX = 30;

const styleCache = new Map<string, Style>();
function cached(key: string, make: () => Style): Style {
  let s = styleCache.get(key);
  if (!s) { s = make(); styleCache.set(key, s); }
  return s;
}
function clusterStyle(count: number, color: string, r: number): Style {
  const inside = labelInside(fmtShort(count), r);
  return cached(`c${color}${r}:${count}`, () => new Style({
    // the circle is always drawn and region names keep clear of it; a count too big for its circle
    // goes above it and gives way to another (the layers declutter together)
    image: new Circle({ radius: r, fill: new Fill({ color: `${color}d1` }), stroke: new Stroke({ color: '#fff', width: 2 }), declutterMode: 'obstacle' }),
    text: inside
      ? new Text({ text: fmtShort(count), font: 'bold 12px system-ui, sans-serif', fill: new Fill({ color: '#fff' }), declutterMode: 'none' })
      : new Text({ text: fmtShort(count), offsetY: -(r + 9), font: 'bold 11px system-ui, sans-serif', fill: new Fill({ color }), stroke: new Stroke({ color: '#fff', width: 3 }) }),
  }));
}
function treeStyle(count: number, color: string): Style {
  return cached(`t${color}${count}`, () => new Style({
    image: new Circle({ radius: 8, fill: new Fill({ color }), stroke: new Stroke({ color: '#fff', width: 2 }), declutterMode: 'obstacle' }),
    text: count > 1 ? new Text({ text: fmtShort(count), offsetY: -17, font: 'bold 11px system-ui, sans-serif', fill: new Fill({ color }), stroke: new Stroke({ color: '#fff', width: 3 }) }) : undefined,
  }));
}
const plantingsStyle = (color: string) => (f: FeatureLike, resolution: number) => {
  const item = f.get('item') as Item;
  return item.kind === 'tree' ? treeStyle(item.count, color) : clusterStyle(item.count, color, bubbleRadius(item.count, f, resolution));
};
function entityStyle(color: string) {
  const point = new Style({ image: new Circle({ radius: 7, fill: new Fill({ color }), stroke: new Stroke({ color: '#fff', width: 2 }) }) });
  const shape = new Style({ fill: new Fill({ color: `${color}33` }), stroke: new Stroke({ color, width: 2 }) });
  return (f: FeatureLike) => (f.getGeometry()?.getType() === 'Point' ? point : shape);
}

export default function MapView({ initial, layers: initialLayers, regions, species }: MapViewProps) {
  const { t, lang } = useI18n();
  const el = useRef<HTMLDivElement>(null);
  const api = useRef<{ zoomTo: (i: Item) => void; toggle: (key: string, on: boolean) => void; show: (p: Popup | null) => void } | null>(null);
  const [enabled, setEnabled] = useState<Set<string>>(() => new Set(initialLayers));
  const [plantings, setPlantings] = useState<Record<string, PlantingsState>>({});
  const [entities, setEntities] = useState<Record<string, EntityState>>({});
  const [popup, setPopup] = useState<Popup | null>(null);
  const [noBase, setNoBase] = useState(false);
  const popupEl = useMemo(() => {
    const d = document.createElement('div');
    d.className = 'map-popup-anchor';
    return d;
  }, []);
  const tRef = useRef(t);
  tRef.current = t;
  const langRef = useRef(lang);
  langRef.current = lang;
  const enabledRef = useRef(enabled);
  enabledRef.current = enabled;
  const popupRef = useRef(popup);
  popupRef.current = popup;

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
    const namesLayer = new VectorLayer({ source: names, declutter: DECLUTTER, maxZoom: 8.5, className: 'names-layer' });
    map.addLayer(namesLayer);
    const setNames = (l: typeof lang) => {
      namesLayer.setStyle((f) => new Style({
        text: new Text({ text: pick((f.get('region') as Region).name, l), offsetY: 30, font: '12px system-ui, sans-serif', fill: new Fill({ color: '#33691e' }), stroke: new Stroke({ color: '#fff', width: 3 }) }),
      }));
    };
    setNames(lang);

    // one vector layer per layer of the switcher: the entity layers' small points over the plantings' circles
    const sources = new Map<string, VectorSource>();
    const vlayers = new Map<string, VectorLayer>();
    for (const def of [...LAYERS].sort((a, b) => (a.source === b.source ? 0 : a.source === 'entity' ? 1 : -1))) {
      const source = new VectorSource();
      const layer = new VectorLayer({
        source, className: `${def.source}-layer layer-${def.key}`, visible: enabledRef.current.has(def.key),
        // labels never overlap each other or a bubble: names, counts and bubbles declutter together
        declutter: def.source === 'plantings' ? DECLUTTER : undefined,
        style: def.source === 'plantings' ? plantingsStyle(def.color) : entityStyle(def.color),
      });
      layer.set('def', def);
      sources.set(def.key, source);
      vlayers.set(def.key, layer);
      map.addLayer(layer);
    }

    const overlay = new Overlay({ element: popupEl, positioning: 'bottom-center', offset: [0, -12], stopEvent: true, autoPan: { animation: { duration: 200 } } });
    map.addOverlay(overlay);
    const show = (p: Popup | null) => {
      setPopup(p);
      overlay.setPosition(p ? fromLonLat([p.item.lng, p.item.lat]) : undefined);
    };

    const controllers = new Map<string, AbortController>();
    const seqs = new Map<string, number>();
    const mark = (key: string, status: Status, count?: number) => {
      target.setAttribute(`data-layer-state-${key}`, status);
      if (count !== undefined) target.setAttribute(`data-layer-count-${key}`, String(count));
    };

    const loadPlantings = async (def: LayerDef) => {
      controllers.get(def.key)?.abort();
      const ctl = new AbortController();
      controllers.set(def.key, ctl);
      const mine = (seqs.get(def.key) ?? 0) + 1;
      seqs.set(def.key, mine);
      const zoom = Math.round((map.getView().getZoom() ?? 5) * 100) / 100;
      const bbox = viewBounds(map);
      const main = def.key === 'trees';
      if (main) { target.dataset.state = 'loading'; target.dataset.zoom = String(zoom); }
      mark(def.key, 'loading');
      setPlantings((s) => ({ ...s, [def.key]: { ...(s[def.key] ?? { items: [] }), status: 'loading' } }));
      try {
        const answer = await call<MapAnswer>(`/public/map/plantings?bbox=${bbox.join(',')}&zoom=${zoom}${def.irrigation ? '&irrigation=1' : ''}`, { lang: langRef.current, signal: ctl.signal });
        if (mine !== seqs.get(def.key)) return;
        const items: Item[] = answer.items.map((a) => answer.layer === 'trees'
          ? { kind: 'tree', lng: a[0], lat: a[1], count: a[2], id: a[3], speciesId: a[4] }
          : { kind: 'cluster', lng: a[0], lat: a[1], count: a[2], regionId: answer.layer === 'regions' ? a[3] : undefined });
        const source = sources.get(def.key)!;
        source.clear(true);
        const features = items.map((item) => new Feature({ geometry: new Point(fromLonLat([item.lng, item.lat])), item }));
        spaceOut(features);
        source.addFeatures(features);
        if (main) { target.dataset.layer = answer.layer; target.dataset.state = 'idle'; target.dataset.count = String(items.length); }
        mark(def.key, 'idle', items.length);
        setPlantings((s) => ({ ...s, [def.key]: { status: 'idle', layer: answer.layer, truncated: !!answer.truncated, items } }));
      } catch (e) {
        if (mine !== seqs.get(def.key) || (e as Error).name === 'AbortError') return;
        if (main) target.dataset.state = 'error';
        mark(def.key, 'error');
        setPlantings((s) => ({ ...s, [def.key]: { ...(s[def.key] ?? { items: [] }), status: 'error' } }));
      }
    };

    const loadEntity = async (def: LayerDef) => {
      controllers.get(def.key)?.abort();
      const ctl = new AbortController();
      controllers.set(def.key, ctl);
      const mine = (seqs.get(def.key) ?? 0) + 1;
      seqs.set(def.key, mine);
      mark(def.key, 'loading');
      setEntities((s) => ({ ...s, [def.key]: { ...(s[def.key] ?? { items: [] }), status: 'loading' } }));
      try {
        const answer = await call<LayerAnswer>(`/public/map/layers/${def.entity}?bbox=${viewBounds(map).join(',')}&lang=${langRef.current}`, { lang: langRef.current, signal: ctl.signal });
        if (mine !== seqs.get(def.key)) return;
        const source = sources.get(def.key)!;
        source.clear(true);
        const features: Feature[] = [];
        for (const item of answer.items) {
          if (item.shape && item.shape.length >= 3) {
            features.push(new Feature({ geometry: new Polygon([[...item.shape, item.shape[0]].map(([lng, lat]) => fromLonLat([lng, lat]))]), item }));
          }
          features.push(new Feature({ geometry: new Point(fromLonLat([item.lng, item.lat])), item }));
        }
        source.addFeatures(features);
        mark(def.key, 'idle', answer.items.length);
        setEntities((s) => ({ ...s, [def.key]: { status: 'idle', truncated: !!answer.truncated, items: answer.items } }));
      } catch (e) {
        if (mine !== seqs.get(def.key) || (e as Error).name === 'AbortError') return;
        mark(def.key, 'error');
        setEntities((s) => ({ ...s, [def.key]: { ...(s[def.key] ?? { items: [] }), status: 'error' } }));
      }
    };

    const load = (def: LayerDef) => (def.source === 'plantings' ? loadPlantings(def) : loadEntity(def));
    const unload = (def: LayerDef) => {
      controllers.get(def.key)?.abort();
      seqs.set(def.key, (seqs.get(def.key) ?? 0) + 1);
      sources.get(def.key)!.clear(true);
      mark(def.key, 'off', 0);
      if (def.key === 'trees') { target.dataset.state = 'idle'; target.dataset.count = '0'; }
      if (def.source === 'plantings') setPlantings((s) => ({ ...s, [def.key]: { status: 'off', items: [] } }));
      else setEntities((s) => ({ ...s, [def.key]: { status: 'off', items: [] } }));
    };
    for (const def of LAYERS) if (!enabledRef.current.has(def.key)) mark(def.key, 'off', 0);
    if (!enabledRef.current.has('trees')) { target.dataset.state = 'idle'; target.dataset.count = '0'; }

    const writeAddress = () => {
      const c = map.getView().getCenter();
      if (!c) return;
      const [lng, lat] = toLonLat(c);
      const zoom = Math.round((map.getView().getZoom() ?? 5) * 100) / 100;
      const on = LAYERS.filter((l) => enabledRef.current.has(l.key)).map((l) => l.key).join(',');
      navigate(`/map?lat=${lat.toFixed(5)}&lng=${lng.toFixed(5)}&z=${zoom}${on === 'trees' ? '' : `&layers=${on}`}`, { replace: true });
    };

    let timer: ReturnType<typeof setTimeout> | undefined;
    map.on('moveend', () => {
      writeAddress();
      for (const def of LAYERS) if (def.source === 'plantings' && enabledRef.current.has(def.key)) void load(def);
      clearTimeout(timer);
      const pending = LAYERS.filter((def) => def.source === 'entity' && enabledRef.current.has(def.key));
      // the entity layers wait until the view stops moving (a drag's many moveends ask once)
      for (const def of pending) mark(def.key, 'loading');
      timer = setTimeout(() => { for (const def of pending) if (enabledRef.current.has(def.key)) void load(def); }, ENTITY_DEBOUNCE_MS);
    });

    const toggle = (key: string, on: boolean) => {
      const def = LAYERS.find((l) => l.key === key)!;
      vlayers.get(key)!.setVisible(on);
      if (on) void load(def);
      else {
        unload(def);
        if (popupRef.current?.layer.key === key) show(null);
      }
      writeAddress();
    };

    const zoomTo = (item: Item) => {
      const view = map.getView();
      view.animate({ center: fromLonLat([item.lng, item.lat]), zoom: nextZoom(view.getZoom() ?? 5), duration: 400 });
    };
    api.current = { zoomTo, toggle, show };

    const isData = (l: { get: (k: string) => unknown }) => !!l.get('def');
    map.on('click', (e) => {
      // the topmost point under the pointer, else the topmost outline
      let hit: { def: LayerDef; item: unknown } | undefined;
      map.forEachFeatureAtPixel(e.pixel, (f, layer) => {
        const def = layer?.get('def') as LayerDef | undefined;
        if (!def) return undefined;
        const point = f.getGeometry()?.getType() === 'Point';
        if (point || !hit) hit = { def, item: f.get('item') };
        return point ? true : undefined;
      }, { hitTolerance: 6, layerFilter: isData });
      if (!hit) { show(null); return; }
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

    // for tests and debugging: where a place is on the screen, what each layer holds
    (target as unknown as { __ecofond: unknown }).__ecofond = {
      pixelOf: (lng: number, lat: number) => map.getPixelFromCoordinate(fromLonLat([lng, lat])),
      zoom: () => map.getView().getZoom(),
      items: () => sources.get('trees')!.getFeatures().map((f) => f.get('item') as Item),
      layerItems: (key: string) => [...new Set(sources.get(key)!.getFeatures().map((f) => f.get('item')))],
      features: (key: string) => sources.get(key)!.getFeatures().map((f) => f.getGeometry()?.getType()),
      /** the main layer's cluster circles as drawn: centre and radius in pixels */
      bubbles: () => sources.get('trees')!.getFeatures().filter((f) => (f.get('item') as Item).kind === 'cluster').map((f) => {
        const item = f.get('item') as Item;
        const [x, y] = map.getPixelFromCoordinate(fromLonLat([item.lng, item.lat]));
        return { x, y, r: bubbleRadius(item.count, f, map.getView().getResolution() ?? 1), count: item.count };
      }),
      setView: (lng: number, lat: number, z: number) => { map.getView().setCenter(fromLonLat([lng, lat])); map.getView().setZoom(z); },
    };
    const onResize = () => map.updateSize();
    window.addEventListener('resize', onResize);
    (target as unknown as { __setNames: typeof setNames }).__setNames = setNames;
    return () => {
      clearTimeout(timer);
      for (const c of controllers.values()) c.abort();
      window.removeEventListener('resize', onResize);
      map.setTarget(undefined);
      map.dispose();
    };
    // the map is built once; the language and the layers are applied below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    (el.current as unknown as { __setNames?: (l: typeof lang) => void } | null)?.__setNames?.(lang);
  }, [lang]);
  useEffect(() => { retitleControls(el.current, t); }, [t]);
  useEffect(() => {
    if (!popup) return;
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') api.current?.show(null); };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [popup]);

  const toggle = (key: string, on: boolean) => {
    const n = new Set(enabledRef.current);
    if (on) n.add(key); else n.delete(key);
    enabledRef.current = n; // the map's handlers read it before the next render
    setEnabled(n);
    api.current?.toggle(key, on);
  };

  const regionName = (id?: number) => pick(regions.find((r) => r.id === id)?.name, lang);
  const speciesName = (id?: number) => pick(species.find((s) => s.id === id)?.name, lang);
  const trees = plantings.trees;
  const busy = Object.values(plantings).some((s) => s.status === 'loading') || Object.values(entities).some((s) => s.status === 'loading');
  const failed = Object.values(plantings).some((s) => s.status === 'error') || Object.values(entities).some((s) => s.status === 'error');
  const truncated = Object.values(plantings).some((s) => s.truncated) || Object.values(entities).some((s) => s.truncated);
  const countOf = (key: string) => {
    const def = LAYERS.find((l) => l.key === key)!;
    const s = def.source === 'plantings' ? plantings[key] : entities[key];
    return s && s.status === 'idle' ? (def.source === 'plantings' ? (s as PlantingsState).items.reduce((n, i) => n + i.count, 0) : s.items.length) : null;
  };

  return (
    <>
      <LayerSwitch enabled={enabled} countOf={countOf} onToggle={toggle} />
      <div className="map-status">
        {trees?.layer && enabled.has('trees') && <span className="pill" role="status">{t('map.layer', { layer: t(`map.layer.${trees.layer}`) })}</span>}
        {busy && <span className="pill" aria-hidden="true">{t('map.loading')}</span>}
        {failed && <span className="pill warn" role="alert">{t('map.error')}</span>}
        {truncated && <span className="pill warn" role="status">{t('map.truncated')}</span>}
        {noBase && <span className="pill muted" data-testid="map-no-base">{t('map.base_off_short')}</span>}
      </div>
      <div ref={el} className="map big-map" data-testid="map" role="application" aria-label={t('map.label')} tabIndex={0} />
      {createPortal(popup ? <MapPopup popup={popup} onClose={() => api.current?.show(null)} /> : null, popupEl)}
      <p className="muted small">{t('map.legend')}</p>
      <details className="map-list" data-testid="map-list">
        <summary>{t('map.in_view')}</summary>
        {LAYERS.filter((l) => enabled.has(l.key)).map((def) => {
          if (def.source === 'plantings') {
            const s = plantings[def.key];
            if (!s) return null;
            const listed = [...s.items].sort((a, b) => b.count - a.count).slice(0, LIST_MAX);
            return (
              <section key={def.key}>
                <h3 className="small">{t(def.title)} ({fmtInt(s.items.length)})</h3>
                {s.status === 'idle' && s.items.length === 0 ? <p className="small">{t('map.empty')}</p> : (
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
                    {s.items.length > LIST_MAX && <li className="muted">{t('map.more', { n: fmtInt(s.items.length - LIST_MAX) })}</li>}
                  </ul>
                )}
              </section>
            );
          }
          const s = entities[def.key];
          if (!s) return null;
          return (
            <section key={def.key} data-testid={`map-list-${def.key}`}>
              <h3 className="small">{t(def.title)} ({fmtInt(s.items.length)})</h3>
              {s.status === 'idle' && s.items.length === 0 ? <p className="small">{t('map.layer_empty')}</p> : (
                <ul>
                  {s.items.slice(0, LIST_MAX).map((i) => (
                    <li key={i.id}>
                      <button type="button" className="link" onClick={() => { api.current?.show({ layer: def, item: i }); el.current?.scrollIntoView({ block: 'nearest' }); }}>{i.title || `№ ${i.id}`}</button>
                      {def.detail && <> · <a href={href(def.detail(i.id))}>{t('map.open_page')}</a></>}
                    </li>
                  ))}
                  {s.items.length > LIST_MAX && <li className="muted">{t('map.more', { n: fmtInt(s.items.length - LIST_MAX) })}</li>}
                </ul>
              )}
            </section>
          );
        })}
      </details>
    </>
  );
}

/** The layer switcher: a checkbox per layer with its colour and what it shows in the view. */
function LayerSwitch({ enabled, countOf, onToggle }: { enabled: Set<string>; countOf: (key: string) => number | null; onToggle: (key: string, on: boolean) => void }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(() => window.matchMedia('(min-width: 900px)').matches);
  return (
    <details className="layer-switch" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="layer-switch">
      <summary>{t('map.layers')} ({enabled.size})</summary>
      <fieldset>
        <legend className="visually-hidden">{t('map.layers')}</legend>
        <ul>
          {LAYERS.map((l) => {
            const n = enabled.has(l.key) ? countOf(l.key) : null;
            return (
              <li key={l.key}>
                <label>
                  <input type="checkbox" checked={enabled.has(l.key)} onChange={(e) => onToggle(l.key, e.target.checked)} data-testid={`layer-${l.key}`} />
                  <span className="swatch" style={{ background: l.color }} aria-hidden="true" />
                  <span>{t(l.title)}</span>
                  {n !== null && <span className="layer-count muted small">{fmtInt(n)}</span>}
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
    </details>
  );
}

function MapPopup({ popup, onClose }: { popup: Popup; onClose: () => void }) {
  const { t } = useI18n();
  const { layer, item } = popup;
  return (
    <div className="map-popup" role="dialog" aria-label={item.title} data-testid="map-popup">
      <button type="button" className="popup-close" onClick={onClose} aria-label={t('nav.close_popup')}>×</button>
      <p className="popup-layer small"><span className="swatch" style={{ background: layer.color }} aria-hidden="true" /> {t(layer.title)}</p>
      <p className="popup-title">{item.title || `№ ${item.id}`}</p>
      {layer.detail && <p><a href={href(layer.detail(item.id))} data-testid="popup-link">{t('map.open_page')} →</a></p>}
    </div>
  );
}
