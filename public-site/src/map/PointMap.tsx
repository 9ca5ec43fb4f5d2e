import { useEffect, useRef, useState } from 'react';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import { Circle, Fill, Stroke, Style } from 'ol/style';
import { useI18n } from '../i18n';
import { createSiteMap, fromLonLat, retitleControls } from './olkit';

export const markerStyle = new Style({
  image: new Circle({ radius: 9, fill: new Fill({ color: '#c62828' }), stroke: new Stroke({ color: '#fff', width: 3 }) }),
});

/** A small map with one marker (the tree passport); the wheel scrolls the page, not the map. */
export default function PointMap({ lat, lng, label }: { lat: number; lng: number; label: string }) {
  const { t } = useI18n();
  const el = useRef<HTMLDivElement>(null);
  const [noBase, setNoBase] = useState(false);
  useEffect(() => {
    const map = createSiteMap({ target: el.current!, t, onNoBase: () => setNoBase(true), center: [lng, lat], zoom: 15, wheelZoom: false });
    map.addLayer(
      new VectorLayer({
        source: new VectorSource({ features: [new Feature(new Point(fromLonLat([lng, lat])))] }),
        style: markerStyle,
      }),
    );
    return () => {
      map.setTarget(undefined);
      map.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the map is made anew for another point; the language retitles it below
  }, [lat, lng]);
  useEffect(() => {
    retitleControls(el.current, t);
  }, [t]);

  return (
    <>
      {/* a group, not an image: it holds the map's zoom buttons, which an image's children may not be */}
      <div ref={el} className="map small-map" data-testid="point-map" role="group" aria-label={label} />
      {noBase && <p className="muted small no-print">{t('map.base_off')}</p>}
    </>
  );
}
