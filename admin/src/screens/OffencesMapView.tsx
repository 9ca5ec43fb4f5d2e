import { useEffect, useRef } from 'react';
import { Box } from '@mui/material';
import OlMap from 'ol/Map';
import View from 'ol/View';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import { Circle, Fill, Icon, Stroke, Style } from 'ol/style';
import { fromLonLat, toLonLat, transformExtent } from 'ol/proj';
import type { FeatureLike } from 'ol/Feature';
import 'ol/ol.css';
import { requestJson } from '../api/http';
import { useTranslate } from 'react-admin';
import { baseLayer } from '../generic/baseLayer';
import { mapControls, retitleControls } from '../generic/mapControls';
import { formatInteger } from '../generic/format';
import { stateColor, clusterRadius } from './offenceStates';

/** What `GET /api/ecofund-offences/offences/map` answers (docs/offences.md, "Offences map"). */
export interface MapAnswer {
  layer: 'regions' | 'cells' | 'offences';
  zoom: number;
  states: string[];
  source?: 'aggregates' | 'rows';
  next_zoom?: number;
  total?: number;
  truncated?: boolean;
  /** regions: [lng, lat, count, byState, regionId]; cells: [lng, lat, count, byState]; offences: [id, lng, lat, state, typeId, number] */
  items: unknown[][];
}

export interface Cluster {
  kind: 'cluster';
  lng: number;
  lat: number;
  count: number;
  by: number[];
  regionId?: number;
}
export interface Offence {
  kind: 'offence';
  id: number;
  lng: number;
  lat: number;
  state: string;
  typeId: number | null;
  number: string;
}
export type MapItem = Cluster | Offence;

export interface ViewState {
  status: 'loading' | 'idle' | 'error';
  answer?: MapAnswer;
  items: MapItem[];
  error?: unknown;
}

interface Props {
  /** the filters, as the API's query (`region_id=3&status=mvd`) */
  query: string;
  onState: (s: ViewState) => void;
  onOpen: (id: number) => void;
  label: string;
}

/** Uzbekistan, where the map opens. */
const UZBEKISTAN = [55.9, 37.1, 73.2, 45.6];
const DEBOUNCE_MS = 120;

export function itemsOf(a: MapAnswer): MapItem[] {
  if (a.layer === 'offences') {
    return (a.items as [number, number, number, string, number | null, string][]).map(([id, lng, lat, state, typeId, number]) => ({
      kind: 'offence',
      id,
      lng,
      lat,
      state,
      typeId,
      number,
    }));
  }
  return (a.items as [number, number, number, number[], number?][]).map(([lng, lat, count, by, regionId]) => ({
    kind: 'cluster',
    lng,
    lat,
    count,
    by,
    regionId,
  }));
}

/** A cluster's radius in pixels (offenceStates.ts: the legend draws the same sizes). */
const radiusOf = clusterRadius;

/**
 * Clusters of neighbouring cells whose rings would overlap on the screen (their centres near the
 * cells' shared edge, or two regions' centres close together) drawn as one: their counts and
 * counts by state summed, at their weighted centre. The biggest are placed first.
 */
export function mergeOverlapping(items: Cluster[], pixelOf: (c: Cluster) => [number, number]): Cluster[] {
  const placed: { c: Cluster; x: number; y: number }[] = [];
  for (const c of [...items].sort((a, b) => b.count - a.count)) {
    const [x, y] = pixelOf(c);
    const hit = placed.find((p) => Math.hypot(p.x - x, p.y - y) < radiusOf(p.c.count) + radiusOf(c.count) - 2);
    if (!hit) {
      placed.push({ c: { ...c, by: [...c.by] }, x, y });
      continue;
    }
    const m = hit.c;
    const n = m.count + c.count;
    m.lng = (m.lng * m.count + c.lng * c.count) / n;
    m.lat = (m.lat * m.count + c.lat * c.count) / n;
    m.by = m.by.map((k, i) => k + (c.by[i] ?? 0));
    m.count = n;
    m.regionId = undefined;
  }
  return placed.map((p) => p.c);
}

const styles = new Map<string, Style>();
/** A cluster as a ring of its states' shares around its count (drawn once per look, then cached). */
function clusterStyle(c: Cluster, states: string[]): Style {
  const r = radiusOf(c.count);
  const key = `${r}:${c.by.join(',')}`;
  let s = styles.get(key);
  if (s) return s;
  const ratio = window.devicePixelRatio || 1;
  const size = (r + 2) * 2;
  const canvas = document.createElement('canvas');
  canvas.width = size * ratio;
  canvas.height = size * ratio;
  const g = canvas.getContext('2d')!;
  g.scale(ratio, ratio);
  const centre = size / 2;
  const total = c.by.reduce((a, b) => a + b, 0) || 1;
  let angle = -Math.PI / 2;
  c.by.forEach((n, i) => {
    if (!n) return;
    const end = angle + (n / total) * Math.PI * 2;
    g.beginPath();
    g.moveTo(centre, centre);
    g.arc(centre, centre, r, angle, end);
    g.closePath();
    g.fillStyle = stateColor(states[i]);
    g.fill();
    angle = end;
  });
  // the count on white inside the ring
  g.beginPath();
  g.arc(centre, centre, r * 0.62, 0, Math.PI * 2);
  g.fillStyle = '#ffffff';
  g.fill();
  g.lineWidth = 2;
  g.strokeStyle = '#ffffff';
  g.beginPath();
  g.arc(centre, centre, r + 0.5, 0, Math.PI * 2);
  g.stroke();
  g.fillStyle = '#1b1b1b';
  const text = formatInteger(c.count).replace(/\s/g, '\u202f');
  g.font = `bold ${text.length > 5 ? 9 : text.length > 3 ? 10 : 12}px system-ui, sans-serif`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(text, centre, centre + 0.5);
  s = new Style({ image: new Icon({ img: canvas, size: [canvas.width, canvas.height], scale: 1 / ratio }) });
  styles.set(key, s);
  return s;
}

function offenceStyle(state: string): Style {
  const key = `o:${state}`;
  let s = styles.get(key);
  if (!s) {
    s = new Style({
      image: new Circle({ radius: 8, fill: new Fill({ color: stateColor(state) }), stroke: new Stroke({ color: '#fff', width: 2 }) }),
    });
    styles.set(key, s);
  }
  return s;
}

/**
 * The offences map itself (OpenLayers, a chunk of its own): one request per view and filter
 * (`…/offences/map?bbox&zoom&<filters>`, again on every move, the previous one aborted), clusters
 * as rings of their states' shares around their count (a click zooms to the next level), single
 * offences as points coloured by state (a click opens the offence).
 */
export default function OffencesMapView({ query, onState, onOpen, label }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const translate = useTranslate();
  const translateRef = useRef(translate);
  translateRef.current = translate;
  const api = useRef<{ load: () => void } | null>(null);
  const queryRef = useRef(query);
  queryRef.current = query;
  const onStateRef = useRef(onState);
  onStateRef.current = onState;
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;

  useEffect(() => {
    const target = el.current!;
    const source = new VectorSource();
    const layer = new VectorLayer({
      source,
      style: (f: FeatureLike) => {
        const item = f.get('item') as MapItem;
        return item.kind === 'offence' ? offenceStyle(item.state) : clusterStyle(item, f.get('states') as string[]);
      },
    });
    const map = new OlMap({
      target,
      layers: [baseLayer(), layer],
      controls: mapControls(translateRef.current),
      view: new View({ center: fromLonLat([64.5, 41.3]), zoom: 5, maxZoom: 19 }),
    });
    map.getView().fit(transformExtent(UZBEKISTAN, 'EPSG:4326', 'EPSG:3857'), { padding: [16, 16, 16, 16], maxZoom: 6 });

    let ctl: AbortController | undefined;
    let seq = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last: ViewState = { status: 'loading', items: [] };
    const publish = (s: ViewState) => {
      last = s;
      target.dataset.state = s.status;
      if (s.answer) {
        target.dataset.layer = s.answer.layer;
        target.dataset.count = String(s.items.length);
        target.dataset.total = String(s.answer.total ?? s.items.length);
      }
      onStateRef.current(s);
    };
    const load = async () => {
      ctl?.abort();
      ctl = new AbortController();
      const mine = ++seq;
      const size = map.getSize();
      if (!size) return;
      const [x0, y0, x1, y1] = transformExtent(map.getView().calculateExtent(size), 'EPSG:3857', 'EPSG:4326');
      const bbox = [x0, y0, x1, y1].map((n) => n.toFixed(6)).join(',');
      const zoom = Math.round((map.getView().getZoom() ?? 5) * 100) / 100;
      target.dataset.zoom = String(zoom);
      publish({ ...last, status: 'loading' });
      try {
        const q = queryRef.current;
        const answer = await requestJson<MapAnswer>(`/api/ecofund-offences/offences/map?bbox=${bbox}&zoom=${zoom}${q ? `&${q}` : ''}`, {
          signal: ctl.signal,
        });
        if (mine !== seq) return;
        const items = itemsOf(answer);
        const drawn =
          answer.layer === 'offences'
            ? items
            : mergeOverlapping(items as Cluster[], (c) => map.getPixelFromCoordinate(fromLonLat([c.lng, c.lat])) as [number, number]);
        source.clear(true);
        source.addFeatures(
          drawn.map((item) => new Feature({ geometry: new Point(fromLonLat([item.lng, item.lat])), item, states: answer.states })),
        );
        publish({ status: 'idle', answer, items });
      } catch (error) {
        if (mine !== seq || (error as Error).name === 'AbortError' || ctl.signal.aborted) return;
        publish({ status: 'error', items: last.items, answer: last.answer, error });
      }
    };
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void load(), DEBOUNCE_MS);
    };
    api.current = { load: later };
    map.on('moveend', later);

    const zoomTo = (c: Cluster) => {
      const view = map.getView();
      view.animate({ center: fromLonLat([c.lng, c.lat]), zoom: last.answer?.next_zoom ?? (view.getZoom() ?? 5) + 2, duration: 350 });
    };
    map.on('click', (e) => {
      const f = map.forEachFeatureAtPixel(e.pixel, (x) => x, { hitTolerance: 6, layerFilter: (l) => l === layer });
      const item = f?.get('item') as MapItem | undefined;
      if (!item) return;
      if (item.kind === 'offence') onOpenRef.current(item.id);
      else zoomTo(item);
    });
    map.on('pointermove', (e) => {
      if (e.dragging) return;
      target.style.cursor = map.hasFeatureAtPixel(e.pixel, { hitTolerance: 6, layerFilter: (l) => l === layer }) ? 'pointer' : '';
    });
    // for tests and debugging: where a place is on the screen, what the map shows
    (target as unknown as { __offmap: unknown }).__offmap = {
      pixelOf: (lng: number, lat: number) => map.getPixelFromCoordinate(fromLonLat([lng, lat])),
      items: () => last.items,
      drawn: () => source.getFeatures().map((f) => f.get('item') as MapItem),
      zoom: () => map.getView().getZoom(),
      centre: () => toLonLat(map.getView().getCenter() ?? [0, 0]),
      setView: (lng: number, lat: number, z: number) => {
        map.getView().setCenter(fromLonLat([lng, lat]));
        map.getView().setZoom(z);
      },
      zoomTo: (c: Cluster) => zoomTo(c),
    };
    const resize = new ResizeObserver(() => map.updateSize());
    resize.observe(target);
    return () => {
      clearTimeout(timer);
      ctl?.abort();
      resize.disconnect();
      map.setTarget(undefined);
      map.dispose();
    };
  }, []);

  // new filters: the same view, asked again
  useEffect(() => {
    api.current?.load();
  }, [query]);

  // the controls' tooltips in the language now chosen
  useEffect(() => retitleControls(el.current, translate), [translate]);

  return (
    <Box
      ref={el}
      role="application"
      aria-label={label}
      tabIndex={0}
      data-testid="offences-map"
      sx={{
        width: '100%',
        height: { xs: '62vh', md: '68vh' },
        minHeight: 320,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: '#eef3ee',
        position: 'relative',
      }}
    />
  );
}
