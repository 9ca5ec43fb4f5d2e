import { useEffect, useRef, useState } from 'react';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import type OlMap from 'ol/Map';
import { useI18n } from '../i18n';
import { createSiteMap, fitUzbekistan, fromLonLat, toLonLat, retitleControls } from './olkit';
import { markerStyle } from './PointMap';

export interface LatLng {
  lat: number;
  lng: number;
}

/**
 * A public form's map (the planting form's, the people-fact form's): a click places the marker. When the place is set from outside (the
 * coordinates' inputs, "use my location") the marker moves and the map follows (zoom: focus).
 */
export default function LocationPicker({
  value,
  onPick,
  focus,
  describedBy,
  label,
}: {
  value: LatLng | null;
  onPick: (p: LatLng) => void;
  focus: number;
  describedBy?: string;
  label?: string;
}) {
  const { t } = useI18n();
  const el = useRef<HTMLDivElement>(null);
  const mapRef = useRef<OlMap | null>(null);
  const marker = useRef(new Feature());
  const [noBase, setNoBase] = useState(false);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    const map = createSiteMap({
      target: el.current!,
      t,
      onNoBase: () => setNoBase(true),
      center: value ? [value.lng, value.lat] : undefined,
      zoom: value ? 13 : undefined,
    });
    if (!value) fitUzbekistan(map);
    map.addLayer(new VectorLayer({ source: new VectorSource({ features: [marker.current] }), style: markerStyle }));
    map.on('click', (e) => {
      const [lng, lat] = toLonLat(e.coordinate);
      pick.current({ lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 });
    });
    (el.current as unknown as { __ecofond: unknown }).__ecofond = {
      pixelOf: (lng: number, lat: number) => map.getPixelFromCoordinate(fromLonLat([lng, lat])),
    };
    mapRef.current = map;
    return () => {
      map.setTarget(undefined);
      map.dispose();
      mapRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the map is built once, at the value it opens with; later values move the marker below
  }, []);

  useEffect(() => {
    marker.current.setGeometry(value ? new Point(fromLonLat([value.lng, value.lat])) : undefined);
  }, [value?.lat, value?.lng]); // eslint-disable-line react-hooks/exhaustive-deps -- follows the coordinates, not the value object

  // an outside change (geolocation, typed coordinates) centres the map there
  useEffect(() => {
    if (!focus || !value || !mapRef.current) return;
    const view = mapRef.current.getView();
    view.animate({ center: fromLonLat([value.lng, value.lat]), zoom: Math.max(view.getZoom() ?? 5, 14), duration: 300 });
  }, [focus]); // eslint-disable-line react-hooks/exhaustive-deps -- centres on an outside change only, not on a click on the map

  useEffect(() => {
    retitleControls(el.current, t);
  }, [t]);

  return (
    <>
      <div
        ref={el}
        className="map picker-map"
        data-testid="location-map"
        role="application"
        aria-label={label ?? t('form.map_label')}
        aria-describedby={describedBy}
        tabIndex={0}
      />
      {noBase && <p className="muted small">{t('map.base_off_short')}</p>}
    </>
  );
}
