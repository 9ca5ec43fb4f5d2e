import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { zoneFormSchema, type ZoneFieldDef } from '../../../api/domain/control-zone-form.ts';
import { checkFormData } from './schemaValidator';

/** The back-office's check of a zone form agrees with the API's (ajv) on the same schema. */
const defs: ZoneFieldDef[] = [
  { code: 'area', caption: { uz: 'Maydoni' }, kind: 'number', required: true, min: 0, max: 100 },
  { code: 'depth', caption: { uz: 'Chuqurligi' }, kind: 'integer', min: 1, max: 50 },
  { code: 'name', caption: { uz: 'Nomi' }, kind: 'string', required: true, max_length: 5 },
  {
    code: 'water',
    caption: { uz: 'Suv' },
    kind: 'select',
    options: [
      { value: 'a', caption: { uz: 'A' } },
      { value: 'b', caption: { uz: 'B' } },
    ],
  },
  {
    code: 'threats',
    caption: { uz: 'Xavflar' },
    kind: 'multiselect',
    required: true,
    options: [
      { value: 'x', caption: { uz: 'X' } },
      { value: 'y', caption: { uz: 'Y' } },
    ],
  },
  { code: 'seen', caption: { uz: 'Sana' }, kind: 'date' },
  { code: 'ok', caption: { uz: 'Ha' }, kind: 'boolean' },
];
const ajv = new Ajv({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv, f: string[]) => void)(ajv, ['date']);
const { schema } = zoneFormSchema(defs, 'uz');
const validate = ajv.compile(schema);

const cases: Record<string, unknown>[] = [
  { area: 5, name: 'abc', threats: ['x'] },
  { area: 5, depth: 50, name: 'abcde', water: 'b', threats: ['x', 'y'], seen: '2026-02-28', ok: false },
  {},
  { area: -1, name: 'abc', threats: ['x'] },
  { area: 101, name: 'abc', threats: ['x'] },
  { area: '5', name: 'abc', threats: ['x'] },
  { area: 5, depth: 2.5, name: 'abc', threats: ['x'] },
  { area: 5, depth: 0, name: 'abc', threats: ['x'] },
  { area: 5, name: '', threats: ['x'] },
  { area: 5, name: 'abcdef', threats: ['x'] },
  { area: 5, name: 'abc', water: 'c', threats: ['x'] },
  { area: 5, name: 'abc', threats: [] },
  { area: 5, name: 'abc', threats: ['z'] },
  { area: 5, name: 'abc', threats: ['x', 'x'] },
  { area: 5, name: 'abc', threats: ['x'], seen: '2026-13-01' },
  { area: 5, name: 'abc', threats: ['x'], seen: 'kecha' },
  { area: 5, name: 'abc', threats: ['x'], ok: 'ha' },
  { area: 5, name: 'abc', threats: ['x'], extra: 1 },
];

describe("the back-office's form check", () => {
  it.each(cases.map((c) => [JSON.stringify(c), c]))('answers %s as ajv does', (_, data) => {
    const ours = checkFormData(schema as never, data).map((e) => e.property!.replace(/^\./, '').split('.')[0]);
    const theirs = validate(data)
      ? []
      : (validate.errors ?? []).map((e) =>
          e.keyword === 'required'
            ? (e.params as { missingProperty: string }).missingProperty
            : e.keyword === 'additionalProperties'
              ? (e.params as { additionalProperty: string }).additionalProperty
              : e.instancePath.split('/')[1],
        );
    expect(new Set(ours)).toEqual(new Set(theirs));
  });
});
