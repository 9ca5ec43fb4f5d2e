import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { zoneFormSchema, zoneValueErrors, type ZoneFieldDef } from './control-zone-form.ts';

const defs: ZoneFieldDef[] = [
  {
    code: 'depth',
    caption: { uz: 'Chuqurlik', uk: 'Чуқурлик', ru: 'Глубина' },
    kind: 'number',
    required: true,
    ordering: 20,
    min: 0,
    max: '12.5',
  },
  {
    code: 'water',
    caption: { uz: 'Suv turi', ru: 'Тип воды' },
    kind: 'select',
    ordering: 10,
    options: [
      { value: 'fresh', caption: { uz: 'Chuchuk', ru: 'Пресная' } },
      { value: 'salt', caption: { uz: 'Shoʻr' } },
    ],
  },
  { code: 'notes', caption: { uz: 'Izoh' }, kind: 'text', ordering: 30 },
  { code: 'fenced', caption: { uz: 'Oʻralgan' }, kind: 'boolean', required: true, ordering: 40 },
];

const ajv = new Ajv({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);

describe('a control zone form from its field definitions', () => {
  it('orders the fields, captions them in the language (Latin when missing) and says the rules', () => {
    const { schema, uiSchema } = zoneFormSchema(defs, 'ru');
    expect(uiSchema['ui:order']).toEqual(['water', 'depth', 'notes', 'fenced', '*']);
    expect(schema).toMatchObject({ type: 'object', required: ['depth'], additionalProperties: false });
    const p = schema.properties as Record<string, Record<string, unknown>>;
    expect(p.depth).toEqual({ title: 'Глубина', type: 'number', minimum: 0, maximum: 12.5 });
    expect(p.water).toMatchObject({ title: 'Тип воды', type: 'string', enum: ['fresh', 'salt'] });
    expect(uiSchema.water).toEqual({ 'ui:enumNames': ['Пресная', 'Shoʻr'] });
    expect(p.notes).toMatchObject({ title: 'Izoh', maxLength: 5000 });
    expect(uiSchema.notes).toEqual({ 'ui:widget': 'textarea' });
  });

  it('accepts good values and names each field that breaks its rule', () => {
    const { schema } = zoneFormSchema(defs, 'uz');
    const validate = ajv.compile(schema);
    expect(validate({ depth: 3.5, water: 'salt', fenced: true })).toBe(true);
    expect(validate({ depth: 13, water: 'sea', extra: 1 })).toBe(false);
    const errors = zoneValueErrors(defs, validate.errors as never).sort((a, b) => a.code.localeCompare(b.code));
    expect(errors).toEqual([
      { code: 'depth', key: 'validation.interval', args: { min: 0, max: 12.5 } },
      { code: 'extra', key: 'validation.form_unknown_field', args: {} },
      { code: 'water', key: 'validation.wrong_value', args: {} },
    ]);
    validate({});
    expect(zoneValueErrors(defs, validate.errors as never)).toEqual([{ code: 'depth', key: 'validation.required', args: {} }]);
  });
});
