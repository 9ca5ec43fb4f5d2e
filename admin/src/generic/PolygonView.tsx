import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Box } from '@mui/material';
import type OlMap from 'ol/Map';
import VectorSource from 'ol/source/Vector';
import Feature from 'ol/Feature';
import { asRing } from './polygonRing';
import { useTranslate } from 'react-admin';
import { retitleControls } from './mapControls';
import { baseMap, fit, toGeometry } from './polygonMap';

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
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps -- measured again when the shape changes; the ref object itself never does
  return width;
}

/** A row's polygon on a small map (show pages). */
export function PolygonView({ value, height = 220 }: { value: unknown; height?: number }) {
  const ring = asRing(value);
  const el = useRef<HTMLDivElement>(null);
  const map = useRef<OlMap | null>(null);
  const translate = useTranslate();
  const translateRef = useRef(translate);
  translateRef.current = translate;
  useEffect(() => retitleControls(el.current, translate), [translate]);
  const key = JSON.stringify(ring);
  const width = useAvailableWidth(el, key);
  useEffect(() => {
    if (!el.current || !ring) return undefined;
    const g = toGeometry(ring);
    const m = baseMap(el.current, new VectorSource({ features: [new Feature(g)] }), translateRef.current);
    fit(m, g);
    map.current = m;
    return () => {
      m.setTarget(undefined);
      map.current = null;
    };
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps -- the map is made anew when the ring's content changes, not the array each render makes
  useEffect(() => {
    const m = map.current;
    if (!m || !ring) return;
    m.updateSize();
    fit(m, toGeometry(ring));
  }, [width]); // eslint-disable-line react-hooks/exhaustive-deps -- refitted when the width changes; a new ring remakes the map above
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
