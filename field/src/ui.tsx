import { useState, type ReactNode } from 'react';
import type { T } from './i18n';
import type { Photo } from './db';

/** The form's small parts: a labelled field with its error, a point with "use my location", photos. */
export function Field(props: { label: string; error?: string; children: ReactNode; hint?: string }) {
  return (
    <label className={`field${props.error ? ' invalid' : ''}`}>
      <span className="label">{props.label}</span>
      {props.children}
      {props.hint && <span className="hint">{props.hint}</span>}
      {props.error && (
        <span className="error" role="alert">
          {props.error}
        </span>
      )}
    </label>
  );
}

export interface Point {
  lat: number;
  lng: number;
}

export function PointInput(props: {
  t: T;
  value: Point | undefined;
  accuracy?: number;
  onChange: (p: Point | undefined, accuracy?: number) => void;
  error?: string;
  disabled?: boolean;
}) {
  const { t, value } = props;
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const set = (k: keyof Point, v: string) => {
    const n = v === '' ? NaN : Number(v.replace(',', '.'));
    const next = { lat: value?.lat ?? NaN, lng: value?.lng ?? NaN, [k]: n };
    props.onChange(Number.isNaN(next.lat) && Number.isNaN(next.lng) ? undefined : (next as Point));
  };
  const locate = () => {
    setBusy(true);
    setFailed(false);
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        setBusy(false);
        props.onChange({ lat: +pos.coords.latitude.toFixed(6), lng: +pos.coords.longitude.toFixed(6) }, Math.round(pos.coords.accuracy));
      },
      () => {
        setBusy(false);
        setFailed(true);
      },
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 60_000 },
    );
  };
  return (
    <fieldset className={`point${props.error ? ' invalid' : ''}`}>
      <legend>{t('f.location')}</legend>
      <button type="button" className="secondary" onClick={locate} disabled={busy || props.disabled} data-testid="locate">
        {busy ? t('f.locating') : t('f.locate')}
      </button>
      <div className="row">
        <Field label={t('f.lat')}>
          <input
            inputMode="decimal"
            name="lat"
            disabled={props.disabled}
            value={value && !Number.isNaN(value.lat) ? String(value.lat) : ''}
            onChange={(e) => set('lat', e.target.value)}
          />
        </Field>
        <Field label={t('f.lng')}>
          <input
            inputMode="decimal"
            name="lng"
            disabled={props.disabled}
            value={value && !Number.isNaN(value.lng) ? String(value.lng) : ''}
            onChange={(e) => set('lng', e.target.value)}
          />
        </Field>
      </div>
      {props.accuracy !== undefined && <span className="hint">{t('f.accuracy', { m: props.accuracy })}</span>}
      {failed && <span className="error">{t('f.locate.failed')}</span>}
      {props.error && <span className="error">{props.error}</span>}
    </fieldset>
  );
}

export function PhotosInput(props: {
  t: T;
  photos: Photo[];
  urls: Record<string, string>;
  onAdd: (files: File[]) => void;
  onRemove: (id: string) => void;
  disabled?: boolean;
  error?: string;
}) {
  const { t } = props;
  return (
    <fieldset className="photos">
      <legend>{t('f.photos')}</legend>
      <ul>
        {props.photos.map((p) => (
          <li key={p.id} data-testid="photo">
            <img src={props.urls[p.id]} alt={p.name} />
            {p.error && <span className="error">{p.error}</span>}
            {!props.disabled && (
              <button type="button" className="link" onClick={() => props.onRemove(p.id)}>
                {t('f.photo.remove')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {!props.disabled && (
        <label className="button secondary">
          {t('f.photos.add')}
          <input
            type="file"
            accept="image/*"
            capture="environment"
            multiple
            name="photos"
            hidden
            onChange={(e) => {
              props.onAdd([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </label>
      )}
      {props.error && <span className="error">{props.error}</span>}
    </fieldset>
  );
}
