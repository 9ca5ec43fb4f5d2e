import { useEffect, useMemo, useRef } from 'react';
import { Alert, Box, Typography } from '@mui/material';
import Form from '@rjsf/mui';
import type { ErrorSchema, RJSFValidationError, WidgetProps } from '@rjsf/utils';
import { useInput, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import type { FieldMeta } from '../meta/types';
import { transformErrors, useFormSchema } from './formSchema';
import { formValidator } from './schemaValidator';
import { DateValueInput } from './DateValueInput';

/**
 * A date of the form: the back-office's picker (DD.MM.YYYY in the language shown) in place of
 * rjsf's native `<input type="date">`, which follows the browser's locale (docs/decisions/0085).
 * A date typed in part reaches the schema as a value it refuses (the field says the format is wrong).
 */
function DateWidget({ id, value, onChange, label, hideLabel, required, disabled, readonly, rawErrors }: WidgetProps) {
  return (
    <DateValueInput
      id={id}
      value={value ?? null}
      onChange={(v) => onChange(v ?? undefined)}
      label={hideLabel ? undefined : label}
      required={required}
      disabled={disabled || readonly}
      error={!!rawErrors?.length}
      fullWidth
    />
  );
}
const WIDGETS = { DateWidget };

/**
 * The input of a form whose fields are data (a control zone's values): the JSON Schema the API
 * makes for the chosen reference (the zone) rendered by react-jsonschema-form with MUI, checked as
 * one types with the same schema, and the server's errors (`values.<field>`) shown beside their
 * fields. Until the reference is chosen it says so.
 */
export default function FormValuesInput({ field }: { field: FieldMeta }) {
  const translate = useTranslate();
  const by = useWatch({ name: field.form!.by });
  const { data, loading, error } = useFormSchema(field, by);
  const { field: input } = useInput({ source: field.name });
  const {
    formState: { errors },
    clearErrors,
  } = useFormContext();
  // the form's own messages say what is wrong (in the language shown): not the browser's bubbles on the inputs' min and max
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.closest('form')?.setAttribute('novalidate', '');
  });

  // the API's field errors arrive as `values.<code>` (react-hook-form nests them under the field)
  const serverErrors = errors[field.name] as Record<string, { message?: unknown }> | undefined;
  const extraErrors = useMemo(() => {
    if (!serverErrors || typeof serverErrors !== 'object') return undefined;
    const out: Record<string, { __errors: string[] }> = {};
    for (const [code, e] of Object.entries(serverErrors)) {
      if (!e || typeof e !== 'object' || code === 'ref' || code === 'message' || code === 'type') continue;
      const m = e.message;
      const text =
        typeof m === 'string' ? m : m && typeof m === 'object' && 'message' in m ? String((m as { message: unknown }).message) : '';
      if (text) out[code] = { __errors: [translate(text, { _: text })] };
    }
    return Object.keys(out).length ? (out as unknown as ErrorSchema) : undefined;
  }, [serverErrors, translate]);
  const ownMessage = serverErrors && typeof serverErrors.message === 'string' ? serverErrors.message : undefined;

  if (by == null || by === '') {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
        {translate('admin.form_values.choose_first', { field: translate(`fields.${field.form!.by}`) })}
      </Typography>
    );
  }
  if (error)
    return (
      <Alert severity="error" sx={{ my: 1 }}>
        {error.message}
      </Alert>
    );
  if (loading || !data)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
        {translate('admin.form_values.loading')}
      </Typography>
    );
  if (!Object.keys(data.schema.properties ?? {}).length) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
        {translate('admin.form_values.no_fields')}
      </Typography>
    );
  }
  return (
    <Box ref={box} sx={{ width: '100%', maxWidth: 720 }} data-testid={`form-values-${field.name}`}>
      {ownMessage ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {translate(ownMessage, { _: ownMessage })}
        </Alert>
      ) : null}
      <Form
        tagName="div"
        schema={data.schema}
        uiSchema={{ ...data.uiSchema, 'ui:submitButtonOptions': { norender: true } }}
        formData={(input.value && typeof input.value === 'object' ? input.value : {}) as Record<string, unknown>}
        validator={formValidator}
        widgets={WIDGETS}
        liveValidate="onChange"
        showErrorList={false}
        noHtml5Validate
        extraErrors={extraErrors}
        transformErrors={(errs: RJSFValidationError[]) => transformErrors(errs, translate, data.schema)}
        onChange={(e) => {
          // the server's word on the values was about the values it was sent
          if (serverErrors) clearErrors(field.name);
          input.onChange(e.formData ?? {});
        }}
      />
    </Box>
  );
}
