import type { Lang } from '../../meta/types.ts';
import type { FormSchemaProvider } from '../types.ts';
import { caption3, zoneFormSchema, zoneValueErrors } from '../../domain/control-zone-form.ts';
import { zoneFieldDefs } from '../../read-models/zone-forms.ts';

/** `zones.values`: a zone's form in the caller's language (engine/forms.ts checks the values with it). */
export const zoneValuesForm: FormSchemaProvider = async (db, zoneId, lang: Lang) => {
  const defs = await zoneFieldDefs(db, zoneId);
  if (!defs) return null;
  const { schema, uiSchema } = zoneFormSchema(defs, lang);
  return {
    schema,
    uiSchema,
    captions: Object.fromEntries(defs.map((d) => [d.code, caption3(d.caption, lang) || d.code])),
    errors: (errs) => zoneValueErrors(defs, errs),
  };
};
