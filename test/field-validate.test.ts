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

const inspection = (over: Record<string, unknown> = {}) => ({
  inspected_on: '2025-09-01',
  region_id: 1,
  planting_id: 7,
  trees_checked: 10,
  trees_alive: 9,
  trees_dead: 1,
  result: 'deficiencies',
  findings: 'Ikki daraxt sugʻorilmagan',
  images: [5],
  ...over,
});
const felling = (over: Record<string, unknown> = {}) => ({
  found_on: '2025-09-01',
  region_id: 1,
  address: 'Chilonzor',
  location: { lat: 41.3, lng: 69.2 },
  violator_kind: 'person',
  violator_name: 'Aliyev Vali',
  species_id: 1,
  trees: 3,
  images: [5],
  ...over,
});

const CASES: [string, 'offences' | 'plantings' | 'planting-inspections' | 'tree-cutting-violations', Record<string, unknown>][] = [
  ['a complete offence', 'offences', offence()],
  ['an offence without its number, region or article', 'offences', offence({ number: '', region_id: undefined, fine_id: undefined })],
  ['a fine multiple with three decimals', 'offences', offence({ fine_multiple: '6.125' })],
  ['a date after today', 'offences', offence({ offence_date: '2999-01-01' })],
  ['an offender without a name', 'offences', offence({ offenders: [{ offender_kind: 'person', full_name: '' }] })],
  ['a number too long', 'offences', offence({ number: 'x'.repeat(51) })],
  ['a latitude out of range', 'offences', offence({ location: { lat: 120, lng: 69 } })],
  [
    'witnesses: a complete one, and one without a name, a short phone and a bad passport',
    'offences',
    offence({
      witnesses: [
        { full_name: 'Saidova Gulnora', phone: '901234567', passport: 'AA1234567' },
        { full_name: '', phone: '90123', passport: 'A1234567' },
      ],
    }),
  ],
  ['a photo without its file type', 'offences', offence({ files: [{ file: 5 }] })],
  ['a complete tree passport', 'plantings', tree()],
  ['a tree without its species and place type', 'plantings', tree({ species_id: undefined, place_type: 'moon' })],
  ['a negative height and a count of 0', 'plantings', tree({ height_m: '-1', count: 0 })],
  ['a height with three decimals', 'plantings', tree({ height_m: '4.555' })],
  ['a complete planting inspection', 'planting-inspections', inspection()],
  [
    'an inspection without its findings, result and trees checked',
    'planting-inspections',
    inspection({ findings: '', result: undefined, trees_checked: undefined }),
  ],
  ['an inspection with a result not of the list and negative trees', 'planting-inspections', inspection({ result: 'bad', trees_dead: -1 })],
  ['a complete felling violation', 'tree-cutting-violations', felling()],
  ['a felling violation without its violator and with 0 trees', 'tree-cutting-violations', felling({ violator_name: '', trees: 0 })],
  [
    'a violator INN of 10 digits, a date after today',
    'tree-cutting-violations',
    felling({ violator_inn: '1234567890', found_on: '2999-01-01' }),
  ],
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
