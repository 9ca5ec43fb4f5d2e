import { useEffect, useRef } from 'react';
import { Box, Button, FormHelperText, TextField, Typography } from '@mui/material';
import { Labeled, useInput, useTranslate } from 'react-admin';
import OlMap from 'ol/Map';
import View from 'ol/View';
import VectorLayer from 'ol/layer/Vector';
import { baseLayer } from './baseLayer';
import { mapControls, retitleControls } from './mapControls';
import VectorSource from 'ol/source/Vector';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import { fromLonLat, toLonLat } from 'ol/proj';
import { Circle, Fill, Stroke, Style } from 'ol/style';
import 'ol/ol.css';
import { roundCoordinate } from '../../../shared/numbers';

type LatLng = { lat: number; lng: number };

/** Tashkent, where an empty map opens. */
const CENTRE: LatLng = { lat: 41.3111, lng: 69.2797 };

/** Six decimals (about 10 cm): a stored float's fourteen are never shown. */
const round = roundCoordinate;

/**
 * A point `{lat, lng}` picked on an OpenLayers map (a click moves it) or typed. Loaded lazily as
 * its own chunk: most forms have no map.
 */
export default function PointInput({ source, label, required }: { source: string; label: string; required?: boolean }) {
  const translate = useTranslate();
  const { field, fieldState } = useInput({
    source,
    validate: required ? (v: unknown) => (v ? undefined : 'validation.required') : undefined,
  });
  const value = (field.value && typeof field.value === 'object' ? field.value : null) as LatLng | null;
  const el = useRef<HTMLDivElement>(null);
  const translateRef = useRef(translate);
  translateRef.current = translate;
  useEffect(() => retitleControls(el.current, translate), [translate]);
  const map = useRef<OlMap | null>(null);
  const marker = useRef(new Feature<Point>());
  const onChange = useRef(field.onChange);
  onChange.current = field.onChange;

  useEffect(() => {
    if (!el.current) return undefined;
    const vector = new VectorSource({ features: [marker.current] });
    const m = new OlMap({
      target: el.current,
      controls: mapControls(translateRef.current),
      layers: [
        baseLayer(),
        new VectorLayer({
          source: vector,
          style: new Style({
            image: new Circle({ radius: 7, fill: new Fill({ color: '#2e7d32' }), stroke: new Stroke({ color: '#fff', width: 2 }) }),
          }),
        }),
      ],
      view: new View({ center: fromLonLat([CENTRE.lng, CENTRE.lat]), zoom: 6 }),
    });
    m.on('click', (e) => {
      const [lng, lat] = toLonLat(e.coordinate);
      onChange.current({ lat: round(lat), lng: round(lng) });
    });
    map.current = m;
    return () => {
      m.setTarget(undefined);
      map.current = null;
    };
  }, []);

  useEffect(() => {
    if (value && typeof value.lat === 'number' && typeof value.lng === 'number') {
      const c = fromLonLat([value.lng, value.lat]);
      marker.current.setGeometry(new Point(c));
      map.current?.getView().setCenter(c);
    } else {
      marker.current.setGeometry(undefined);
    }
  }, [value?.lat, value?.lng]); // eslint-disable-line react-hooks/exhaustive-deps -- follows the coordinates, not the value object each render makes

  const setPart = (part: 'lat' | 'lng', raw: string) => {
    const n = raw === '' ? NaN : Number(raw);
    const next = { ...(value ?? CENTRE), [part]: Number.isNaN(n) ? 0 : n };
    field.onChange(next);
  };

  return (
    <Labeled label={label} sx={{ mb: 2, width: '100%' }} isRequired={required}>
      <Box data-testid={`point-input-${source}`}>
        <Box sx={{ display: 'flex', gap: 2, mb: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            size="small"
            type="number"
            sx={{ width: 200 }}
            label={translate('admin.map.lat')}
            value={typeof value?.lat === 'number' ? round(value.lat) : ''}
            onChange={(e) => setPart('lat', e.target.value)}
            slotProps={{ htmlInput: { step: 0.000001, min: -90, max: 90 } }}
          />
          <TextField
            size="small"
            type="number"
            sx={{ width: 200 }}
            label={translate('admin.map.lng')}
            value={typeof value?.lng === 'number' ? round(value.lng) : ''}
            onChange={(e) => setPart('lng', e.target.value)}
            slotProps={{ htmlInput: { step: 0.000001, min: -180, max: 180 } }}
          />
          <Button size="small" onClick={() => field.onChange(null)} disabled={!value}>
            {translate('admin.map.clear')}
          </Button>
        </Box>
        <Box
          ref={el}
          sx={{ width: '100%', maxWidth: 720, height: 320, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#eef3ee' }}
          data-testid="ol-map"
        />
        <Typography variant="caption" color="text.secondary">
          {translate('admin.map.hint')}
        </Typography>
        {fieldState.error?.message && <FormHelperText error>{translate(fieldState.error.message)}</FormHelperText>}
      </Box>
    </Labeled>
  );
}
