import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { EntityMeta, FieldMeta } from '../meta/types.ts';
import { FORMATS } from '../meta/formats.ts';
import { todayTashkent, currentYearTashkent, isIsoDate, isIsoDateTime, MIN_YEAR, MAX_YEAR } from '../meta/today.ts';
import type { FieldError } from '../kernel/errors.ts';

/**
 * Builds the JSON Schema of an entity's write payload from its metadata and compiles it with ajv.
 * Custom keywords say what JSON Schema cannot: dates not after Tashkent's today, years up to the
 * current one, exact decimals with a scale, and text in three languages.
 */
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false });
const addFormats = addFormatsModule as unknown as (ajv: Ajv, formats: string[]) => Ajv;
addFormats(ajv, ['date', 'date-time']);

ajv.addKeyword({
  keyword: 'xMaxToday',
  schemaType: 'boolean',
  validate: (on: boolean, data: unknown) => !on || typeof data !== 'string' || data.slice(0, 10) <= todayTashkent(),
});
ajv.addKeyword({
  keyword: 'xMaxCurrentYear',
  schemaType: 'boolean',
  validate: (on: boolean, data: unknown) => !on || typeof data !== 'number' || data <= currentYearTashkent(),
});
ajv.addKeyword({
  keyword: 'xMinDate',
  schemaType: 'string',
  validate: (min: string, data: unknown) => typeof data !== 'string' || data.slice(0, 10) >= min,
});
/** Dates in the years MIN_YEAR–MAX_YEAR (format `date` alone takes year 0000, which PostgreSQL has not). */
ajv.addKeyword({
  keyword: 'xIsoDate',
  schemaType: 'boolean',
  validate: (on: boolean, data: unknown) => !on || typeof data !== 'string' || isIsoDate(data),
});
/** Date-times PostgreSQL reads as written: years MIN_YEAR–MAX_YEAR, seconds below 60, a zone within ±14 h. */
ajv.addKeyword({
  keyword: 'xIsoDateTime',
  schemaType: 'boolean',
  validate: (on: boolean, data: unknown) => !on || typeof data !== 'string' || isIsoDateTime(data),
});
ajv.addKeyword({
  keyword: 'xDecimal',
  schemaType: 'object',
  validate: (opts: { scale: number; precision: number }, data: unknown) => {
    if (data === null) return true;
    const s = typeof data === 'number' ? String(data) : data;
    if (typeof s !== 'string') return false;
    const m = /^-?(\d+)(?:\.(\d+))?$/.exec(s);
    if (!m) return false;
    return (m[2]?.length ?? 0) <= opts.scale && m[1].replace(/^0+(?=\d)/, '').length <= opts.precision - opts.scale;
  },
});
ajv.addKeyword({
  keyword: 'xDecimalRange',
  schemaType: 'object',
  validate: (r: { min?: number; max?: number }, data: unknown) => {
    const n = Number(data);
    if (data === null || Number.isNaN(n)) return true;
    return (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max);
  },
});

/** A polygon is an open ring (the closing point not repeated) of this many [lng, lat] points. */
export const POLYGON_MIN_POINTS = 3;
export const POLYGON_MAX_POINTS = 2000;
/** A `text` field without a maxLength of its own holds at most this many characters. */
export const TEXT_MAX_LENGTH = 20_000;
/** Ids are bigint in the database and numbers in JS: at most 2^53 − 1, which a JS number holds exactly. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
const INT4 = { min: -2147483648, max: 2147483647 };
const DATE_RANGE = { min: `${MIN_YEAR}-01-01`, max: `${MAX_YEAR}-12-31` };
const ID = { type: 'integer', minimum: 1, maximum: MAX_ID };

export function fieldSchema(f: FieldMeta): Record<string, unknown> {
  const nullable = (s: Record<string, unknown>) => (f.required ? s : { anyOf: [s, { type: 'null' }] });
  switch (f.type) {
    case 'string':
    case 'text': {
      const s: Record<string, unknown> = { type: 'string' };
      if (f.required) s.minLength = Math.max(1, f.minLength ?? 1);
      else if (f.minLength) s.minLength = f.minLength;
      s.maxLength = f.maxLength ?? (f.type === 'string' ? 255 : TEXT_MAX_LENGTH);
      if (f.format) s.pattern = FORMATS[f.format].pattern;
      else if (f.pattern) s.pattern = f.pattern;
      return nullable(s);
    }
    case 'integer': {
      const s: Record<string, unknown> = { type: 'integer', minimum: INT4.min, maximum: INT4.max };
      if (typeof f.min === 'number') s.minimum = f.min;
      if (typeof f.max === 'number') s.maximum = f.max;
      if (f.max === 'currentYear') s.xMaxCurrentYear = true;
      return nullable(s);
    }
    case 'decimal':
    case 'money': {
      const scale = f.type === 'money' ? 2 : (f.scale ?? 4);
      const precision = f.type === 'money' ? 18 : (f.precision ?? 20);
      const s: Record<string, unknown> = { type: ['string', 'number'], xDecimal: { scale, precision } };
      if (typeof f.min === 'number' || typeof f.max === 'number') s.xDecimalRange = { min: f.min, max: f.max };
      return nullable(s);
    }
    case 'boolean':
      return nullable({ type: 'boolean' });
    case 'password':
      return { type: 'string', minLength: 6, maxLength: 200 };
    case 'date': {
      const s: Record<string, unknown> = { type: 'string', format: 'date', xIsoDate: true };
      if (f.max === 'today') s.xMaxToday = true;
      if (typeof f.min === 'string') s.xMinDate = f.min;
      return nullable(s);
    }
    case 'datetime': {
      const s: Record<string, unknown> = { type: 'string', maxLength: 40, format: 'date-time', xIsoDateTime: true };
      if (f.max === 'today') s.xMaxToday = true;
      return nullable(s);
    }
    case 'enum':
      return nullable({ type: 'string', enum: f.values });
    case 'ref':
    case 'file':
    case 'image':
      return nullable({ ...ID });
    case 'refs':
    case 'files':
      return nullable({ type: 'array', items: { ...ID }, uniqueItems: true, maxItems: 1000 });
    case 'text3': {
      const lang = { type: ['string', 'null'], maxLength: f.maxLength ?? 1000 };
      return nullable({
        type: 'object',
        required: f.required ? ['uz'] : [],
        properties: { uz: f.required ? { type: 'string', minLength: 1, maxLength: f.maxLength ?? 1000 } : lang, uk: lang, ru: lang },
        additionalProperties: false,
      });
    }
    case 'point':
      return nullable({
        type: 'object',
        required: ['lat', 'lng'],
        properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lng: { type: 'number', minimum: -180, maximum: 180 } },
        additionalProperties: false,
      });
    case 'polygon':
      return nullable({
        type: 'array',
        minItems: POLYGON_MIN_POINTS,
        maxItems: POLYGON_MAX_POINTS,
        items: {
          type: 'array',
          minItems: 2,
          maxItems: 2,
          items: [
            { type: 'number', minimum: -180, maximum: 180 },
            { type: 'number', minimum: -90, maximum: 90 },
          ],
        },
      });
    case 'children': {
      const props: Record<string, unknown> = { id: {}, parent_id: {}, ordering: {} };
      const required: string[] = [];
      for (const [n, cf] of Object.entries(f.fields ?? {})) {
        if (cf.readOnly || cf.computedBy || cf.from) {
          props[n] = {};
          continue;
        }
        props[n] = fieldSchema(cf);
        if (cf.required && cf.default === undefined && cf.type !== 'boolean') required.push(n);
      }
      return { type: 'array', maxItems: 5000, items: { type: 'object', properties: props, required } };
    }
    // a form's values: an object here, checked field by field against the form's own schema (engine/forms.ts);
    // otherwise written by the engine only (read-only by the loader's rule)
    case 'json':
      return f.form ? nullable({ type: 'object', maxProperties: 500 }) : {};
  }
}

/** Compiles a schema with the engine's keywords (dates not after today, exact decimals…). */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  return ajv.compile(schema);
}

export interface PayloadValidator {
  (data: Record<string, unknown>): Record<string, FieldError> | null;
}

/** Fields a client may write: not read-only, computed, derived or a system column. */
export function writableFields(e: EntityMeta): [string, FieldMeta][] {
  return Object.entries(e.fields).filter(([, f]) => !f.readOnly && !f.computedBy && !f.from);
}

/**
 * The JSON Schema of a create or update body: the writable fields, and on create those required
 * without a default. The one copy of the field rules: the validator below compiles it, and the
 * OpenAPI document (api/http/openapi.ts) publishes it.
 */
export function payloadSchema(
  e: EntityMeta,
  mode: 'create' | 'update',
): { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[] } {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const [name, f] of writableFields(e)) {
    properties[name] = fieldSchema(f);
    if (mode === 'create' && f.required && f.default === undefined && f.type !== 'boolean' && !(e.workflow?.field === name))
      required.push(name);
  }
  return { type: 'object', properties, required };
}

export function compilePayloadValidator(e: EntityMeta, mode: 'create' | 'update'): PayloadValidator {
  const validate: ValidateFunction = ajv.compile(payloadSchema(e, mode));
  return (data) => {
    if (validate(data)) return null;
    return toFieldErrors(e, validate.errors ?? [], data);
  };
}

function fieldOf(path: string): string {
  return path.split('/').filter(Boolean).join('.');
}

/** The value at an ajv instance path (`/lines/0/amount`) of the validated data. */
function valueAt(data: unknown, path: string): unknown {
  let v = data;
  for (const seg of path.split('/').filter(Boolean))
    v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[seg.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return v;
}

/** ajv's errors → one message key per field, the most telling first; a null where the field takes none (`data` given) is "required". */
export function toFieldErrors(e: EntityMeta, errors: ErrorObject[], data?: unknown): Record<string, FieldError> {
  const out: Record<string, FieldError> = {};
  const put = (field: string, err: FieldError) => {
    if (!out[field]) out[field] = err;
  };
  // required and type errors of the field itself beat errors of the anyOf null branch
  const sorted = [...errors].sort((a, b) => rank(e, a) - rank(e, b));
  for (const err of sorted) {
    let field = fieldOf(err.instancePath);
    if (err.keyword === 'required') {
      field = [field, (err.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
      put(field, { key: 'validation.required' });
      continue;
    }
    const polygon = polygonOf(e, field);
    if (polygon) {
      // a polygon's errors are the field's, not its points'
      put(polygon.field, polygonMessage(err, polygon.inner));
      continue;
    }
    if (data !== undefined && err.keyword === 'type' && valueAt(data, err.instancePath) === null) {
      put(field, { key: 'validation.required' });
      continue;
    }
    const meta = e.fields[field.split('.')[0]];
    put(field, messageFor(err, leafOf(e, field), meta?.type === 'children' ? field.split('.').length > 3 : field.includes('.')));
  }
  return out;
}

/** The field an error path is of: `name`, or a child row's `lines.0.amount`. */
function leafOf(e: EntityMeta, path: string): FieldMeta | undefined {
  const segs = path.split('.');
  const meta = e.fields[segs[0]];
  return meta?.type === 'children' ? meta.fields?.[segs[2]] : meta;
}

/** The polygon field (`shape`, `lines.0.shape`) an error path is in or under, and whether it is under it (a point). */
function polygonOf(e: EntityMeta, path: string): { field: string; inner: boolean } | null {
  const segs = path.split('.');
  const meta = e.fields[segs[0]];
  const depth = meta?.type === 'children' ? 3 : 1;
  const leaf = meta?.type === 'children' ? meta.fields?.[segs[2]] : meta;
  if (leaf?.type !== 'polygon' || segs.length < depth) return null;
  return { field: segs.slice(0, depth).join('.'), inner: segs.length > depth };
}

/** A polygon's message: not a ring of number pairs, too few or many points, a coordinate out of range. */
function polygonMessage(err: ErrorObject, inner: boolean): FieldError {
  if (inner && (err.keyword === 'minimum' || err.keyword === 'maximum')) return { key: 'validation.coordinates' };
  if (!inner && (err.keyword === 'minItems' || err.keyword === 'maxItems')) {
    return { key: 'validation.polygon_points', args: { min: POLYGON_MIN_POINTS, max: POLYGON_MAX_POINTS } };
  }
  return { key: 'validation.wrong_format' };
}

function rank(e: EntityMeta, err: ErrorObject): number {
  if (err.keyword === 'required') return 0;
  if (err.keyword === 'anyOf') return 9;
  if (err.keyword === 'type' && (err.params as { type: string }).type === 'null') return 8;
  // a named format's message ("a phone is (XX) XXX-XX-XX") says more than its length
  if (err.keyword === 'pattern' && leafOf(e, fieldOf(err.instancePath))?.format) return 0;
  const polygon = polygonOf(e, fieldOf(err.instancePath));
  if (polygon) {
    // the most telling first: not a ring of number pairs, then the count of points, then a coordinate
    const key = polygonMessage(err, polygon.inner).key;
    return key === 'validation.wrong_format' ? 1 : key === 'validation.polygon_points' ? 2 : 3;
  }
  return 1;
}

/** The message of one ajv error of a field (`inner`: of an item of it, such as one id of a refs field). */
function messageFor(err: ErrorObject, f: FieldMeta | undefined, inner = false): FieldError {
  const ids =
    f &&
    ['ref', 'refs', 'file', 'image', 'files'].includes(f.type) &&
    (inner || f.type === 'ref' || f.type === 'file' || f.type === 'image');
  switch (err.keyword) {
    case 'minLength':
      return (err.params as { limit: number }).limit <= 1
        ? { key: 'validation.required' }
        : { key: 'validation.min_length', args: { limit: (err.params as { limit: number }).limit } };
    case 'maxLength':
      return { key: 'validation.max_length', args: { limit: (err.params as { limit: number }).limit } };
    case 'pattern':
      return { key: f?.format ? FORMATS[f.format].message : 'validation.wrong_format' };
    case 'minimum':
    case 'maximum': {
      // an id out of range is an id no row has
      if (ids) return { key: 'validation.ref_not_found' };
      if (f?.type === 'point') return { key: 'validation.coordinates' };
      const min = typeof f?.min === 'number' ? f.min : f?.type === 'integer' ? INT4.min : '';
      const max = typeof f?.max === 'number' ? f.max : f?.type === 'integer' ? INT4.max : '';
      return { key: 'validation.interval', args: { min, max } };
    }
    case 'xDecimalRange':
      return { key: 'validation.interval', args: { min: f?.min ?? '', max: f?.max ?? '' } };
    case 'xIsoDate':
      return { key: 'validation.interval', args: DATE_RANGE };
    case 'xIsoDateTime':
      return { key: 'validation.wrong_format' };
    case 'xMaxToday':
      return { key: 'validation.future_date' };
    case 'xMinDate':
      return { key: 'validation.interval', args: { min: f?.min ?? '', max: f?.max ?? '' } };
    case 'xMaxCurrentYear':
      return { key: 'validation.future_year' };
    case 'xDecimal':
      return { key: f?.type === 'money' ? 'validation.money' : 'validation.decimal', args: { scale: f?.scale ?? 2 } };
    case 'enum':
      return { key: 'validation.wrong_value' };
    case 'format':
      return { key: 'validation.wrong_format' };
    case 'maxItems':
      return { key: 'validation.too_many', args: { limit: (err.params as { limit: number }).limit } };
    default:
      return { key: 'validation.wrong_format' };
  }
}
