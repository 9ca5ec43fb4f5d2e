import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Box, Button, FormHelperText, TextField, Typography } from '@mui/material';
import { Labeled, useInput, useTranslate, ValidationError } from 'react-admin';
import type OlMap from 'ol/Map';
import VectorSource from 'ol/source/Vector';
import Feature from 'ol/Feature';
import Polygon from 'ol/geom/Polygon';
import Draw from 'ol/interaction/Draw';
import Modify from 'ol/interaction/Modify';
import { asRing, checkRing, ringToText, sameRing, textToRing, type Ring } from './polygonRing';
import { retitleControls } from './mapControls';
import { baseMap, fit, fromGeometry, toGeometry } from './polygonMap';

/**
 * A polygon drawn on an OpenLayers map (click the corners, double-click or click the first corner
 * to close; drag a corner or an edge to change it, Alt+click a corner to remove it) or typed as
 * `lng lat` lines in a text box that stays in step with the map, for the keyboard and for pasting.
 * Loaded lazily as its own chunk with the rest of OpenLayers: most forms have no map.
 */
export default function PolygonInput({ source, label, required }: { source: string; label: string; required?: boolean }) {
  const translate = useTranslate();
  const translateRef = useRef(translate);
  translateRef.current = translate;
  const { field, fieldState } = useInput({ source, validate: (v: unknown) => checkRing(v, required) });
  // react-admin formats an empty value as ''; a string is otherwise the text of a ring not yet read
  const value: unknown = field.value === '' || field.value === undefined ? null : field.value;
  const ring = asRing(value);
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => retitleControls(el.current, translate), [translate]);
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
    const m = baseMap(el.current, vector, translateRef.current);
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
    return () => {
      m.setTarget(undefined);
      map.current = null;
      draw.current = null;
      modify.current = null;
    };
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
              // a map that takes keys (Escape, Backspace while drawing), named like the other maps
              role="application"
              tabIndex={0}
              onKeyDown={onMapKey}
              aria-label={translate(label)}
              aria-describedby={hintId}
              sx={{
                width: '100%',
                height: 360,
                border: 1,
                borderColor: error ? 'error.main' : 'divider',
                borderRadius: 1,
                bgcolor: '#eef3ee',
              }}
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
              <Button
                size="small"
                onClick={() => {
                  draw.current?.abortDrawing();
                  field.onChange(null);
                }}
                disabled={value === null}
              >
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
        {error && (
          <FormHelperText error>
            <ValidationError error={error} />
          </FormHelperText>
        )}
      </Box>
    </Labeled>
  );
}
