import {
  toErrorSchema,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';

/**
 * react-jsonschema-form's validator for the forms the API makes from data (docs/control-zones.md):
 * the subset of JSON Schema those schemas use — an object of typed properties with required,
 * minimum / maximum, minLength / maxLength, enum, a `date` format, arrays of enum items with
 * minItems, and no additional properties — checked by hand. ajv (rjsf's default validator)
 * compiles schemas into functions with `new Function`, which the back-office's Content Security
 * Policy forbids; the API checks the same schema with ajv, and a test holds the two to the same
 * answers (schemaValidator.test.ts).
 */
type Schema = RJSFSchema & Record<string, unknown>;

const err = (name: string, property: string, params: Record<string, unknown> = {}): RJSFValidationError => ({
  name,
  property,
  params,
  message: name,
  stack: `${property} ${name}`,
  schemaPath: `#/properties/${property.replace(/^\./, '')}/${name}`,
});

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

function typeOk(type: unknown, v: unknown): boolean {
  switch (type) {
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return !!v && typeof v === 'object' && !Array.isArray(v);
    default:
      return true;
  }
}

function checkValue(s: Schema, v: unknown, property: string): RJSFValidationError[] {
  if (!typeOk(s.type, v)) return [err('type', property, { type: s.type })];
  const out: RJSFValidationError[] = [];
  if (typeof v === 'number') {
    if (typeof s.minimum === 'number' && v < s.minimum) out.push(err('minimum', property, { comparison: '>=', limit: s.minimum }));
    if (typeof s.maximum === 'number' && v > s.maximum) out.push(err('maximum', property, { comparison: '<=', limit: s.maximum }));
  }
  if (typeof v === 'string') {
    const n = [...v].length;
    if (typeof s.minLength === 'number' && n < s.minLength) out.push(err('minLength', property, { limit: s.minLength }));
    if (typeof s.maxLength === 'number' && n > s.maxLength) out.push(err('maxLength', property, { limit: s.maxLength }));
    if (s.format === 'date' && !(ISO_DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`))))
      out.push(err('format', property, { format: 'date' }));
  }
  if (Array.isArray(s.enum) && !s.enum.includes(v as never)) out.push(err('enum', property, { allowedValues: s.enum }));
  if (Array.isArray(v)) {
    if (typeof s.minItems === 'number' && v.length < s.minItems) out.push(err('minItems', property, { limit: s.minItems }));
    if (s.uniqueItems && new Set(v.map((x) => JSON.stringify(x))).size !== v.length) out.push(err('uniqueItems', property));
    const items = s.items as Schema | undefined;
    if (items && typeof items === 'object') v.forEach((x, i) => out.push(...checkValue(items, x, `${property}.${i}`)));
  }
  return out;
}

/** The errors of a form's data against its schema (an object of properties). */
export function checkFormData(schema: Schema, data: unknown): RJSFValidationError[] {
  if (!typeOk('object', data)) return [err('type', '', { type: 'object' })];
  const obj = data as Record<string, unknown>;
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const out: RJSFValidationError[] = [];
  for (const code of (schema.required ?? []) as string[]) {
    if (obj[code] === undefined) out.push(err('required', `.${code}`, { missingProperty: code }));
  }
  for (const [code, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    const p = props[code];
    if (!p) {
      if (schema.additionalProperties === false) out.push(err('additionalProperties', `.${code}`, { additionalProperty: code }));
      continue;
    }
    out.push(...checkValue(p, v, `.${code}`));
  }
  return out;
}

export const formValidator: ValidatorType = {
  validateFormData(
    formData: unknown,
    schema: RJSFSchema,
    _custom?: unknown,
    transformErrors?: ErrorTransformer,
    uiSchema?: unknown,
  ): ValidationData<unknown> {
    let errors = checkFormData(schema as Schema, formData ?? {});
    if (transformErrors) errors = transformErrors(errors, uiSchema as never);
    return { errors, errorSchema: toErrorSchema(errors) };
  },
  isValid(schema: RJSFSchema, formData: unknown): boolean {
    return (schema as Schema).type !== 'object' || checkFormData(schema as Schema, formData ?? {}).length === 0;
  },
  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown) {
    return { errors: checkFormData(schema as Schema, formData ?? {}) as unknown as Result[] };
  },
};
