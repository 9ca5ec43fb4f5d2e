import type { RJSFValidationError } from '@rjsf/utils';
import { useMeta } from '../meta/store';
import type { FieldMeta } from '../meta/types';
import { useFetch } from '../api/useFetch';
import { useLang } from './useLang';

/** A form's JSON Schema and layout as the API makes them from data (a control zone's field definitions). */
export interface FormSchemaAnswer {
  schema: Record<string, unknown> & { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  uiSchema: Record<string, unknown>;
}

/**
 * The schema of a `json` field with a `form` for the row's reference (`form.by`): asked of the
 * module route under the referenced entity (`<path>/<id>/<form.route>`), in the language shown.
 */
export function useFormSchema(field: FieldMeta, byId: unknown) {
  const model = useMeta();
  const lang = useLang();
  const owner = [...model.byName.values()].find((e) =>
    e.fields.some((f) => f === field || (f.name === field.name && f.form?.schema === field.form?.schema)),
  );
  const byField = owner?.fields.find((f) => f.name === field.form?.by);
  const target = byField?.ref ? model.byName.get(byField.ref) : undefined;
  const url = field.form && target && byId != null && byId !== '' ? `${target.path}/${String(byId)}/${field.form.route}` : null;
  return useFetch<FormSchemaAnswer>(url, lang);
}

/**
 * react-jsonschema-form's errors in the back-office's words: the same caption keys the API answers
 * with (required, within min – max, at most N characters, not one of the options, wrong format).
 */
export function transformErrors(
  errors: RJSFValidationError[],
  translate: (key: string, args?: Record<string, unknown>) => string,
  schema: FormSchemaAnswer['schema'],
): RJSFValidationError[] {
  return errors.map((e) => {
    const code = (e.property ?? '').replace(/^\./, '').split('.')[0];
    const prop = schema.properties?.[code] ?? {};
    const limit = (e.params as { limit?: number } | undefined)?.limit;
    let message: string;
    switch (e.name) {
      case 'required':
        message = translate('validation.required');
        break;
      case 'minimum':
      case 'maximum':
        message = translate('validation.interval', { min: prop.minimum ?? '', max: prop.maximum ?? '' });
        break;
      case 'minLength':
      case 'minItems':
        message = translate('validation.required');
        break;
      case 'maxLength':
        message = translate('validation.max_length', { limit });
        break;
      case 'enum':
        message = translate('validation.wrong_value');
        break;
      default:
        message = translate('validation.wrong_format');
    }
    return { ...e, message, stack: message };
  });
}
