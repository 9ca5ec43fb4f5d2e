import { useEffect, useMemo, useState } from 'react';
import type { Lang, T } from './i18n';
import { photos as photoStore, records, type FieldRecord, type Kind, type Photo } from './db';
import type { Reference, Row } from './reference';
import { resizePhoto } from './photos';
import { readExif } from './exif';
import { validate, type Errors } from './validate';
import { sync } from './sync';
import { payloadOf, photoTypeOf } from './payload';
import { PhotosInput, PointInput, type Point } from './ui';
import { formOf } from './forms';
import type { Kit } from './forms/kit';

/**
 * The frame of every form (the form's own fields are in forms/): a new record or a kept draft
 * opened again, its photos (EXIF time and GPS read before resizing, a file type each for an
 * offence), the place, the device's check with the server's schema, saving as a draft or queueing
 * it to be sent. A sent record is shown read-only.
 */
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
  const def = formOf(kind);
  const [id] = useState(() => props.id ?? crypto.randomUUID());
  const [rec, setRec] = useState<FieldRecord | undefined>();
  const [data, setData] = useState<Record<string, unknown>>(() => def.blank(ref, props.userId));
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
  const areas = useMemo(() => book('areas').filter((a) => a.region_id === data.region_id), [ref, data.region_id]); // eslint-disable-line react-hooks/exhaustive-deps
  const kit: Kit = {
    t,
    lang,
    ref,
    data,
    readOnly,
    errors,
    set: (k, v) => setData((d) => ({ ...d, [k]: v })),
    text: (k) => (data[k] === undefined || data[k] === null ? '' : String(data[k])),
    book,
    areas,
  };
  const fileTypes = kind === 'offences' ? book('offence-files-type') : undefined;

  async function addPhotos(files: File[]) {
    const added: Photo[] = [];
    const defaultType = fileTypes?.find((r) => r.code === 'PHOTO')?.id ?? fileTypes?.[0]?.id;
    const start = Date.now();
    for (const [i, f] of files.entries()) {
      // the EXIF first: the resized copy has none
      const exif = await readExif(f);
      const blob = await resizePhoto(f).catch(() => f);
      const p: Photo = {
        id: crypto.randomUUID(),
        recordId: id,
        addedAt: start + i,
        name: f.name.replace(/\.[^.]+$/, '') + '.jpg',
        blob,
        takenAt: exif.time ?? new Date(f.lastModified).toISOString(),
        timeFrom: exif.time ? 'exif' : 'file',
        gps: exif.gps,
        typeId: defaultType,
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
  async function setPhotoType(pid: string, typeId: number | undefined) {
    const next = ps.map((p) => (p.id === pid ? { ...p, typeId } : p));
    const changed = next.find((p) => p.id === pid);
    if (changed) await photoStore.put(changed);
    setPs(next);
  }

  async function save(queue: boolean) {
    const now = Date.now();
    const base: FieldRecord = rec ?? { id, kind, userId: props.userId, data, state: 'draft', createdAt: now, updatedAt: now, attempts: 0 };
    if (queue) {
      const schema = ref?.schemas[kind];
      const found = schema ? validate(schema, payloadOf({ ...base, data }, ps, true), t) : {};
      if (fileTypes) ps.forEach((p, i) => photoTypeOf(p, data) === undefined && (found[`files.${i}.type_id`] ??= t('err.required')));
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
      sync.queued();
      props.onDone();
    }
  }

  const located = data.location as Point | undefined;
  const photoPlace = def.point && !located ? ps.find((p) => p.gps)?.gps : undefined;
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
      <h2>{t(def.title)}</h2>
      {readOnly && <p className="note">{t('form.sent.readonly')}</p>}
      {rec?.state === 'error' && (
        <p className="error" role="alert">
          {rec.error?.message} — {t('form.fix')}
        </p>
      )}
      <def.Fields kit={kit} />
      {def.point && (
        <PointInput
          t={t}
          value={located}
          accuracy={data._accuracy as number | undefined}
          fromPhoto={data._from_photo === true}
          photoPlace={readOnly ? undefined : photoPlace}
          disabled={readOnly}
          error={errors.location ?? errors['location.lat'] ?? errors['location.lng']}
          onChange={(p, acc, fromPhoto) => setData((d) => ({ ...d, location: p, _accuracy: acc, _from_photo: fromPhoto || undefined }))}
        />
      )}
      <PhotosInput
        t={t}
        lang={lang}
        photos={ps}
        urls={urls}
        types={fileTypes}
        typeOf={(p) => photoTypeOf(p, data)}
        onType={(pid, v) => void setPhotoType(pid, v)}
        typeErrors={(i) => errors[`files.${i}.type_id`]}
        onAdd={(f) => void addPhotos(f)}
        onRemove={(p) => void removePhoto(p)}
        disabled={readOnly}
        error={Object.entries(errors).find(([k]) => (k.startsWith('files') && !k.endsWith('type_id')) || k.startsWith('images'))?.[1]}
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
