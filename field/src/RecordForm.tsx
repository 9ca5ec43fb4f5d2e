import { useEffect, useMemo, useState } from 'react';
import { nameOf, type Lang, type T } from './i18n';
import { photos as photoStore, records, type FieldRecord, type Kind, type Photo } from './db';
import type { Reference, Row } from './reference';
import { resizePhoto } from './photos';
import { todayTashkent, validate, type Errors } from './validate';
import { payloadOf, sync } from './sync';
import { Field, PhotosInput, PointInput, type Point } from './ui';

const PLACE_TYPES = ['street', 'park', 'garden', 'school', 'roadside', 'forest', 'yard', 'riverbank', 'other'];

function blank(kind: Kind, ref: Reference | undefined): Record<string, unknown> {
  const region = ref?.books.regions?.length === 1 ? ref.books.regions[0].id : undefined;
  if (kind === 'offences') {
    const photoType = ref?.books['offence-files-type']?.find((r) => r.code === 'PHOTO') ?? ref?.books['offence-files-type']?.[0];
    return {
      offence_date: todayTashkent(),
      region_id: region,
      offenders: [{ offender_kind: 'person', full_name: '' }],
      _photo_type_id: photoType?.id,
    };
  }
  return { planted_on: todayTashkent(), count: 1, region_id: region, place_type: 'street' };
}

/** A new offence or tree passport, or a kept draft opened again; a sent record is shown read-only. */
export function RecordForm(props: {
  kind: Kind;
  id?: string;
  t: T;
  lang: Lang;
  ref: Reference | undefined;
  userId: number;
  onDone: () => void;
}) {
  const { t, lang, ref, kind } = props;
  const [id] = useState(() => props.id ?? crypto.randomUUID());
  const [rec, setRec] = useState<FieldRecord | undefined>();
  const [data, setData] = useState<Record<string, unknown>>(() => blank(kind, ref));
  const [ps, setPs] = useState<Photo[]>([]);
  const [urls, setUrls] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [note, setNote] = useState('');
  const readOnly = rec?.state === 'sent' || rec?.state === 'sending';

  useEffect(() => {
    void (async () => {
      const r = props.id ? await records.get(props.id) : undefined;
      if (r) {
        setRec(r);
        setData(r.data);
        setErrors(r.error?.fields ?? {});
      }
      setPs(await photoStore.of(id));
    })();
  }, [id, props.id]);
  useEffect(() => {
    const made = Object.fromEntries(ps.map((p) => [p.id, URL.createObjectURL(p.blob)]));
    setUrls(made);
    return () => Object.values(made).forEach((u) => URL.revokeObjectURL(u));
  }, [ps]);

  const book = (name: string): Row[] => ref?.books[name] ?? [];
  const set = (k: string, v: unknown) => setData((d) => ({ ...d, [k]: v }));
  const text = (k: string) => (data[k] === undefined || data[k] === null ? '' : String(data[k]));
  const num = (v: string) => (v === '' ? undefined : Number(v));
  const err = (k: string) => errors[k];

  const fine = book('fine').find((f) => f.id === data.fine_id);
  const offenders = (data.offenders as Record<string, unknown>[] | undefined) ?? [];
  const areas = useMemo(() => book('areas').filter((a) => a.region_id === data.region_id), [ref, data.region_id]); // eslint-disable-line react-hooks/exhaustive-deps

  async function addPhotos(files: File[]) {
    const added: Photo[] = [];
    for (const f of files) {
      const blob = await resizePhoto(f).catch(() => f);
      const p: Photo = {
        id: crypto.randomUUID(),
        recordId: id,
        name: f.name.replace(/\.[^.]+$/, '') + '.jpg',
        blob,
        takenAt: new Date(f.lastModified).toISOString(),
      };
      await photoStore.put(p);
      added.push(p);
    }
    setPs((x) => [...x, ...added]);
  }
  async function removePhoto(pid: string) {
    await photoStore.remove(pid);
    setPs((x) => x.filter((p) => p.id !== pid));
  }

  async function save(queue: boolean) {
    const now = Date.now();
    const base: FieldRecord = rec ?? { id, kind, userId: props.userId, data, state: 'draft', createdAt: now, updatedAt: now, attempts: 0 };
    if (queue) {
      const schema = ref?.schemas[kind];
      const found = schema ? validate(schema, payloadOf({ ...base, data }, ps, true), t) : {};
      if (kind === 'offences' && ps.length && !data._photo_type_id) found._photo_type_id = t('err.required');
      setErrors(found);
      if (Object.keys(found).length) {
        setNote(t('form.invalid'));
        return;
      }
    }
    const next: FieldRecord = {
      ...base,
      data,
      state: queue ? 'queued' : 'draft',
      updatedAt: now,
      error: undefined,
      nextAt: undefined,
      attempts: 0,
    };
    await records.put(next);
    setRec(next);
    setNote(queue ? t('form.queued') : t('form.saved'));
    if (queue) {
      void sync.run(true);
      props.onDone();
    }
  }

  const select = (k: string, rows: Row[], label: string, required = false) => (
    <Field label={label} error={err(k)}>
      <select name={k} value={text(k)} disabled={readOnly} required={required} onChange={(e) => set(k, num(e.target.value))}>
        <option value="">{t('form.choose')}</option>
        {rows.map((r) => (
          <option key={r.id} value={r.id}>
            {nameOf(r, lang) || String(r.id)}
          </option>
        ))}
      </select>
    </Field>
  );
  const input = (k: string, label: string, type = 'text', extra: Record<string, unknown> = {}) => (
    <Field label={label} error={err(k)}>
      <input
        name={k}
        type={type}
        value={text(k)}
        disabled={readOnly}
        onChange={(e) => set(k, type === 'number' ? num(e.target.value) : e.target.value)}
        {...extra}
      />
    </Field>
  );

  return (
    <form
      className="card form"
      noValidate
      data-testid={`form-${kind}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save(true);
      }}
    >
      <h2>{kind === 'offences' ? t('nav.offence') : t('nav.tree')}</h2>
      {readOnly && <p className="note">{t('form.sent.readonly')}</p>}
      {rec?.state === 'error' && (
        <p className="error" role="alert">
          {rec.error?.message} — {t('form.fix')}
        </p>
      )}
      {kind === 'offences' ? (
        <>
          {input('number', t('f.number'))}
          {input('offence_date', t('f.offence_date'), 'date', { max: todayTashkent() })}
          {select('region_id', book('regions'), t('f.region_id'), true)}
          {areas.length > 0 && select('area_id', areas, t('f.area_id'))}
          {input('address', t('f.address'))}
          <Field label={t('f.fine_id')} error={err('fine_id')}>
            <select name="fine_id" value={text('fine_id')} disabled={readOnly} onChange={(e) => set('fine_id', num(e.target.value))}>
              <option value="">{t('form.choose')}</option>
              {book('fine').map((f) => (
                <option key={f.id} value={f.id}>
                  {[f.article, f.part, f.item].filter(Boolean).join('.')} — {nameOf(f, lang)}
                </option>
              ))}
            </select>
          </Field>
          {input('fine_multiple', t('f.fine_multiple'), 'text', { inputMode: 'decimal' })}
          {fine && <p className="hint">{t('f.fine_range', { min: String(fine.min_multiple), max: String(fine.max_multiple) })}</p>}
          <fieldset>
            <legend>{t('f.offenders')}</legend>
            {offenders.map((o, i) => (
              <div className="offender" key={i} data-testid="offender">
                <Field label={t('f.offender_kind')} error={err(`offenders.${i}.offender_kind`)}>
                  <select
                    name={`offenders.${i}.offender_kind`}
                    value={String(o.offender_kind ?? 'person')}
                    disabled={readOnly}
                    onChange={(e) =>
                      set(
                        'offenders',
                        offenders.map((x, j) => (j === i ? { ...x, offender_kind: e.target.value } : x)),
                      )
                    }
                  >
                    <option value="person">{t('f.offender_kind.person')}</option>
                    <option value="organisation">{t('f.offender_kind.organisation')}</option>
                  </select>
                </Field>
                <Field label={t('f.full_name')} error={err(`offenders.${i}.full_name`)}>
                  <input
                    name={`offenders.${i}.full_name`}
                    value={String(o.full_name ?? '')}
                    disabled={readOnly}
                    onChange={(e) =>
                      set(
                        'offenders',
                        offenders.map((x, j) => (j === i ? { ...x, full_name: e.target.value } : x)),
                      )
                    }
                  />
                </Field>
                {!readOnly && offenders.length > 1 && (
                  <button
                    type="button"
                    className="link"
                    onClick={() =>
                      set(
                        'offenders',
                        offenders.filter((_, j) => j !== i),
                      )
                    }
                  >
                    {t('f.offender.remove')}
                  </button>
                )}
              </div>
            ))}
            {!readOnly && (
              <button
                type="button"
                className="secondary"
                onClick={() => set('offenders', [...offenders, { offender_kind: 'person', full_name: '' }])}
              >
                {t('f.offender.add')}
              </button>
            )}
          </fieldset>
          {input('description', t('f.description'))}
        </>
      ) : (
        <>
          {select('species_id', book('tree-species'), t('f.species_id'), true)}
          {input('planted_on', t('f.planted_on'), 'date', { max: todayTashkent() })}
          {input('count', t('f.count'), 'number', { min: 1 })}
          {select('region_id', book('regions'), t('f.region_id'), true)}
          {areas.length > 0 && select('area_id', areas, t('f.area_id'))}
          <Field label={t('f.place_type')} error={err('place_type')}>
            <select name="place_type" value={text('place_type')} disabled={readOnly} onChange={(e) => set('place_type', e.target.value)}>
              {PLACE_TYPES.map((p) => (
                <option key={p} value={p}>
                  {t(`place.${p}`)}
                </option>
              ))}
            </select>
          </Field>
          {input('place', t('f.place'))}
          {input('height_m', t('f.height_m'), 'text', { inputMode: 'decimal' })}
          {input('circumference_cm', t('f.circumference_cm'), 'text', { inputMode: 'decimal' })}
        </>
      )}
      <PointInput
        t={t}
        value={data.location as Point | undefined}
        accuracy={data._accuracy as number | undefined}
        disabled={readOnly}
        error={err('location') ?? err('location.lat') ?? err('location.lng')}
        onChange={(p, acc) => setData((d) => ({ ...d, location: p, _accuracy: acc }))}
      />
      {kind === 'offences' && ps.length > 0 && select('_photo_type_id', book('offence-files-type'), t('f.photo_type'))}
      <PhotosInput
        t={t}
        photos={ps}
        urls={urls}
        onAdd={(f) => void addPhotos(f)}
        onRemove={(p) => void removePhoto(p)}
        disabled={readOnly}
        error={Object.entries(errors).find(([k]) => k.startsWith('files') || k.startsWith('images'))?.[1]}
      />
      {note && (
        <p className="note" role="status">
          {note}
        </p>
      )}
      {!readOnly && (
        <div className="actions">
          <button type="button" className="secondary" onClick={() => void save(false)}>
            {t('form.save')}
          </button>
          <button type="submit" data-testid="send">
            {t('form.send')}
          </button>
        </div>
      )}
    </form>
  );
}
