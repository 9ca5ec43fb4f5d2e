import { useState, type ReactNode } from 'react';
import { nameOf, type Lang, type T } from './i18n';
import type { Photo } from './db';
import type { Row } from './reference';

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
  /** the place was taken from a photo's EXIF GPS */
  fromPhoto?: boolean;
  /** a photo's EXIF GPS, offered while the form has no place */
  photoPlace?: Point;
  onChange: (p: Point | undefined, accuracy?: number, fromPhoto?: boolean) => void;
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
      {props.photoPlace && (
        <button
          type="button"
          className="secondary"
          data-testid="photo-place"
          onClick={() => props.photoPlace && props.onChange(props.photoPlace, undefined, true)}
        >
          {t('f.photo_place', { lat: props.photoPlace.lat, lng: props.photoPlace.lng })}
        </button>
      )}
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
      {props.fromPhoto && <span className="hint">{t('f.from_photo')}</span>}
      {failed && <span className="error">{t('f.locate.failed')}</span>}
      {props.error && <span className="error">{props.error}</span>}
    </fieldset>
  );
}

/** A photo's time as Tashkent's dd.mm.yyyy hh:mm: the EXIF time as written ("2026-12-02 10:15"), or the file's ISO date. */
export function photoTime(p: Photo): string {
  if (!p.takenAt) return '';
  const local =
    p.timeFrom === 'exif' ? p.takenAt : new Date(Date.parse(p.takenAt) + 5 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
  const [d, time] = local.split(' ');
  return `${d.split('-').reverse().join('.')} ${time ?? ''}`.trim();
}

export function PhotosInput(props: {
  t: T;
  lang: Lang;
  photos: Photo[];
  /** an offence's file types: each photo is given one */
  types?: Row[];
  typeOf: (p: Photo) => number | undefined;
  onType: (id: string, typeId: number | undefined) => void;
  typeErrors: (i: number) => string | undefined;
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
        {props.photos.map((p, i) => (
          <li key={p.id} data-testid="photo">
            <img src={props.urls[p.id]} alt={p.name} />
            <span className="hint" data-testid="photo-time">
              {t(p.timeFrom === 'exif' ? 'f.photo.taken' : 'f.photo.file', { time: photoTime(p) })}
            </span>
            {p.gps && (
              <span className="hint" data-testid="photo-gps">
                {t('f.photo.gps', { lat: p.gps.lat, lng: p.gps.lng })}
              </span>
            )}
            {props.types && (
              <select
                name={`files.${i}.type_id`}
                aria-label={t('f.photo_type')}
                value={props.typeOf(p) ?? ''}
                disabled={props.disabled}
                onChange={(e) => props.onType(p.id, e.target.value === '' ? undefined : Number(e.target.value))}
              >
                <option value="">{t('f.photo_type')}</option>
                {props.types.map((r) => (
                  <option key={r.id} value={r.id}>
                    {nameOf(r, props.lang) || String(r.id)}
                  </option>
                ))}
              </select>
            )}
            {props.typeErrors(i) && <span className="error">{props.typeErrors(i)}</span>}
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
