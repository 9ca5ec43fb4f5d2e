import { describe, expect, it } from 'vitest';
import { loadMetadata } from '../api/meta/load.ts';
import { compilePayloadValidator, payloadSchema } from '../api/engine/payload-schema.ts';
import { todayTashkent as serverToday } from '../api/meta/today.ts';
import { todayTashkent, validate } from '../field/src/validate.ts';

/**
 * The field app checks a draft on the device with the server's own create schema (issue 30,
 * field/src/validate.ts, docs/decisions/0072): for the forms it offers, it must refuse the fields
 * the server refuses and pass what the server passes.
 */
const model = loadMetadata();
const t = (key: string) => key;
const keys = (o: Record<string, unknown> | null) => Object.keys(o ?? {}).sort();

const offence = (over: Record<string, unknown> = {}) => ({
  number: 'F-1',
  offence_date: '2025-09-01',
  region_id: 1,
  fine_id: 2,
  fine_multiple: '6',
  location: { lat: 41.3, lng: 69.2 },
  offenders: [{ offender_kind: 'person', full_name: 'Aliyev Vali' }],
  files: [{ type_id: 1, file: 5 }],
  ...over,
});
const tree = (over: Record<string, unknown> = {}) => ({
  species_id: 1,
  planted_on: '2025-04-01',
  count: 1,
  region_id: 1,
  place_type: 'street',
  height_m: '4.5',
  circumference_cm: '62',
  location: { lat: 41.3, lng: 69.2 },
  images: [5, 6],
  ...over,
});

const CASES: [string, 'offences' | 'plantings', Record<string, unknown>][] = [
  ['a complete offence', 'offences', offence()],
  ['an offence without its number, region or article', 'offences', offence({ number: '', region_id: undefined, fine_id: undefined })],
  ['a fine multiple with three decimals', 'offences', offence({ fine_multiple: '6.125' })],
  ['a date after today', 'offences', offence({ offence_date: '2999-01-01' })],
  ['an offender without a name', 'offences', offence({ offenders: [{ offender_kind: 'person', full_name: '' }] })],
  ['a number too long', 'offences', offence({ number: 'x'.repeat(51) })],
  ['a latitude out of range', 'offences', offence({ location: { lat: 120, lng: 69 } })],
  ['a complete tree passport', 'plantings', tree()],
  ['a tree without its species and place type', 'plantings', tree({ species_id: undefined, place_type: 'moon' })],
  ['a negative height and a count of 0', 'plantings', tree({ height_m: '-1', count: 0 })],
  ['a height with three decimals', 'plantings', tree({ height_m: '4.555' })],
];

describe('the device checks a draft as the server does', () => {
  it('has the server’s Tashkent today', () => {
    expect(todayTashkent()).toBe(serverToday());
  });

  for (const [name, entity, raw] of CASES) {
    it(name, () => {
      const data = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
      const e = model.entities.get(entity)!;
      const server = compilePayloadValidator(e, 'create')(data);
      const device = validate(payloadSchema(e, 'create'), data, t);
      expect(keys(device)).toEqual(keys(server));
    });
  }
});
