import { describe, expect, it } from 'vitest';
import { loadMetadata } from '../api/meta/load.ts';
import { compilePayloadValidator } from '../api/engine/payload-schema.ts';
import { normaliseFormatted } from '../api/meta/formats.ts';
import { exifTime, photoNote } from '../field/src/photo-info.ts';
import { payloadOf } from '../field/src/payload.ts';
import type { FieldRecord, Photo } from '../field/src/types.ts';

/**
 * What the field app sends (field/src/payload.ts) and how it places a photo's EXIF time
 * (field/src/photo-info.ts): witnesses typed with a mask leave the device as the server stores them,
 * each photo of an offence carries its own file type and its EXIF as the file's note, and a
 * camera's time is placed in Tashkent by its offset.
 */
const model = loadMetadata();
const record = (kind: FieldRecord['kind'], data: Record<string, unknown>): FieldRecord => ({
  id: 'c0ffee00-0000-4000-8000-000000000001',
  kind,
  userId: 1,
  data,
  state: 'queued',
  createdAt: 0,
  updatedAt: 0,
  attempts: 0,
});

describe('the EXIF time of a photo', () => {
  it('is moved to Tashkent by the camera’s offset, taken as written without one, and nothing when missing or zero', () => {
    expect(exifTime('2026:11:30 09:15:00', '+05:00')).toBe('2026-11-30 09:15');
    expect(exifTime('2026:11:30 09:15:00', '+03:00')).toBe('2026-11-30 11:15');
    expect(exifTime('2026:11:30 22:40:00', '-02:30')).toBe('2026-12-01 06:10');
    expect(exifTime('2026:11:30 09:15:00', undefined)).toBe('2026-11-30 09:15');
    expect(exifTime('0000:00:00 00:00:00', undefined)).toBeUndefined();
    expect(exifTime(undefined, '+05:00')).toBeUndefined();
    expect(exifTime('30.11.2026', undefined)).toBeUndefined();
  });
});

describe('the create the device sends', () => {
  it('normalises witnesses as the server does, drops their empty values and an empty list, and passes the server’s check', () => {
    const typed = { full_name: 'Saidova Gulnora', phone: '+998 (90) 123-45-67', passport: 'ab 1234567', address: '' };
    const body = payloadOf(
      record('offences', {
        number: 'W-1',
        offence_date: '2025-09-01',
        region_id: 1,
        fine_id: 2,
        fine_multiple: '6',
        offenders: [{ offender_kind: 'person', full_name: 'Aliyev Vali' }],
        witnesses: [typed],
        _accuracy: 12,
      }),
      [],
    );
    expect(body.witnesses).toEqual([
      {
        full_name: 'Saidova Gulnora',
        phone: normaliseFormatted('phone', typed.phone),
        passport: normaliseFormatted('passport', typed.passport),
      },
    ]);
    expect(body).not.toHaveProperty('_accuracy');
    expect(compilePayloadValidator(model.entities.get('offences')!, 'create')(body)).toBeNull();
    expect(payloadOf(record('offences', { number: 'W-2', witnesses: [] }), [])).not.toHaveProperty('witnesses');
  });

  it('gives each offence photo its own type, the record’s old single type for a photo without one, and its EXIF as the note', () => {
    const photos: Pick<Photo, 'resourceId' | 'typeId' | 'takenAt' | 'timeFrom' | 'gps'>[] = [
      { resourceId: 11, typeId: 3, timeFrom: 'exif', takenAt: '2026-11-30 09:15', gps: { lat: 41.3205, lng: 69.2401 } },
      { resourceId: 12, timeFrom: 'file', takenAt: '2026-11-30T04:15:00.000Z' },
    ];
    const body = payloadOf(record('offences', { number: 'P-1', _photo_type_id: 5 }), photos);
    expect(body.files).toEqual([
      { type_id: 3, file: 11, note: 'EXIF 2026-11-30 09:15 (UTC+5); GPS 41.3205, 69.2401' },
      { type_id: 5, file: 12 },
    ]);
    expect(photoNote({ timeFrom: 'file', takenAt: '2026-11-30T04:15:00.000Z', gps: { lat: 1, lng: 2 } })).toBe('GPS 1, 2');
    // the other forms take their photos as `images`, in order
    expect(payloadOf(record('planting-inspections', { findings: 'x' }), photos).images).toEqual([11, 12]);
    expect(payloadOf(record('tree-cutting-violations', { trees: 1 }), photos).images).toEqual([11, 12]);
  });
});
