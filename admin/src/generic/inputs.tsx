import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Box } from '@mui/material';
import {
  ArrayInput,
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  Labeled,
  NumberInput,
  PasswordInput,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  required,
  useDataProvider,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { useMeta } from '../meta/store';
import type { EntityMeta, FieldMeta } from '../meta/types';
import type { MetaModel } from '../meta/model';
import { formatPassport, formatPhone, isMasked, parsePassport, parsePhone, todayTashkent } from './format';
import { LoadingText, Pending } from './LoadingText';
import { MetaField } from './MetaField';
import { titleOf } from './titleOf';
import { useLang } from './useLang';
import { FileInput } from './FileInput';
import { DateInput } from './DateInput';
import { DecimalInput } from './DecimalInput';

/** The OpenLayers pickers are heavy: they load as their own chunks (OpenLayers shared), the first time a form has a point or a polygon. */
const PointInput = lazy(() => import('./PointInput'));
const PolygonInput = lazy(() => import('./PolygonInput'));
/** react-jsonschema-form is as heavy: its own chunk, the first time a form has a form of its own (a control zone's values). */
const FormValuesInput = lazy(() => import('./FormValuesInput'));
/** TipTap too: the first time a form has rich text (a field marked `html`). */
const RichTextInput = lazy(() => import('./RichTextInput'));

type Message = string | { message: string; args: Record<string, unknown> };

/**
 * Client-side checks from the metadata, with the API's own caption keys as messages, so that a
 * form says what the server would say before it is sent. The server checks everything again; its
 * field errors show beside the same inputs.
 */
export function validatorsFor(f: FieldMeta, opts: { skipRequired?: boolean } = {}): Validator[] {
  const out: Validator[] = [];
  if (f.required && f.type !== 'boolean' && !opts.skipRequired) out.push(required('validation.required'));
  // a personal value the server masked goes back as it came (the server keeps the stored one): not checked here
  const str =
    (fn: (s: string) => Message | undefined): Validator =>
    (v: unknown) =>
      typeof v === 'string' && v !== '' && !(f.personal && isMasked(v)) ? fn(v) : undefined;
  if (f.type === 'string' || f.type === 'text' || f.type === 'text3') {
    const max = f.maxLength ?? (f.type === 'string' ? 255 : f.type === 'text3' ? 1000 : undefined);
    if (max) out.push(str((s) => (s.length > max ? { message: 'validation.max_length', args: { limit: max } } : undefined)));
    if (f.minLength)
      out.push(str((s) => (s.length < f.minLength! ? { message: 'validation.min_length', args: { limit: f.minLength } } : undefined)));
  }
  if (f.type === 'string' && f.pattern) {
    const re = new RegExp(f.pattern);
    out.push(str((s) => (re.test(s) ? undefined : f.format ? `validation.${f.format}` : 'validation.wrong_format')));
  }
  if (f.type === 'decimal' || f.type === 'money') {
    const scale = f.type === 'money' ? 2 : (f.scale ?? 4);
    const re = new RegExp(`^-?\\d+(\\.\\d{1,${scale}})?$`);
    out.push((v: unknown) => {
      if (v === null || v === undefined || v === '') return undefined;
      return re.test(String(v)) ? undefined : { message: f.type === 'money' ? 'validation.money' : 'validation.decimal', args: { scale } };
    });
  }
  if ((f.type === 'integer' || f.type === 'decimal' || f.type === 'money') && (typeof f.min === 'number' || typeof f.max === 'number')) {
    out.push((v: unknown) => {
      if (v === null || v === undefined || v === '') return undefined;
      const n = Number(v);
      if (Number.isNaN(n)) return undefined;
      const bad = (typeof f.min === 'number' && n < f.min) || (typeof f.max === 'number' && n > f.max);
      return bad ? { message: 'validation.interval', args: { min: f.min ?? '', max: f.max ?? '' } } : undefined;
    });
  }
  if ((f.type === 'date' || f.type === 'datetime') && f.max === 'today') {
    out.push((v: unknown) => (typeof v === 'string' && v.slice(0, 10) > todayTashkent() ? 'validation.future_date' : undefined));
  }
  return out;
}

/** True when the user may not type into the field (read-only, computed, copied from a reference). */
export const isDerived = (f: FieldMeta) => !!(f.readOnly || f.computedBy || f.from);

function Text3Input({ field, disabled }: { field: FieldMeta; disabled?: boolean }) {
  const translate = useTranslate();
  const all = validatorsFor(field);
  const lengthOnly = validatorsFor(field, { skipRequired: true });
  const multiline = (field.maxLength ?? 1000) > 255;
  if (field.html) {
    return (
      <Box sx={{ width: '100%' }}>
        <Suspense fallback={<Pending />}>
          {(['uz', 'uk', 'ru'] as const).map((l) => (
            <RichTextInput
              key={l}
              source={`${field.name}.${l}`}
              label={`${translate(field.label)} (${translate(`admin.form.lang_${l}`)})`}
              required={l === 'uz' && field.required}
            />
          ))}
        </Suspense>
      </Box>
    );
  }
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
      {(['uz', 'uk', 'ru'] as const).map((l) => (
        <TextInput
          key={l}
          source={`${field.name}.${l}`}
          label={
            <>
              {translate(field.label)} ({translate(`admin.form.lang_${l}`)})
              {l === 'uz' && field.required ? <span aria-hidden="true">&thinsp;*</span> : null}
            </>
          }
          validate={l === 'uz' ? all : lengthOnly}
          multiline={multiline}
          disabled={disabled}
          sx={{ flex: '1 1 260px' }}
        />
      ))}
    </Box>
  );
}

/**
 * A reference `within` other fields of the form (a mahalla within the chosen district) offers only
 * the rows that agree with what is chosen there: the referenced list filtered by those values.
 */
function useWithin(field: FieldMeta, reference: string | undefined): Record<string, unknown> {
  const pairs = Object.entries(field.within ?? {});
  const values = (useWatch({ name: pairs.map(([, own]) => own), disabled: !pairs.length }) ?? []) as unknown[];
  useKeepWithin(field, reference, pairs, values);
  return Object.fromEntries(pairs.map(([column], i) => [column, values[i]]).filter(([, v]) => v != null && v !== ''));
}

const same = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');

/**
 * When a field the reference agrees with changes (another region chosen, or the region emptied),
 * the row chosen in the reference is looked up and, when it no longer agrees (a district of the
 * region before), the reference is emptied: the form never holds a pair the server would refuse,
 * and a district's mahalla goes with the district in turn. Values the form opens with are left.
 */
function useKeepWithin(field: FieldMeta, reference: string | undefined, pairs: [string, string][], values: unknown[]): void {
  const form = useFormContext();
  const dataProvider = useDataProvider();
  const key = JSON.stringify(values.map((v) => String(v ?? '')));
  const seen = useRef(key);
  useEffect(() => {
    if (!pairs.length || !reference || seen.current === key) return;
    seen.current = key;
    const chosen = form.getValues(field.name);
    if (chosen == null || chosen === '') return;
    let live = true;
    dataProvider.getMany(reference, { ids: [chosen] }).then(
      ({ data }) => {
        const row = data[0] as Record<string, unknown> | undefined;
        if (!live || !same(form.getValues(field.name), chosen)) return;
        if (!row || pairs.some(([column, own]) => !same(row[column], form.getValues(own))))
          form.setValue(field.name, null, { shouldDirty: true, shouldValidate: true });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps -- when the values agreed with change, not on each render's new arrays
}

function RefInput({ field, model, multiple, disabled }: { field: FieldMeta; model: MetaModel; multiple?: boolean; disabled?: boolean }) {
  const lang = useLang();
  const reference = model.resourceOf(field.ref);
  const target = field.ref ? model.byName.get(field.ref) : undefined;
  const within = useWithin(field, reference); // before the early return: a hook is called on every render
  if (!reference || !target)
    return <NumberInput source={field.name} label={field.label} disabled={disabled} validate={validatorsFor(field)} />;
  const search = target.list.filters.find((x) => x.op === 'search')?.name;
  const filterToQuery = (q: string) => (search && q ? { [search]: q } : {});
  const sort = { field: target.list.sort[0], order: target.list.sort[1].toUpperCase() as 'ASC' | 'DESC' };
  const optionText = (r: Record<string, unknown>) => titleOf(target, r as never, lang);
  if (multiple) {
    return (
      <ReferenceArrayInput source={field.name} reference={reference} sort={sort} perPage={50}>
        <AutocompleteArrayInput
          label={field.label}
          optionText={optionText}
          filterToQuery={filterToQuery}
          validate={validatorsFor(field)}
          disabled={disabled}
        />
      </ReferenceArrayInput>
    );
  }
  return (
    <ReferenceInput source={field.name} reference={reference} sort={sort} perPage={25} filter={within}>
      <AutocompleteInput
        label={field.label}
        optionText={optionText}
        filterToQuery={filterToQuery}
        validate={validatorsFor(field)}
        disabled={disabled}
      />
    </ReferenceInput>
  );
}

/**
 * The input of one field, by its kind. `source` and `defaultValue` are there for an array's
 * iterator, which reads them off its children to make a new row.
 */
export function MetaInput({
  field,
  mode,
}: {
  field: FieldMeta;
  mode: 'create' | 'edit';
  source?: string;
  defaultValue?: unknown;
}): ReactNode {
  const model = useMeta();
  const translate = useTranslate();
  if (field.hidden) return null;
  if (isDerived(field)) {
    if (mode === 'create') return null;
    return (
      // read-only values sit side by side: a gap keeps one's label from running into the next
      <Labeled label={field.label} sx={{ mb: 2, mr: 4, minWidth: 120 }}>
        <MetaField field={field} source={field.name} />
      </Labeled>
    );
  }
  const v = validatorsFor(field);
  const common = { source: field.name, label: field.label, validate: v };
  switch (field.type) {
    case 'text3':
      return <Text3Input field={field} />;
    case 'string':
      if (field.format === 'phone') {
        return (
          <TextInput
            {...common}
            format={formatPhone}
            parse={parsePhone}
            placeholder="(90) 123-45-67"
            slotProps={{ htmlInput: { inputMode: 'tel' } }}
          />
        );
      }
      if (field.format === 'passport') {
        return <TextInput {...common} format={formatPassport} parse={parsePassport} placeholder="AA 1234567" />;
      }
      return <TextInput {...common} />;
    case 'text':
      return <TextInput {...common} multiline minRows={3} />;
    case 'password': {
      // a new row needs one; on an existing row an empty password leaves it as it is
      const checks = validatorsFor(field, { skipRequired: mode === 'edit' });
      checks.push((x: unknown) =>
        typeof x === 'string' && x !== '' && x.length < 6 ? { message: 'validation.min_length', args: { limit: 6 } } : undefined,
      );
      // typed twice (spec: a repeated password field); the repeat is checked here and not sent (api/dataProvider.ts)
      const same = (x: unknown, values: Record<string, unknown>) =>
        (x ?? '') !== (values[field.name] ?? '') ? 'admin.account.repeat_mismatch' : undefined;
      return (
        <>
          <PasswordInput source={field.name} label={field.label} validate={checks} autoComplete="new-password" />
          <PasswordInput
            source={`${field.name}_repeat`}
            label="admin.account.password_repeat"
            validate={same}
            autoComplete="new-password"
          />
        </>
      );
    }
    case 'integer':
      return <NumberInput {...common} step={1} />;
    case 'decimal':
    case 'money':
      return <DecimalInput field={field} label={field.label} validate={v} />;
    case 'boolean':
      return <BooleanInput source={field.name} label={field.label} />;
    case 'date':
      return <DateInput {...common} max={field.max === 'today' ? 'today' : undefined} />;
    case 'datetime':
      return <DateInput {...common} time max={field.max === 'today' ? 'today' : undefined} />;
    case 'enum':
      return <SelectInput {...common} choices={(field.values ?? []).map((x) => ({ id: x, name: `enums.${field.name}.${x}` }))} />;
    case 'ref':
      return <RefInput field={field} model={model} />;
    case 'refs':
      return <RefInput field={field} model={model} multiple />;
    case 'file':
    case 'files':
    case 'image':
      return <FileInput field={field} validate={v} />;
    case 'point':
      return (
        <Suspense fallback={<LoadingText text={translate('admin.map.loading')} sx={{ my: 2 }} />}>
          <PointInput source={field.name} label={field.label} required={field.required} />
        </Suspense>
      );
    case 'polygon':
      return (
        <Suspense fallback={<LoadingText text={translate('admin.map.loading')} sx={{ my: 2 }} />}>
          <PolygonInput source={field.name} label={field.label} required={field.required} />
        </Suspense>
      );
    case 'json':
      if (!field.form) return null;
      return (
        <Suspense fallback={<LoadingText text={translate('admin.form_values.loading')} sx={{ my: 2 }} />}>
          <FormValuesInput field={field} />
        </Suspense>
      );
    case 'children':
      return (
        <ArrayInput source={field.name} label={field.label}>
          {/* a child row of many fields wraps onto several lines rather than squeezing each input to a letter */}
          <SimpleFormIterator
            inline
            sx={{
              '& .RaSimpleFormIterator-form': { flexWrap: 'wrap', columnGap: 2, rowGap: 0.5 },
              '& .RaSimpleFormIterator-form > *': { minWidth: 200, flex: '1 1 200px' },
            }}
          >
            {(field.fields ?? [])
              .filter((c) => !c.hidden && !isDerived(c))
              .map((c) => (
                <MetaInput key={c.name} source={c.name} defaultValue={c.default} field={c} mode={mode} />
              ))}
          </SimpleFormIterator>
        </ArrayInput>
      );
    default:
      return <TextInput {...common} />;
  }
}

/** The default values of a new row, from the metadata's `default`s. */
export function defaultsOf(e: EntityMeta): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of e.fields) if (f.default !== undefined) out[f.name] = f.default;
  return out;
}
