import { lazy, Suspense, useState, type ReactNode, type RefObject } from 'react';
import { fmtCoord } from '../format';
import { useI18n, type Key, type T } from '../i18n';
import { ApiError } from '../api';
import { Icon, Loading } from './ui';

const LocationPicker = lazy(() => import('../map/LocationPicker'));

/**
 * The public forms' parts (the planting, people-fact and suggestion forms): what a failed send says, a labelled field with its hint
 * and error, the error summary at the top, and the place on a map with its coordinates. Errors are
 * beside their inputs (`aria-invalid`, `aria-describedby`) and listed in a live region that takes
 * focus, whose links lead to the inputs.
 */

/** A field's label (with "required" or "optional"), its input, hint and error. */
export function FieldBox({
  id,
  label,
  required,
  optional,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  optional?: boolean;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const name = id.split('-').pop();
  return (
    <div className={`field${error ? ' invalid' : ''}`}>
      <label htmlFor={id}>
        {label}
        {required && (
          <>
            <span className="req" aria-hidden="true">
              {' '}
              *
            </span>
            <span className="visually-hidden"> {t('form.required')}</span>
          </>
        )}
        {optional && <span className="muted"> {t('form.optional')}</span>}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" data-testid={`error-${name}`}>
          <Icon name="alert" /> {error}
        </p>
      )}
    </div>
  );
}

/**
 * The form's errors at the top: a general one (429, connection) and each field's, as links that
 * focus the field's input. It is a live region and takes focus when the errors change.
 */
export function ErrorSummary<F extends string>({
  summaryRef,
  general,
  fields,
  errors,
  labelOf,
  target,
  route,
}: {
  summaryRef: RefObject<HTMLDivElement | null>;
  general: string;
  fields: F[];
  errors: Partial<Record<F, string>>;
  labelOf: (f: F) => string;
  target: (f: F) => string;
  route: string;
}) {
  const { t } = useI18n();
  const listed = fields.filter((f) => errors[f]);
  return (
    <div
      ref={summaryRef}
      className={listed.length || general ? 'error-summary' : 'error-summary empty-summary'}
      aria-live="assertive"
      tabIndex={-1}
      data-testid="error-summary"
    >
      {general && (
        <p className="general-error" data-testid="general-error">
          {general}
        </p>
      )}
      {listed.length > 0 && (
        <>
          <p className="summary-title">{t('form.errors_title', { n: listed.length })}</p>
          <ul>
            {listed.map((f) => (
              <li key={f}>
                <a
                  href={`#${route}#${target(f)}`}
                  onClick={(e) => {
                    e.preventDefault();
                    document.getElementById(target(f))?.focus();
                  }}
                >
                  {labelOf(f)}: {errors[f]}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

export interface LatLngText {
  lat: string;
  lng: string;
}

/** The typed coordinates as a place, or null while they are not two numbers. */
export const placeOf = (v: LatLngText) =>
  v.lat !== '' && v.lng !== '' && Number.isFinite(Number(v.lat)) && Number.isFinite(Number(v.lng))
    ? { lat: Number(v.lat), lng: Number(v.lng) }
    : null;

/**
 * A place: a click on the map places the marker, "use my location" asks the browser, and latitude
 * and longitude can be typed (for keyboard users). `idOf('lat')` is the first input (the summary's
 * link target); `error` is shown under the whole group.
 */
export function LocationFieldset({
  idOf,
  value,
  onChange,
  error,
  legend,
  hint,
  mapLabel,
  required,
  optional,
}: {
  idOf: (f: string) => string;
  value: LatLngText;
  onChange: (v: LatLngText) => void;
  error?: string;
  legend: Key;
  hint: Key;
  mapLabel: Key;
  required?: boolean;
  optional?: boolean;
}) {
  const { t } = useI18n();
  const [geo, setGeo] = useState<'idle' | 'busy' | 'failed'>('idle');
  const [focus, setFocus] = useState(0);
  const place = placeOf(value);
  const describe = (hinted: boolean) =>
    [hinted ? idOf('location-hint') : '', error ? idOf('location-error') : ''].filter(Boolean).join(' ') || undefined;

  function useMyLocation() {
    if (!navigator.geolocation) {
      setGeo('failed');
      return;
    }
    setGeo('busy');
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        onChange({ lat: pos.coords.latitude.toFixed(6), lng: pos.coords.longitude.toFixed(6) });
        setGeo('idle');
        setFocus((n) => n + 1);
      },
      () => setGeo('failed'),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 },
    );
  }

  return (
    <fieldset className={`field location${error ? ' invalid' : ''}`} aria-describedby={describe(true)}>
      <legend>
        {t(legend)}
        {required && (
          <>
            {' '}
            <span className="req" aria-hidden="true">
              *
            </span>
            <span className="visually-hidden">{t('form.required')}</span>
          </>
        )}
        {optional && <span className="muted"> {t('form.optional')}</span>}
      </legend>
      <p id={idOf('location-hint')} className="hint">
        {t(hint)}
      </p>
      <Suspense fallback={<Loading label={t('common.map_loading')} height={280} />}>
        <LocationPicker
          value={place}
          focus={focus}
          describedBy={idOf('location-hint')}
          label={t(mapLabel)}
          onPick={(p) => onChange({ lat: String(p.lat), lng: String(p.lng) })}
        />
      </Suspense>
      <div className="row-2 coords">
        <div className="field">
          <label htmlFor={idOf('lat')}>{t('form.lat')}</label>
          <input
            id={idOf('lat')}
            name="lat"
            inputMode="decimal"
            value={value.lat}
            onChange={(e) => onChange({ ...value, lat: e.target.value })}
            onBlur={() => place && setFocus((n) => n + 1)}
            aria-invalid={!!error}
            aria-describedby={describe(false)}
          />
        </div>
        <div className="field">
          <label htmlFor={idOf('lng')}>{t('form.lng')}</label>
          <input
            id={idOf('lng')}
            name="lng"
            inputMode="decimal"
            value={value.lng}
            onChange={(e) => onChange({ ...value, lng: e.target.value })}
            onBlur={() => place && setFocus((n) => n + 1)}
            aria-invalid={!!error}
            aria-describedby={describe(false)}
          />
        </div>
      </div>
      <div className="row-gap">
        <button type="button" className="btn" onClick={useMyLocation} disabled={geo === 'busy'} data-testid="use-location">
          <Icon name="locate" /> {geo === 'busy' ? t('form.locating') : t('form.use_location')}
        </button>
        <span className="small" aria-live="polite" data-testid="location-text">
          {place ? t('form.location_set', { lat: fmtCoord(place.lat), lng: fmtCoord(place.lng) }) : t('form.location_none')}
        </span>
      </div>
      {geo === 'failed' && (
        <p className="hint warn" role="status">
          {t('form.geo_failed')}
        </p>
      )}
      {error && (
        <p id={idOf('location-error')} className="field-error" data-testid="error-location">
          <Icon name="alert" /> {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * What a failed send says: the server's field errors beside the form's own inputs (an upload's
 * `file` / `name` errors beside `fileField`), the others after the message at the top — or the
 * connection's or the system's message when the server gave none.
 */
export function sendErrors<F extends string>(
  err: unknown,
  order: readonly F[],
  fileField: F,
  t: T,
): { fields: Partial<Record<F, string>>; general: string } {
  if (!(err instanceof ApiError)) return { fields: {}, general: t('err.system') };
  if (err.status === 0) return { fields: {}, general: t('err.connection') };
  const fields: Partial<Record<F, string>> = {};
  let rest = '';
  for (const [k, m] of Object.entries(err.errors)) {
    const f = (k === 'file' || k === 'name' ? fileField : k) as F;
    if (order.includes(f)) fields[f] = m;
    else rest += `${rest ? '; ' : ''}${m}`;
  }
  return {
    fields,
    general:
      Object.keys(fields).length && !rest ? '' : [err.message || t('err.system'), rest || err.description].filter(Boolean).join(': '),
  };
}
