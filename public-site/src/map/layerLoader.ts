import Feature from 'ol/Feature';
import type OlMap from 'ol/Map';
import Point from 'ol/geom/Point';
import Polygon from 'ol/geom/Polygon';
import type VectorSource from 'ol/source/Vector';
import { call, type LayerAnswer, type MapAnswer } from '../api';
import type { Lang } from '../i18n';
import { cellMaxRadius } from './bubbleBoard';
import { MAX_RADIUS, maxRadiusFor } from './bubbles';
import type { LayerDef } from './layers';
import type { BubbleScale, EntityState, Item, PlantingsState, Status } from './mapTypes';
import { fromLonLat, viewBounds } from './olkit';

type Update<S> = (f: (s: Record<string, S>) => Record<string, S>) => void;

export interface LayerLoader {
  /** asks the layer's items in the view (a newer ask of the same layer wins) and draws them */
  load: (def: LayerDef) => Promise<void>;
  /** empties a layer turned off and forgets what it was asking */
  unload: (def: LayerDef) => void;
  /** the layer's state (and count) on the map's element, for tests and styles */
  mark: (key: string, status: Status, count?: number) => void;
  /** stops every ask in flight */
  abortAll: () => void;
}

/**
 * The loading of the map's layers: plantings from `/public/map/plantings?bbox&zoom` (their
 * level, truncation and count on the map's element for the main layer, `trees`), the other layers
 * from `/public/map/layers/:entity?bbox=`; what each holds is handed to the page through
 * `setPlantings` and `setEntities`.
 */
export function layerLoader({
  map,
  target,
  sources,
  lang,
  setPlantings,
  setEntities,
}: {
  map: OlMap;
  target: HTMLElement;
  sources: Map<string, VectorSource>;
  lang: () => Lang;
  setPlantings: Update<PlantingsState>;
  setEntities: Update<EntityState>;
}): LayerLoader {
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
    if (main) {
      target.dataset.state = 'loading';
      target.dataset.zoom = String(zoom);
    }
    mark(def.key, 'loading');
    setPlantings((s) => ({ ...s, [def.key]: { ...(s[def.key] ?? { items: [] }), status: 'loading' } }));
    try {
      const answer = await call<MapAnswer>(
        `/public/map/plantings?bbox=${bbox.join(',')}&zoom=${zoom}${def.irrigation ? '&irrigation=1' : ''}`,
        { lang: lang(), signal: ctl.signal },
      );
      if (mine !== seqs.get(def.key)) return;
      const items: Item[] = answer.items.map((a) =>
        answer.layer === 'trees'
          ? { kind: 'tree', lng: a[0], lat: a[1], count: a[2], id: a[3], speciesId: a[4] }
          : { kind: 'cluster', lng: a[0], lat: a[1], count: a[2], regionId: answer.layer === 'regions' ? a[3] : undefined },
      );
      const source = sources.get(def.key)!;
      source.clear(true);
      const features = items.map((item) => new Feature({ geometry: new Point(fromLonLat([item.lng, item.lat])), item }));
      // the view's scale of bubbles: its biggest count at the largest radius (a grid's cells: about a cell wide)
      const scale: BubbleScale | undefined =
        answer.layer === 'trees'
          ? undefined
          : {
              max: items.reduce((m, i) => Math.max(m, i.count), 0),
              maxRadius: Math.min(
                maxRadiusFor(...((map.getSize() ?? [1000, 1000]) as [number, number])),
                answer.layer === 'cells' && answer.size ? cellMaxRadius(answer.size, map.getView().getResolution() ?? 1) : MAX_RADIUS,
              ),
            };
      source.set('layer', answer.layer, true);
      source.set('scale', scale, true);
      source.addFeatures(features);
      if (main) {
        target.dataset.layer = answer.layer;
        target.dataset.state = 'idle';
        target.dataset.count = String(items.length);
      }
      mark(def.key, 'idle', items.length);
      setPlantings((s) => ({ ...s, [def.key]: { status: 'idle', layer: answer.layer, truncated: !!answer.truncated, items, scale } }));
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
      const answer = await call<LayerAnswer>(`/public/map/layers/${def.entity}?bbox=${viewBounds(map).join(',')}&lang=${lang()}`, {
        lang: lang(),
        signal: ctl.signal,
      });
      if (mine !== seqs.get(def.key)) return;
      const source = sources.get(def.key)!;
      source.clear(true);
      const features: Feature[] = [];
      for (const item of answer.items) {
        if (item.shape && item.shape.length >= 3) {
          features.push(
            new Feature({ geometry: new Polygon([[...item.shape, item.shape[0]].map(([lng, lat]) => fromLonLat([lng, lat]))]), item }),
          );
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
    sources.get(def.key)!.set('scale', undefined, true);
    mark(def.key, 'off', 0);
    if (def.key === 'trees') {
      target.dataset.state = 'idle';
      target.dataset.count = '0';
    }
    if (def.source === 'plantings') setPlantings((s) => ({ ...s, [def.key]: { status: 'off', items: [] } }));
    else setEntities((s) => ({ ...s, [def.key]: { status: 'off', items: [] } }));
  };
  const abortAll = () => {
    for (const c of controllers.values()) c.abort();
  };
  return { load, unload, mark, abortAll };
}
