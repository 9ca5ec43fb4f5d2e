import type { FieldRecord, Photo } from './types.ts';
import { photoNote } from './photo-info.ts';

/**
 * The create the device sends for a record (field/src/sync.ts), and checks on the device before
 * queueing it (RecordForm.tsx): the form's values without the device's own (`_`-prefixed: the
 * location's accuracy, where it came from), witnesses as the server stores them, and the photos'
 * file ids — an offence's as `files` with a type each and the photo's EXIF as their note, the
 * other forms' as `images`.
 */

/** An offence photo's file type: its own, else (a draft kept before types were per photo) the record's one. */
export const photoTypeOf = (p: Pick<Photo, 'typeId'>, data: Record<string, unknown>): number | undefined =>
  p.typeId ?? (typeof data._photo_type_id === 'number' ? data._photo_type_id : undefined);

/** A typed phone or passport as the server stores it (api/meta/formats.ts normaliseFormatted): the typing mask out. */
function formatted(kind: 'phone' | 'passport', v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (kind === 'passport') return v.replace(/\s+/g, '').toUpperCase();
  const digits = v.replace(/[\s()\-+]/g, '');
  return /^998\d{9}$/.test(digits) ? digits.slice(3) : digits;
}

/** A child row without its empty values. */
const filled = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).filter(([, v]) => v !== '' && v !== null && v !== undefined));

/** The create's body: the form's values without the device's own, and the photos' file ids. */
export function payloadOf(
  r: FieldRecord,
  ps: Pick<Photo, 'resourceId' | 'typeId' | 'takenAt' | 'timeFrom' | 'gps'>[],
  placeholder = false,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r.data)) {
    if (k.startsWith('_') || v === '' || v === null || v === undefined) continue;
    out[k] = v;
  }
  if (Array.isArray(out.witnesses)) {
    const rows = (out.witnesses as Record<string, unknown>[]).map((w) =>
      filled({ ...w, phone: formatted('phone', w.phone), passport: formatted('passport', w.passport) }),
    );
    if (rows.length) out.witnesses = rows;
    else delete out.witnesses;
  }
  const ids = ps.map((p) => p.resourceId ?? (placeholder ? 1 : undefined));
  if (r.kind === 'offences') {
    if (ps.length) out.files = ps.map((p, i) => filled({ type_id: photoTypeOf(p, r.data), file: ids[i], note: photoNote(p) }));
  } else if (ps.length) out.images = ids;
  return out;
}
