/**
 * A control zone's form: the fields an administrator defines per folder (kind, required, options,
 * order, captions in three languages) turned into one JSON Schema and its layout (react-jsonschema-form's
 * uiSchema). The API validates a zone's values with this schema (ajv) and the back-office renders
 * the same schema with @rjsf/mui, so both faces say the same rule. Pure: no database, no I/O.
 */

export type ZoneFieldKind = 'string' | 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'select' | 'multiselect';
export type Lang3 = 'uz' | 'uk' | 'ru';
export type Caption3 = { uz?: string | null; uk?: string | null; ru?: string | null };

/** One field definition, as a `control-zone-fields` row holds it. */
export interface ZoneFieldDef {
  code: string;
  caption: Caption3;
  kind: ZoneFieldKind;
  required?: boolean | null;
  ordering?: number | null;
  min?: number | string | null;
  max?: number | string | null;
  max_length?: number | null;
  /** select / multiselect: the choices */
  options?: { value: string; caption: Caption3 }[] | null;
  hint?: Caption3 | null;
}

export interface ZoneFormSchema {
  schema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
}

/** A string field without a length of its own; a text field's. */
export const STRING_MAX = 500;
export const TEXT_MAX = 5000;

/** The caption in a language, Latin Uzbek when that language has none. */
export function caption3(c: Caption3 | null | undefined, lang: Lang3): string {
  return (c?.[lang] || c?.uz || '').trim();
}

const num = (v: number | string | null | undefined): number | undefined => {
  if (v === null || v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** The definitions in their order (ordering, then code): the form's order and the schema's. */
export function orderedDefs(defs: ZoneFieldDef[]): ZoneFieldDef[] {
  return [...defs].sort((a, b) => (a.ordering ?? 0) - (b.ordering ?? 0) || a.code.localeCompare(b.code));
}

/** One field's JSON Schema. */
export function fieldSchema(d: ZoneFieldDef, lang: Lang3): Record<string, unknown> {
  const title = caption3(d.caption, lang) || d.code;
  const s: Record<string, unknown> = { title };
  const hint = caption3(d.hint ?? null, lang);
  if (hint) s.description = hint;
  const min = num(d.min);
  const max = num(d.max);
  switch (d.kind) {
    case 'string':
    case 'text':
      s.type = 'string';
      s.maxLength = d.max_length ?? (d.kind === 'text' ? TEXT_MAX : STRING_MAX);
      if (d.required) s.minLength = 1;
      break;
    case 'integer':
    case 'number':
      s.type = d.kind;
      if (min !== undefined) s.minimum = min;
      if (max !== undefined) s.maximum = max;
      break;
    case 'boolean':
      s.type = 'boolean';
      break;
    case 'date':
      s.type = 'string';
      s.format = 'date';
      break;
    case 'select': {
      const opts = d.options ?? [];
      s.type = 'string';
      s.enum = opts.map((o) => o.value);
      break;
    }
    case 'multiselect': {
      const opts = d.options ?? [];
      s.type = 'array';
      s.items = { type: 'string', enum: opts.map((o) => o.value) };
      s.uniqueItems = true;
      if (d.required) s.minItems = 1;
      break;
    }
  }
  return s;
}

/**
 * The form of a set of field definitions in a language: an object schema with one property per
 * field code (`additionalProperties: false`: a code no definition has is refused), `required`
 * from the definitions, and a uiSchema with their order, text areas and option captions.
 */
export function zoneFormSchema(defs: ZoneFieldDef[], lang: Lang3): ZoneFormSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const uiSchema: Record<string, unknown> = {};
  const ordered = orderedDefs(defs);
  for (const d of ordered) {
    properties[d.code] = fieldSchema(d, lang);
    // a boolean is always answered (an unticked box is "no")
    if (d.required && d.kind !== 'boolean') required.push(d.code);
    const ui: Record<string, unknown> = {};
    if (d.kind === 'text') ui['ui:widget'] = 'textarea';
    if (d.kind === 'select' || d.kind === 'multiselect') {
      ui['ui:enumNames'] = (d.options ?? []).map((o) => caption3(o.caption, lang) || o.value);
      if (d.kind === 'multiselect') ui['ui:widget'] = 'checkboxes';
    }
    if (Object.keys(ui).length) uiSchema[d.code] = ui;
  }
  uiSchema['ui:order'] = [...ordered.map((d) => d.code), '*'];
  return {
    schema: { type: 'object', properties, required, additionalProperties: false },
    uiSchema,
  };
}

/** A field's error as a caption key of the API's catalogue and its arguments. */
export interface ZoneValueError {
  /** the field code (`depth`), the form's own property */
  code: string;
  key: string;
  args: Record<string, unknown>;
}

/** The minimal shape of an ajv error this module reads (ajv's ErrorObject fits it). */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/**
 * ajv's errors of a zone's values → one error per field code, the most telling first: "required",
 * "within min–max", "at most N characters", "not one of the options", "wrong format", "no such
 * field". The same keys the engine's own fields use, so the messages read alike.
 */
export function zoneValueErrors(defs: ZoneFieldDef[], errors: SchemaError[]): ZoneValueError[] {
  const byCode = new Map(defs.map((d) => [d.code, d]));
  const out = new Map<string, ZoneValueError>();
  const rank = (e: SchemaError) => (e.keyword === 'required' ? 0 : e.keyword === 'type' ? 1 : 2);
  for (const e of [...errors].sort((a, b) => rank(a) - rank(b))) {
    const segs = e.instancePath.split('/').filter(Boolean);
    let code = segs[0] ?? '';
    let key: string;
    let args: Record<string, unknown> = {};
    if (e.keyword === 'required') {
      code = String(e.params.missingProperty);
      key = 'validation.required';
    } else if (e.keyword === 'additionalProperties') {
      code = String(e.params.additionalProperty);
      key = 'validation.form_unknown_field';
    } else {
      const d = byCode.get(code);
      switch (e.keyword) {
        case 'minimum':
        case 'maximum':
          key = 'validation.interval';
          args = { min: num(d?.min) ?? '', max: num(d?.max) ?? '' };
          break;
        case 'minLength':
        case 'minItems':
          key = 'validation.required';
          break;
        case 'maxLength':
          key = 'validation.max_length';
          args = { limit: e.params.limit };
          break;
        case 'enum':
          key = 'validation.wrong_value';
          break;
        default:
          key = 'validation.wrong_format';
      }
    }
    if (code && !out.has(code)) out.set(code, { code, key, args });
  }
  return [...out.values()];
}
