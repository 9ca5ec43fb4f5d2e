import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { call, useApi, type Region } from '../api';
import { Icon, PageTitle } from '../components/ui';
import { ErrorSummary, FieldBox, sendErrors, LocationFieldset, placeOf, type LatLngText } from '../components/form';
import { insideUzbekistan } from '../geo';
import { pick, useI18n, type Key } from '../i18n';
import { FileButton } from '../components/FileButton';

/**
 * /people-facts: anyone reports what they saw (trees felled, waste dumped, smoke…) with photos or
 * a short video and a way to reach them. Checked here first (the server's rules), then each file is
 * uploaded (`/public/uploads`), then the fact is sent (`/public/people-facts`); the server's field
 * errors show beside their inputs like ours. The contact is the inspectors' only: nothing of a fact
 * is published.
 */
type Field = 'description' | 'region_id' | 'address' | 'location' | 'files' | 'informant_name' | 'informant_phone' | 'informant_email';
type Errors = Partial<Record<Field, string>>;
const ORDER: Field[] = ['description', 'region_id', 'address', 'location', 'files', 'informant_name', 'informant_phone', 'informant_email'];
const ROUTE = '/people-facts';
const MAX_FILES = 5;
const MAX_IMAGE = 5 * 1024 * 1024;
const MAX_VIDEO = 20 * 1024 * 1024;
const VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/quicktime'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Values {
  description: string;
  region_id: string;
  address: string;
  informant_name: string;
  informant_phone: string;
  informant_email: string;
}
const EMPTY: Values = { description: '', region_id: '', address: '', informant_name: '', informant_phone: '', informant_email: '' };

/** The nine digits of a phone typed as (90) 123-45-67, +998 90 123 45 67…; null when it is not one. */
export function phoneDigits(s: string): string | null {
  let d = s.replace(/[\s()+-]/g, '');
  if (/^998\d{9}$/.test(d)) d = d.slice(3);
  return /^\d{9}$/.test(d) ? d : null;
}

export default function PeopleFactForm() {
  const { t, lang } = useI18n();
  const uid = useId();
  const id = (f: string) => `${uid}-${f}`;
  const regions = useApi<Region[]>('/public/regions');
  const [v, setV] = useState<Values>(EMPTY);
  const [place, setPlace] = useState<LatLngText>({ lat: '', lng: '' });
  const [files, setFiles] = useState<File[]>([]);
  const [uploaded, setUploaded] = useState<Map<File, number>>(new Map());
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState('');
  const [status, setStatus] = useState<'idle' | 'uploading' | 'sending'>('idle');
  const [progress, setProgress] = useState(0);
  const [done, setDone] = useState<{ number: string } | null>(null);
  const summary = useRef<HTMLDivElement>(null);
  const thanks = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (done) thanks.current?.focus();
  }, [done]);
  const options = useMemo(() => (regions.data ?? []).map((r) => ({ id: r.id, label: pick(r.name, lang) })), [regions.data, lang]);
  const location = placeOf(place);

  const set = (f: keyof Values) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setV((o) => ({ ...o, [f]: value }));
    if (errors[f]) setErrors((o) => ({ ...o, [f]: undefined }));
  };

  function check(): Errors {
    const e: Errors = {};
    const description = v.description.trim();
    if (!description) e.description = t('v.required');
    else if (description.length < 10) e.description = t('v.min_length', { limit: 10 });
    else if (description.length > 5000) e.description = t('v.max_length', { limit: 5000 });
    if (!v.region_id) e.region_id = t('v.required');
    if (v.address.trim().length > 500) e.address = t('v.max_length', { limit: 500 });
    if (place.lat.trim() !== '' || place.lng.trim() !== '') {
      if (!location || Math.abs(location.lat) > 90 || Math.abs(location.lng) > 180) e.location = t('v.coordinate');
      else if (!insideUzbekistan(location.lat, location.lng)) e.location = t('v.location_outside');
    }
    if (files.length > MAX_FILES) e.files = t('v.files_count', { limit: MAX_FILES });
    else {
      const bad = files.find((f) => !f.type.startsWith('image/') && !VIDEO_TYPES.includes(f.type));
      const big = files.find((f) => f.size > (f.type.startsWith('video/') ? MAX_VIDEO : MAX_IMAGE));
      if (bad) e.files = t('v.fact_file_type', { name: bad.name });
      else if (big) e.files = t('v.fact_file_size', { name: big.name });
    }
    const name = v.informant_name.trim();
    if (!name) e.informant_name = t('v.required');
    else if (name.length < 2) e.informant_name = t('v.min_length', { limit: 2 });
    else if (name.length > 255) e.informant_name = t('v.max_length', { limit: 255 });
    if (!v.informant_phone.trim()) e.informant_phone = t('v.required');
    else if (!phoneDigits(v.informant_phone)) e.informant_phone = t('v.phone');
    if (v.informant_email.trim() && !EMAIL.test(v.informant_email.trim())) e.informant_email = t('v.email');
    return e;
  }

  const showErrors = (e: Errors, g = '') => {
    setErrors(e);
    setGeneral(g);
    requestAnimationFrame(() => summary.current?.focus());
  };

  async function submit(ev: React.FormEvent) {
    ev.preventDefault();
    if (status !== 'idle') return;
    const e = check();
    if (Object.keys(e).length) return showErrors(e);
    setErrors({});
    setGeneral('');
    try {
      const ids: number[] = [];
      const known = new Map(uploaded);
      for (const [i, file] of files.entries()) {
        const had = known.get(file);
        if (had) {
          ids.push(had);
          continue;
        }
        setStatus('uploading');
        setProgress(i + 1);
        const r = await call<{ id: number }>(`/public/uploads?name=${encodeURIComponent(file.name || 'file')}`, {
          method: 'POST',
          blob: file,
          lang,
          timeout: 120_000,
        });
        known.set(file, r.id);
        setUploaded(new Map(known));
        ids.push(r.id);
      }
      setStatus('sending');
      const body = {
        description: v.description.trim(),
        region_id: Number(v.region_id),
        address: v.address.trim() || null,
        location,
        files: ids,
        informant_name: v.informant_name.trim(),
        informant_phone: phoneDigits(v.informant_phone),
        informant_email: v.informant_email.trim() || null,
      };
      const r = await call<{ id: number; number: string }>('/public/people-facts', { method: 'POST', body, lang });
      setDone({ number: r.number });
    } catch (err) {
      const sent = sendErrors(err, ORDER, 'files', t);
      showErrors(sent.fields, sent.general);
    } finally {
      setStatus('idle');
    }
  }

  function again() {
    setDone(null);
    setV((o) => ({ ...EMPTY, informant_name: o.informant_name, informant_phone: o.informant_phone, informant_email: o.informant_email }));
    setPlace({ lat: '', lng: '' });
    setFiles([]);
    if (fileInput.current) fileInput.current.value = '';
  }

  if (done) {
    return (
      <div className="container narrow">
        <PageTitle>{t('page.fact_form')}</PageTitle>
        <div ref={thanks} className="card thanks" role="status" tabIndex={-1} data-testid="thanks">
          <Icon name="check" className="empty-icon ok" />
          <h2>{t('fact.thanks_title')}</h2>
          <p>{t('fact.thanks_text', { number: done.number })}</p>
          <p>
            <button type="button" className="btn primary" onClick={again}>
              {t('fact.again')}
            </button>
          </p>
        </div>
      </div>
    );
  }

  const describe = (f: Field, hint?: boolean) =>
    [hint ? id(`${f}-hint`) : '', errors[f] ? id(`${f}-error`) : ''].filter(Boolean).join(' ') || undefined;
  const labelOf: Record<Field, Key> = {
    description: 'fact.description',
    region_id: 'fact.region',
    address: 'fact.address',
    location: 'fact.location',
    files: 'fact.files',
    informant_name: 'fact.name',
    informant_phone: 'fact.phone',
    informant_email: 'fact.email',
  };
  const target = (f: Field) => (f === 'location' ? id('lat') : id(f));
  const input = (
    f: 'address' | 'informant_name' | 'informant_phone' | 'informant_email',
    extra: React.InputHTMLAttributes<HTMLInputElement>,
    hint = false,
  ) => (
    <input id={id(f)} name={f} value={v[f]} onChange={set(f)} aria-invalid={!!errors[f]} aria-describedby={describe(f, hint)} {...extra} />
  );

  return (
    <div className="container narrow">
      <PageTitle sub={t('fact.lead')}>{t('page.fact_form')}</PageTitle>
      <ErrorSummary
        summaryRef={summary}
        general={general}
        fields={ORDER}
        errors={errors}
        labelOf={(f) => t(labelOf[f])}
        target={target}
        route={ROUTE}
      />
      <form className="card form" noValidate onSubmit={submit} aria-busy={status !== 'idle'} data-testid="fact-form">
        <p className="muted small">{t('form.required_note')}</p>
        <FieldBox
          id={id('description')}
          label={t('fact.description')}
          required
          error={errors.description}
          hint={t('fact.description_hint')}
        >
          <textarea
            id={id('description')}
            name="description"
            rows={5}
            maxLength={5000}
            required
            value={v.description}
            onChange={set('description')}
            aria-invalid={!!errors.description}
            aria-describedby={describe('description', true)}
          />
        </FieldBox>
        <div className="row-2">
          <FieldBox id={id('region_id')} label={t('fact.region')} required error={errors.region_id}>
            <select
              id={id('region_id')}
              name="region_id"
              required
              value={v.region_id}
              onChange={set('region_id')}
              disabled={!regions.data}
              aria-invalid={!!errors.region_id}
              aria-describedby={describe('region_id')}
            >
              <option value="">{regions.data ? t('fact.region_choose') : t('fact.regions_loading')}</option>
              {options.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label}
                </option>
              ))}
            </select>
          </FieldBox>
          <FieldBox id={id('address')} label={t('fact.address')} optional error={errors.address}>
            {input('address', { maxLength: 500, autoComplete: 'street-address' })}
          </FieldBox>
        </div>

        <LocationFieldset
          idOf={id}
          value={place}
          legend="fact.location"
          hint="form.location_hint"
          mapLabel="fact.map_label"
          optional
          error={errors.location}
          onChange={(p) => {
            setPlace(p);
            setErrors((o) => ({ ...o, location: undefined }));
          }}
        />

        <FieldBox id={id('files')} label={t('fact.files')} optional error={errors.files} hint={t('fact.files_hint')}>
          <FileButton
            inputRef={fileInput}
            id={id('files')}
            name="files"
            multiple
            accept={['image/*', ...VIDEO_TYPES].join(',')}
            files={files}
            onFiles={(chosen) => {
              setFiles(chosen);
              setErrors((o) => ({ ...o, files: undefined }));
            }}
            invalid={!!errors.files}
            describedBy={describe('files', true)}
          />
        </FieldBox>
        {files.length > 0 && (
          <ul className="file-list" data-testid="fact-files">
            {files.map((f, i) => (
              <li key={`${f.name}-${i}`}>
                <Icon name={f.type.startsWith('video/') ? 'play' : 'image'} /> <span className="file-name">{f.name}</span>
                <button
                  type="button"
                  className="btn small"
                  aria-label={t('fact.file_remove', { name: f.name })}
                  onClick={() => {
                    setFiles((o) => o.filter((_, j) => j !== i));
                    if (fileInput.current) fileInput.current.value = '';
                  }}
                >
                  <Icon name="close" />
                </button>
              </li>
            ))}
          </ul>
        )}

        <fieldset className="field contact">
          <legend>{t('fact.contact')}</legend>
          <p className="hint" id={id('contact-note')}>
            <Icon name="lock" /> {t('fact.contact_note')}
          </p>
          <FieldBox id={id('informant_name')} label={t('fact.name')} required error={errors.informant_name}>
            {input('informant_name', { maxLength: 255, autoComplete: 'name', required: true })}
          </FieldBox>
          <div className="row-2">
            <FieldBox
              id={id('informant_phone')}
              label={t('fact.phone')}
              required
              error={errors.informant_phone}
              hint={t('fact.phone_hint')}
            >
              {input(
                'informant_phone',
                { type: 'tel', inputMode: 'tel', autoComplete: 'tel-national', maxLength: 20, required: true },
                true,
              )}
            </FieldBox>
            <FieldBox id={id('informant_email')} label={t('fact.email')} optional error={errors.informant_email}>
              {input('informant_email', { type: 'email', autoComplete: 'email', maxLength: 255 })}
            </FieldBox>
          </div>
        </fieldset>

        <div className="actions">
          <button type="submit" className="btn primary big" disabled={status !== 'idle'} data-testid="submit">
            {status === 'uploading'
              ? t('fact.uploading', { n: progress, total: files.length })
              : status === 'sending'
                ? t('form.sending')
                : t('form.submit')}
          </button>
        </div>
      </form>
    </div>
  );
}
