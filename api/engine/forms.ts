import type { Knex } from 'knex';
import type { ValidateFunction } from 'ajv';
import type { EntityMeta, Lang, MetaModel } from '../meta/types.ts';
import { compileSchema } from './payload-schema.ts';
import { validationError, type FieldError } from '../kernel/errors.ts';
import { translate } from '../meta/captions.ts';

/**
 * Forms whose fields are data (a control zone's values): a `json` field with a `form` holds an
 * object checked against the JSON Schema its module builds for the row's `form.by` reference. A
 * value that breaks its field's rule is a 400 with the error under `<field>.<property>`, naming the
 * property's caption in the caller's language; the back-office renders the same schema.
 */
/**
 * The JSON Schema a form's values must meet, for the row's `form.by` reference (a zone's fields),
 * in the caller's language, with a caption per property so that an error names the field; and a
 * way to turn ajv's errors into field errors keyed by the form's property names.
 */
export interface FormSchema {
  schema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  /** property name → its caption in the caller's language */
  captions: Record<string, string>;
  errors(
    ajvErrors: { keyword: string; instancePath: string; params: Record<string, unknown> }[],
  ): { code: string; key: string; args: Record<string, unknown> }[];
}

/** A module's form schema of a row's reference (found by name from a field's `form.schema`); null when the reference has none. */
export type FormSchemaProvider = (db: Knex | Knex.Transaction, byId: number, lang: Lang) => Promise<FormSchema | null>;

const compiled = new Map<string, ValidateFunction>();
const COMPILED_MAX = 500;

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (!v) {
    if (compiled.size >= COMPILED_MAX) compiled.delete(compiled.keys().next().value!);
    v = compileSchema(schema);
    compiled.set(key, v);
  }
  return v;
}

/** The form fields of an entity. */
export function formFields(e: EntityMeta): string[] {
  return Object.entries(e.fields)
    .filter(([, f]) => f.type === 'json' && f.form)
    .map(([n]) => n);
}

/**
 * Checks the form fields of rows as they will stand (the written values over the row before): each
 * against its schema for the row's reference; an empty value is checked as `{}` (so a required
 * property is still asked for) once the reference is set.
 */
export async function checkForms(
  db: Knex | Knex.Transaction,
  model: MetaModel,
  lang: Lang,
  e: EntityMeta,
  forms: Readonly<Record<string, FormSchemaProvider>>,
  rows: { row: Record<string, unknown>; touched: Set<string> }[],
): Promise<void> {
  const names = formFields(e);
  if (!names.length) return;
  const errors: Record<string, FieldError> = {};
  for (const { row, touched } of rows) {
    for (const name of names) {
      const form = e.fields[name].form!;
      if (!touched.has(name) && !touched.has(form.by)) continue;
      const by = row[form.by];
      if (by == null) continue;
      const provider = forms[form.schema];
      if (!provider) throw new Error(`form schema "${form.schema}" is not defined`);
      const fs = await provider(db, Number(by), lang);
      if (!fs) continue;
      const value = row[name] ?? {};
      const validate = validatorFor(fs.schema);
      if (validate(value)) continue;
      for (const err of fs.errors((validate.errors ?? []) as never)) {
        const problem = translate(model, lang, err.key, err.args);
        errors[`${name}.${err.code}`] = { key: 'validation.form_field', args: { field: fs.captions[err.code] ?? err.code, problem } };
      }
    }
  }
  if (Object.keys(errors).length) throw validationError(errors);
}
