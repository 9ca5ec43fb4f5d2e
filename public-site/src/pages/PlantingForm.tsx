import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { call, useApi, type Species } from '../api';
import { Icon, PageTitle } from '../components/ui';
import { ErrorSummary, FieldBox, sendErrors, LocationFieldset, placeOf } from '../components/form';
import { insideUzbekistan } from '../geo';
import { pick, useI18n, type Key, type Lang } from '../i18n';
import { todayTashkent } from '../tashkent';
import { DateField } from '../components/DateField';
import { FileButton } from '../components/FileButton';

/**
 * /population-seedlings: a resident reports the trees they planted. Checked here first (the same
 * rules as the server's), then the photo is uploaded, then the planting is sent; the server's own
 * field errors are shown beside their inputs like ours. Every error is also listed in a live
 * region at the top, whose links lead to the inputs.
 */
type Field = 'first_name' | 'last_name' | 'species_id' | 'count' | 'planted_on' | 'location' | 'photo';
type Errors = Partial<Record<Field, string>>;
const ORDER: Field[] = ['first_name', 'last_name', 'species_id', 'count', 'planted_on', 'location', 'photo'];
const MAX_PHOTO = 5 * 1024 * 1024;
const COLLATOR: Record<Lang, string> = { uz: 'uz', uk: 'uz-Cyrl', ru: 'ru' };

interface Values {
  first_name: string;
  last_name: string;
  species_id: string;
  count: string;
  planted_on: string;
  lat: string;
  lng: string;
}

export default function PlantingForm({ query }: { query?: URLSearchParams }) {
  const { t, lang } = useI18n();
  const uid = useId();
  const id = (f: string) => `${uid}-${f}`;
  const today = todayTashkent();
  const species = useApi<Species[]>('/public/species');
  const [v, setV] = useState<Values>(() => {
    // a place given by the link (an area where residents may plant: ?lat&lng)
    const lat = Number(query?.get('lat')),
      lng = Number(query?.get('lng'));
    const given = query?.has('lat') && query.has('lng') && Number.isFinite(lat) && Number.isFinite(lng) && insideUzbekistan(lat, lng);
    return {
      first_name: '',
      last_name: '',
      species_id: '',
      count: '1',
      planted_on: today,
      lat: given ? String(lat) : '',
      lng: given ? String(lng) : '',
    };
  });
  const [photo, setPhoto] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<{ file: File; id: number } | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState('');
  const [status, setStatus] = useState<'idle' | 'uploading' | 'sending'>('idle');
  const [done, setDone] = useState<{ id: number; name: string } | null>(null);
  const summary = useRef<HTMLDivElement>(null);
  const thanks = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const preview = useMemo(() => (photo ? URL.createObjectURL(photo) : null), [photo]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  useEffect(() => {
    if (done) thanks.current?.focus();
  }, [done]);

  const options = useMemo(() => {
    const coll = new Intl.Collator(COLLATOR[lang]);
    return (species.data ?? [])
      .map((s) => ({ id: s.id, label: `${pick(s.name, lang)} (${s.latin_name})` }))
      .sort((a, b) => coll.compare(a.label, b.label));
  }, [species.data, lang]);

  const location = placeOf(v);

  const set = (f: keyof Values) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setV((o) => ({ ...o, [f]: value }));
    const field: Field = f === 'lat' || f === 'lng' ? 'location' : f;
    if (errors[field]) setErrors((o) => ({ ...o, [field]: undefined }));
  };

  function check(): Errors {
    const e: Errors = {};
    const msg = (k: Key, p?: Record<string, string | number>) => t(k, p);
    for (const f of ['first_name', 'last_name'] as const) {
      const s = v[f].trim();
      if (!s) e[f] = msg('v.required');
      else if (s.length > 100) e[f] = msg('v.max_length', { limit: 100 });
    }
    if (!v.species_id) e.species_id = msg('v.required');
    if (v.count.trim() === '') e.count = msg('v.required');
    else if (!/^\d+$/.test(v.count.trim()) || Number(v.count) < 1 || Number(v.count) > 10000) e.count = msg('v.count');
    if (!v.planted_on) e.planted_on = msg('v.required');
    else if (!/^\d{4}-\d{2}-\d{2}$/.test(v.planted_on) || Number.isNaN(Date.parse(v.planted_on))) e.planted_on = msg('v.date');
    else if (v.planted_on > today) e.planted_on = msg('v.future_date');
    if (v.lat.trim() === '' && v.lng.trim() === '') e.location = msg('v.location_required');
    else if (!location || Math.abs(location.lat) > 90 || Math.abs(location.lng) > 180) e.location = msg('v.coordinate');
    else if (!insideUzbekistan(location.lat, location.lng)) e.location = msg('v.location_outside');
    if (photo && !photo.type.startsWith('image/')) e.photo = msg('v.photo_type');
    else if (photo && photo.size > MAX_PHOTO) e.photo = msg('v.photo_size');
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
      let photoId: number | undefined;
      if (photo) {
        if (uploaded?.file === photo) photoId = uploaded.id;
        else {
          setStatus('uploading');
          const r = await call<{ id: number }>(`/public/uploads?name=${encodeURIComponent(photo.name || 'photo')}`, {
            method: 'POST',
            blob: photo,
            lang,
            timeout: 120_000,
          });
          setUploaded({ file: photo, id: r.id });
          photoId = r.id;
        }
      }
      setStatus('sending');
      const body = {
        first_name: v.first_name.trim(),
        last_name: v.last_name.trim(),
        species_id: Number(v.species_id),
        count: Number(v.count),
        planted_on: v.planted_on,
        location,
        ...(photoId ? { photo: photoId } : {}),
      };
      const r = await call<{ id: number; status: string }>('/public/plantings', { method: 'POST', body, lang });
      setDone({ id: r.id, name: body.first_name });
    } catch (err) {
      const sent = sendErrors(err, ORDER, 'photo', t);
      showErrors(sent.fields, sent.general);
    } finally {
      setStatus('idle');
    }
  }

  function again() {
    setDone(null);
    setV((o) => ({ ...o, species_id: '', count: '1', planted_on: today, lat: '', lng: '' }));
    setPhoto(null);
    if (fileInput.current) fileInput.current.value = '';
  }

  if (done) {
    return (
      <div className="container narrow">
        <PageTitle>{t('page.planting_form')}</PageTitle>
        <div ref={thanks} className="card thanks" role="status" tabIndex={-1} data-testid="thanks">
          <Icon name="check" className="empty-icon ok" />
          <h2>{t('form.thanks_title', { name: done.name })}</h2>
          <p>{t('form.thanks_text', { id: done.id })}</p>
          <p>
            <button type="button" className="btn primary" onClick={again}>
              {t('form.again')}
            </button>
          </p>
        </div>
      </div>
    );
  }

  const describe = (f: Field, hint?: boolean) =>
    [hint ? id(`${f}-hint`) : '', errors[f] ? id(`${f}-error`) : ''].filter(Boolean).join(' ') || undefined;
  const labelOf: Record<Field, Key> = {
    first_name: 'form.first_name',
    last_name: 'form.last_name',
    species_id: 'form.species',
    count: 'form.count',
    planted_on: 'form.planted_on',
    location: 'form.location',
    photo: 'form.photo',
  };
  const target = (f: Field) => (f === 'location' ? id('lat') : id(f));

  return (
    <div className="container narrow">
      <PageTitle sub={t('form.lead')}>{t('page.planting_form')}</PageTitle>
      <ErrorSummary
        summaryRef={summary}
        general={general}
        fields={ORDER}
        errors={errors}
        labelOf={(f) => t(labelOf[f])}
        target={target}
        route="/population-seedlings"
      />
      <form className="card form" noValidate onSubmit={submit} aria-busy={status !== 'idle'} data-testid="planting-form">
        <p className="muted small">{t('form.required_note')}</p>
        <div className="row-2">
          <FieldBox id={id('first_name')} label={t('form.first_name')} required error={errors.first_name}>
            <input
              id={id('first_name')}
              name="first_name"
              autoComplete="given-name"
              maxLength={100}
              required
              value={v.first_name}
              onChange={set('first_name')}
              aria-invalid={!!errors.first_name}
              aria-describedby={describe('first_name')}
            />
          </FieldBox>
          <FieldBox id={id('last_name')} label={t('form.last_name')} required error={errors.last_name}>
            <input
              id={id('last_name')}
              name="last_name"
              autoComplete="family-name"
              maxLength={100}
              required
              value={v.last_name}
              onChange={set('last_name')}
              aria-invalid={!!errors.last_name}
              aria-describedby={describe('last_name')}
            />
          </FieldBox>
        </div>
        <FieldBox id={id('species_id')} label={t('form.species')} required error={errors.species_id}>
          <select
            id={id('species_id')}
            name="species_id"
            required
            value={v.species_id}
            onChange={set('species_id')}
            disabled={!species.data}
            aria-invalid={!!errors.species_id}
            aria-describedby={describe('species_id')}
          >
            <option value="">{species.data ? t('form.species_choose') : t('form.species_loading')}</option>
            {options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </select>
        </FieldBox>
        <div className="row-2">
          <FieldBox id={id('count')} label={t('form.count')} required error={errors.count} hint={t('form.count_hint')}>
            <input
              id={id('count')}
              name="count"
              type="number"
              inputMode="numeric"
              min={1}
              max={10000}
              step={1}
              required
              value={v.count}
              onChange={set('count')}
              aria-invalid={!!errors.count}
              aria-describedby={describe('count', true)}
            />
          </FieldBox>
          <FieldBox id={id('planted_on')} label={t('form.planted_on')} required error={errors.planted_on} hint={t('form.planted_on_hint')}>
            <DateField
              id={id('planted_on')}
              name="planted_on"
              max={today}
              required
              value={v.planted_on}
              onChange={(value) => set('planted_on')({ target: { value } })}
              invalid={!!errors.planted_on}
              describedBy={describe('planted_on', true)}
            />
          </FieldBox>
        </div>

        <LocationFieldset
          idOf={id}
          value={{ lat: v.lat, lng: v.lng }}
          legend="form.location"
          hint="form.location_hint"
          mapLabel="form.map_label"
          required
          error={errors.location}
          onChange={(p) => {
            setV((o) => ({ ...o, ...p }));
            setErrors((o) => ({ ...o, location: undefined }));
          }}
        />

        <FieldBox id={id('photo')} label={t('form.photo')} optional error={errors.photo} hint={t('form.photo_hint')}>
          <FileButton
            inputRef={fileInput}
            id={id('photo')}
            name="photo"
            accept="image/*"
            files={photo ? [photo] : []}
            onFiles={(files) => {
              setPhoto(files[0] ?? null);
              setErrors((o) => ({ ...o, photo: undefined }));
            }}
            invalid={!!errors.photo}
            describedBy={describe('photo', true)}
          />
        </FieldBox>
        {preview && (
          <div className="photo-preview">
            <img src={preview} alt={t('form.photo_preview')} />
            <button
              type="button"
              className="btn"
              onClick={() => {
                setPhoto(null);
                if (fileInput.current) fileInput.current.value = '';
              }}
            >
              {t('form.photo_remove')}
            </button>
          </div>
        )}

        <div className="actions">
          <button type="submit" className="btn primary big" disabled={status !== 'idle'} data-testid="submit">
            {status === 'uploading' ? t('form.uploading') : status === 'sending' ? t('form.sending') : t('form.submit')}
          </button>
        </div>
      </form>
    </div>
  );
}
