import { useEffect, useMemo, useRef, useState } from 'react';
import { Box } from '@mui/material';
import { AutocompleteInput, Form, ReferenceInput, SelectInput, TextInput, required, useTranslate, type Validator } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useMeta } from '../meta/store';
import { useLang } from '../generic/useLang';
import { refProps } from '../generic/filters';
import { todayTashkent } from '../generic/format';
import { DateInput } from '../generic/DateInput';
import { coerceParam, sameParams, yearChoices } from './params';
import { enumValueKey, paramLabelKey } from './paramLabels';
import type { ParamValues, ReportParamDef } from './types';

interface Props {
  defs: Record<string, ReportParamDef>;
  values: ParamValues;
  onChange: (values: ParamValues) => void;
}

/** Sends the form's values, typed, a moment after the last change (typing in the search box). */
function Emit({ defs, onChange }: { defs: Record<string, ReportParamDef>; onChange: (v: ParamValues) => void }) {
  const all = useWatch() as Record<string, unknown>;
  const json = JSON.stringify(all);
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    const values = JSON.parse(json) as Record<string, unknown>;
    const t = setTimeout(() => {
      const today = todayTashkent();
      const next: ParamValues = {};
      for (const [name, def] of Object.entries(defs)) {
        const v = coerceParam(def, values[name], today);
        if (v !== undefined) next[name] = v;
      }
      latest.current(next);
    }, 350);
    return () => clearTimeout(t);
  }, [json, defs]);
  return null;
}

function ParamInput({ name, def, value }: { name: string; def: ReportParamDef; value: unknown }) {
  const translate = useTranslate();
  const model = useMeta();
  const lang = useLang();
  const label = paramLabelKey(name, def);
  const today = todayTashkent();
  const testId = `report-param-${name}`;
  const validate: Validator[] = def.required ? [required()] : [];
  switch (def.type) {
    case 'year': {
      const choices = yearChoices(today, value).map((y) => ({ id: y, name: String(y) }));
      return (
        <SelectInput
          fullWidth={false}
          source={name}
          label={label}
          choices={choices}
          validate={validate}
          emptyText="admin.report.all"
          translateChoice={false}
          sx={{ minWidth: 120 }}
          helperText={false}
          data-testid={testId}
        />
      );
    }
    case 'enum': {
      const choices = def.values.map((v) => ({ id: v, name: enumValueKey(name, v) ?? v }));
      return (
        <SelectInput
          fullWidth={false}
          source={name}
          label={label}
          choices={choices}
          validate={validate}
          emptyText="admin.report.all"
          sx={{ minWidth: 160 }}
          helperText={false}
          data-testid={testId}
        />
      );
    }
    case 'ref': {
      const p = refProps(def.ref, model, lang);
      if (!p) return <TextInput fullWidth={false} source={name} label={label} helperText={false} data-testid={testId} />;
      return (
        <ReferenceInput source={name} reference={p.reference} sort={p.sort} perPage={50}>
          <AutocompleteInput
            fullWidth={false}
            label={label}
            optionText={p.optionText}
            filterToQuery={p.filterToQuery}
            validate={validate}
            sx={{ width: 320, maxWidth: '100%' }}
            TextFieldProps={{ fullWidth: true }}
            helperText={false}
            data-testid={testId}
          />
        </ReferenceInput>
      );
    }
    case 'date': {
      const notFuture: Validator = (v: unknown) => (typeof v === 'string' && v > today ? translate('admin.report.future_date') : undefined);
      return (
        <DateInput
          source={name}
          label={label}
          validate={[...validate, notFuture]}
          max="today"
          sx={{ minWidth: 170 }}
          data-testid={testId}
        />
      );
    }
    case 'integer':
      return (
        <TextInput
          fullWidth={false}
          source={name}
          label={label}
          type="number"
          validate={validate}
          helperText={false}
          sx={{ width: 140 }}
          data-testid={testId}
        />
      );
    case 'string':
    default:
      return (
        <TextInput
          fullWidth={false}
          source={name}
          label={label}
          validate={validate}
          helperText={false}
          sx={{ minWidth: 220 }}
          data-testid={testId}
          resettable
        />
      );
  }
}

/**
 * The bar of a report's parameters, built from their declarations in /api/meta: a year select
 * (this year in Tashkent by default), a reference as an autocomplete over the referenced entity,
 * an enum as a select, a date (no future dates) and a text search. The URL holds the values: the
 * form follows it when it changes elsewhere (back, a drill link) and writes it on every change.
 */
export function ReportParamsBar({ defs, values, onChange }: Props) {
  const emitted = useRef<ParamValues>(values);
  const [generation, setGeneration] = useState(0);
  // the URL moved by itself: start the form again from it
  useEffect(() => {
    if (!sameParams(values, emitted.current)) {
      emitted.current = values;
      setGeneration((g) => g + 1);
    }
  }, [values]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the form starts from the URL's values once a generation, not on each change it writes itself
  const record = useMemo(() => ({ ...values }), [generation]);
  // a parameter the server fills from the user's own region (or branch, subject) is not offered
  const names = Object.keys(defs).filter((n) => (defs[n] as { fixed?: number }).fixed === undefined);
  if (!names.length) return null;
  const emit = (next: ParamValues) => {
    if (sameParams(next, emitted.current)) return;
    emitted.current = next;
    onChange(next);
  };
  return (
    <Form key={generation} record={record} mode="onChange" noValidate>
      <Box
        component="fieldset"
        sx={{
          border: 0,
          p: 0,
          m: 0,
          display: 'flex',
          flexWrap: 'wrap',
          gap: 2,
          alignItems: 'flex-start',
          '& .MuiFormControl-root': { my: 0 },
        }}
        data-testid="report-params"
      >
        {names.map((n) => (
          <ParamInput key={n} name={n} def={defs[n]} value={record[n]} />
        ))}
      </Box>
      <Emit defs={defs} onChange={emit} />
    </Form>
  );
}
