import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { Box, Button, FormHelperText, TextField, Typography } from '@mui/material';
import { Labeled, useInput, useTranslate, ValidationError } from 'react-admin';
import OlMap from 'ol/Map';
import View from 'ol/View';
import VectorLayer from 'ol/layer/Vector';
import { baseLayer } from './baseLayer';
import VectorSource from 'ol/source/Vector';
import Feature from 'ol/Feature';
import Polygon from 'ol/geom/Polygon';
import MultiPoint from 'ol/geom/MultiPoint';
import Draw from 'ol/interaction/Draw';
import Modify from 'ol/interaction/Modify';
import { fromLonLat, toLonLat } from 'ol/proj';
import { getCenter, isEmpty } from 'ol/extent';
import { Circle, Fill, Stroke, Style } from 'ol/style';
import 'ol/ol.css';

/** An open ring of [lng, lat] pairs, as the API writes a polygon (the closing point not repeated). */
export type Ring = [number, number][];

/** The API's bounds of a ring (api/engine/payload-schema.ts). */
export const MIN_POINTS = 3;
export const MAX_POINTS = 2000;

/** Tashkent, where an empty map opens. */
const CENTRE: [number, number] = [69.2797, 41.3111];

const round = (n: number) => Math.round(n * 1e6) / 1e6;

const isPair = (p: unknown): p is [number, number] =>
  Array.isArray(p) && p.length === 2 && p.every((n) => typeof n === 'number' && Number.isFinite(n));

/** A value that is a ring of number pairs (of any length), else null. */
export function asRing(v: unknown): Ring | null {
  return Array.isArray(v) && v.length > 0 && v.every(isPair) ? (v as Ring) : null;
}

/** The ring without its last point when that repeats the first (a closed ring, as OpenLayers and many tools write it). */
export function openRing(ring: Ring): Ring {
  if (ring.length < 2) return ring;
  const [a, b] = [ring[0], ring[ring.length - 1]];
  return a[0] === b[0] && a[1] === b[1] ? ring.slice(0, -1) : ring;
}

/** One `lng lat` line per point. */
export function ringToText(ring: Ring | null): string {
  return ring ? ring.map(([lng, lat]) => `${lng} ${lat}`).join('\n') : '';
}

const NUM = String.raw`([-+]?\d+(?:[.,]\d+)?)`;
const LINE = new RegExp(String.raw`^\s*${NUM}\s*[,;\s]\s*${NUM}\s*$`);

/**
 * Lines of `lng lat` (or `lng, lat`; a decimal comma is read as a point) to a ring: null for no
 * text, undefined when a line is not two numbers.
 */
export function textToRing(text: string): Ring | null | undefined {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (!lines.length) return null;
  const ring: Ring = [];
  for (const line of lines) {
    const m = LINE.exec(line);
    if (!m) return undefined;
    ring.push([Number(m[1].replace(',', '.')), Number(m[2].replace(',', '.'))]);
  }
  return openRing(ring);
}

const sameRing = (a: Ring | null | undefined, b: Ring | null) =>
  (a ?? null) === b || (!!a && !!b && a.length === b.length && a.every((p, i) => p[0] === b[i][0] && p[1] === b[i][1]));

type Message = string | { message: string; args: Record<string, unknown> };

/** What the API would say of a value (the same message keys), before it is sent. */
export function checkRing(v: unknown, required?: boolean): Message | undefined {
  if (v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length)) return required ? 'validation.required' : undefined;
  const ring = asRing(v);
  if (!ring) return 'validation.wrong_format';
  if (ring.length < MIN_POINTS || ring.length > MAX_POINTS) return { message: 'validation.polygon_points', args: { min: MIN_POINTS, max: MAX_POINTS } };
  if (ring.some(([lng, lat]) => Math.abs(lng) > 180 || Math.abs(lat) > 90)) return 'validation.coordinates';
  return undefined;
}

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
function toGeometry(ring: Ring): Polygon {
  const coords = ring.map(([lng, lat]) => fromLonLat([lng, lat]));
  return new Polygon([[...coords, coords[0]]]);
}

/** A ring of the map's polygon, open and rounded to six decimals (about 10 cm). */
function fromGeometry(g: Polygon): Ring {
  const outer = g.getCoordinates()[0] ?? [];
  return openRing(outer.map((c) => {
    const [lng, lat] = toLonLat(c);
    return [round(lng), round(lat)] as [number, number];
  }));
}

function fit(map: OlMap | null, g: Polygon) {
  if (!map) return;
  const extent = g.getExtent();
  // one point (or a line of points typed so far) has no area to fit: centre on it
  if (isEmpty(extent)) map.getView().setCenter(getCenter(extent));
  else map.getView().fit(extent, { padding: [24, 24, 24, 24], maxZoom: 17, duration: 0 });
}

function baseMap(target: HTMLElement, source: VectorSource): OlMap {
  return new OlMap({
    target,
    layers: [baseLayer(), new VectorLayer({ source, style: STYLES })],
    view: new View({ center: fromLonLat(CENTRE), zoom: 10 }),
  });
}

/**
 * A polygon drawn on an OpenLayers map (click the corners, double-click or click the first corner
 * to close; drag a corner or an edge to change it, Alt+click a corner to remove it) or typed as
 * `lng lat` lines in a text box that stays in step with the map, for the keyboard and for pasting.
 * Loaded lazily as its own chunk with the rest of OpenLayers: most forms have no map.
 */
export default function PolygonInput({ source, label, required }: { source: string; label: string; required?: boolean }) {
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source, validate: (v: unknown) => checkRing(v, required) });
  // react-admin formats an empty value as ''; a string is otherwise the text of a ring not yet read
  const value: unknown = field.value === '' || field.value === undefined ? null : field.value;
  const ring = asRing(value);
  const el = useRef<HTMLDivElement>(null);
  const map = useRef<OlMap | null>(null);
  const shape = useRef(new Feature<Polygon>());
  const draw = useRef<Draw | null>(null);
  const modify = useRef<Modify | null>(null);
  const onChange = useRef(field.onChange);
  onChange.current = field.onChange;
  /** the last value the map itself set (its view stays where the user is) */
  const fromMap = useRef<Ring | null>(null);
  const fitted = useRef(false);
  const [text, setText] = useState(() => (typeof value === 'string' ? value : ringToText(ring)));
  const hintId = useId();

  useEffect(() => {
    if (!el.current) return undefined;
    const vector = new VectorSource({ features: [shape.current] });
    const m = baseMap(el.current, vector);
    const d = new Draw({ type: 'Polygon' });
    d.on('drawend', (e) => {
      const g = e.feature.getGeometry();
      if (!(g instanceof Polygon)) return;
      const next = fromGeometry(g);
      fromMap.current = next;
      onChange.current(next);
    });
    const mo = new Modify({ source: vector });
    mo.on('modifyend', () => {
      const g = shape.current.getGeometry();
      if (!g) return;
      const next = fromGeometry(g);
      fromMap.current = next;
      onChange.current(next);
    });
    m.addInteraction(mo);
    m.addInteraction(d);
    draw.current = d;
    modify.current = mo;
    map.current = m;
    return () => { m.setTarget(undefined); map.current = null; draw.current = null; modify.current = null; };
  }, []);

  // the value to the map: its outline, drawing only while there is none
  useEffect(() => {
    const r = asRing(value);
    if (r) {
      const g = toGeometry(r);
      shape.current.setGeometry(g);
      if (!sameRing(fromMap.current, r) || !fitted.current) fit(map.current, g);
      fitted.current = true;
    } else if (typeof value !== 'string') {
      shape.current.setGeometry(undefined);
    }
    fromMap.current = null;
    const empty = value === null;
    draw.current?.setActive(empty);
    modify.current?.setActive(!empty);
  }, [value]);

  // the value to the text, unless the text already says it (so typing is never reformatted under the cursor)
  useEffect(() => {
    if (typeof value === 'string') return;
    setText((t) => (sameRing(textToRing(t), asRing(value)) ? t : ringToText(asRing(value))));
  }, [value]);

  const onText = (s: string) => {
    setText(s);
    const r = textToRing(s);
    // a line that is not two numbers keeps the text as the value: the form says "wrong format"
    field.onChange(r === undefined ? s : r);
  };

  const onMapKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') draw.current?.abortDrawing();
    else if (e.key === 'Backspace') draw.current?.removeLastPoint();
  };

  const error = fieldState.error?.message;
  return (
    <Labeled label={label} sx={{ mb: 2, width: '100%' }} isRequired={required}>
      <Box data-testid={`polygon-input-${source}`}>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <Box sx={{ flex: '1 1 420px', maxWidth: 720 }}>
            <Box
              ref={el}
              tabIndex={0}
              onKeyDown={onMapKey}
              aria-label={translate(label)}
              aria-describedby={hintId}
              sx={{ width: '100%', height: 360, border: 1, borderColor: error ? 'error.main' : 'divider', borderRadius: 1, bgcolor: '#eef3ee' }}
              data-testid="ol-map"
            />
            <Typography id={hintId} variant="caption" color="text.secondary" component="p">
              {translate('admin.map.polygon_hint', {
                _: 'Click the corners; double-click or click the first corner to close. Drag a corner or an edge to change it, Alt+click a corner to remove it.',
              })}
            </Typography>
          </Box>
          <Box sx={{ flex: '0 1 260px', minWidth: 220 }}>
            <TextField
              multiline
              minRows={6}
              maxRows={14}
              fullWidth
              size="small"
              label={translate('admin.map.vertices', { _: 'lng lat' })}
              helperText={translate('admin.map.vertices_hint', { _: 'One corner a line: longitude, then latitude' })}
              value={text}
              onChange={(e) => onText(e.target.value)}
              onBlur={field.onBlur}
              error={!!error}
              slotProps={{ htmlInput: { spellCheck: false, 'data-testid': `polygon-text-${source}`, style: { fontFamily: 'monospace' } } }}
            />
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
              <Button size="small" onClick={() => { draw.current?.abortDrawing(); field.onChange(null); }} disabled={value === null}>
                {translate('admin.map.clear')}
              </Button>
              {ring && (
                <Typography variant="caption" color="text.secondary" data-testid={`polygon-count-${source}`}>
                  {translate('admin.map.points', { smart_count: ring.length, _: String(ring.length) })}
                </Typography>
              )}
            </Box>
          </Box>
        </Box>
        {error && <FormHelperText error><ValidationError error={error} /></FormHelperText>}
      </Box>
    </Labeled>
  );
}

/** The widest a show page's map gets. */
const VIEW_WIDTH = 420;

/**
 * The width a show page's map may take: its first block-level ancestor's content width, at most
 * VIEW_WIDTH. (A field sits in an inline-flex label, whose width would otherwise be the map's own.)
 */
function useAvailableWidth(el: RefObject<HTMLElement | null>, key: string): number {
  const [width, setWidth] = useState(VIEW_WIDTH);
  useLayoutEffect(() => {
    let host = el.current?.parentElement ?? null;
    while (host && getComputedStyle(host).display.startsWith('inline')) host = host.parentElement;
    if (!host || typeof ResizeObserver === 'undefined') return undefined;
    const h = host;
    const measure = () => {
      const cs = getComputedStyle(h);
      const w = h.clientWidth - parseFloat(cs.paddingLeft || '0') - parseFloat(cs.paddingRight || '0');
      setWidth(Math.max(160, Math.min(VIEW_WIDTH, Math.floor(w))));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(h);
    return () => ro.disconnect();
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  return width;
}

/** A row's polygon on a small map (show pages). */
export function PolygonView({ value, height = 220 }: { value: unknown; height?: number }) {
  const ring = asRing(value);
  const el = useRef<HTMLDivElement>(null);
  const map = useRef<OlMap | null>(null);
  const key = JSON.stringify(ring);
  const width = useAvailableWidth(el, key);
  useEffect(() => {
    if (!el.current || !ring) return undefined;
    const g = toGeometry(ring);
    const m = baseMap(el.current, new VectorSource({ features: [new Feature(g)] }));
    fit(m, g);
    map.current = m;
    return () => { m.setTarget(undefined); map.current = null; };
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const m = map.current;
    if (!m || !ring) return;
    m.updateSize();
    fit(m, toGeometry(ring));
  }, [width]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!ring) return null;
  return (
    <Box
      ref={el}
      sx={{ width, height, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#eef3ee' }}
      data-testid="polygon-view"
      data-points={ring.length}
    />
  );
}
