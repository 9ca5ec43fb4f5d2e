import { useEffect, useRef, useState } from 'react';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import Polygon from 'ol/geom/Polygon';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import { Circle, Fill, Stroke, Style, Text } from 'ol/style';
import { createEmpty, extend, isEmpty } from 'ol/extent';
import type { FeatureLike } from 'ol/Feature';
import { useI18n } from '../i18n';
import { createSiteMap, fitUzbekistan, fromLonLat, retitleControls } from './olkit';

/**
 * A small map of a few places with their outlines (a park's point and shape, the areas where
 * residents may plant): it fits them all; a click on one calls onOpen. The wheel scrolls the page.
 */
export interface MapFeature {
  id: number;
  lat?: number | null;
  lng?: number | null;
  shape?: [number, number][] | null;
  title?: string;
}

const polygonOf = (ring: [number, number][]) => new Polygon([[...ring, ring[0]].map(([lng, lat]) => fromLonLat([lng, lat]))]);

export default function FeatureMap({
  items,
  label,
  color = '#2e7d32',
  onOpen,
  height,
  labels = false,
}: {
  items: MapFeature[];
  label: string;
  color?: string;
  onOpen?: (id: number) => void;
  height?: number;
  labels?: boolean;
}) {
  const { t } = useI18n();
  const el = useRef<HTMLDivElement>(null);
  const [noBase, setNoBase] = useState(false);
  const open = useRef(onOpen);
  open.current = onOpen;

  useEffect(() => {
    const map = createSiteMap({ target: el.current!, t, onNoBase: () => setNoBase(true), wheelZoom: false });
    const fill = new Fill({ color: `${color}40` });
    const stroke = new Stroke({ color, width: 2 });
    const dot = new Circle({ radius: 7, fill: new Fill({ color }), stroke: new Stroke({ color: '#fff', width: 2 }) });
    const style = (f: FeatureLike) =>
      new Style({
        fill,
        stroke,
        image: f.getGeometry()?.getType() === 'Point' ? dot : undefined,
        text:
          labels && f.getGeometry()?.getType() === 'Point' && f.get('title')
            ? new Text({
                text: String(f.get('title')),
                offsetY: -16,
                font: '12px system-ui, sans-serif',
                fill: new Fill({ color: '#1b5e20' }),
                stroke: new Stroke({ color: '#fff', width: 3 }),
              })
            : undefined,
      });
    const features: Feature[] = [];
    for (const it of items) {
      if (it.shape && it.shape.length >= 3) features.push(new Feature({ geometry: polygonOf(it.shape), id: it.id, title: it.title }));
      if (it.lat != null && it.lng != null)
        features.push(new Feature({ geometry: new Point(fromLonLat([it.lng, it.lat])), id: it.id, title: it.title }));
    }
    const source = new VectorSource({ features });
    map.addLayer(new VectorLayer({ source, style, className: 'features-layer', declutter: labels }));
    const extent = createEmpty();
    for (const f of features) extend(extent, f.getGeometry()!.getExtent());
    if (isEmpty(extent)) fitUzbekistan(map);
    else map.getView().fit(extent, { size: map.getSize(), padding: [30, 30, 30, 30], maxZoom: 16 });
    map.on('click', (e) => {
      const f = map.forEachFeatureAtPixel(e.pixel, (x) => x, { hitTolerance: 5 });
      const id = f?.get('id') as number | undefined;
      if (id !== undefined && open.current) open.current(id);
    });
    map.on('pointermove', (e) => {
      if (e.dragging || !open.current) return;
      el.current!.style.cursor = map.hasFeatureAtPixel(e.pixel, { hitTolerance: 5 }) ? 'pointer' : '';
    });
    el.current!.dataset.features = String(features.length);
    (el.current as unknown as { __ecofond: unknown }).__ecofond = {
      pixelOf: (lng: number, lat: number) => map.getPixelFromCoordinate(fromLonLat([lng, lat])),
    };
    return () => {
      map.setTarget(undefined);
      map.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- remade when the items' content changes, not the array; the language retitles it below
  }, [JSON.stringify(items), color]);
  useEffect(() => {
    retitleControls(el.current, t);
  }, [t]);

  return (
    <>
      <div
        ref={el}
        className="map small-map"
        style={height ? { height } : undefined}
        data-testid="feature-map"
        // a group, not an image: it holds the map's zoom buttons, which an image's children may not be
        role="group"
        aria-label={label}
      />
      {noBase && <p className="muted small no-print">{t('map.base_off_short')}</p>}
    </>
  );
}
