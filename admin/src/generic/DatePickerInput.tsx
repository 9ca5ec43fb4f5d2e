import type { ReactElement, ReactNode } from 'react';
import type { SxProps, Theme } from '@mui/material';
import { FieldTitle, InputHelperText, useInput, type Validator } from 'react-admin';
import { DatePickerField } from './DatePickerField';
import { PARTIAL_DATE } from './pickerValue';
import { todayTashkent } from './format';

/**
 * The engine's date input (docs/decisions/0085): the picker of DatePickerField.tsx bound to
 * react-admin's form with `useInput` — every date and date-time of the generated forms, the lists'
 * filters and the reports' bars (through DateInput.tsx, which loads it lazily). Its label and
 * messages are react-admin's (the field's caption, the validators' texts); a date typed in part is
 * refused with `admin.picker.partial` in a form and is no filter at all in a filter (`partial="null"`).
 */
export interface DatePickerInputProps {
  source: string;
  label?: ReactNode;
  validate?: Validator | Validator[];
  defaultValue?: unknown;
  helperText?: ReactNode | false;
  resource?: string;
  disabled?: boolean;
  time?: boolean;
  /** the last day offered: `today` (Tashkent's) or `YYYY-MM-DD` */
  max?: string;
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
  partial?: 'mark' | 'null';
  /** read by react-admin's filter form from the element; nothing to do here */
  alwaysOn?: boolean;
  'data-testid'?: string;
}

const refusePartial: Validator = (v: unknown) => (v === PARTIAL_DATE ? 'admin.picker.partial' : undefined);

/** The picker bound to react-admin's form (`useInput`): every date and date-time of the generated forms, filters and report bars. */
export function DatePickerInput({
  source,
  label,
  validate,
  defaultValue,
  helperText,
  resource,
  disabled,
  time,
  max,
  fullWidth,
  sx,
  partial = 'mark',
  'data-testid': testId,
}: DatePickerInputProps) {
  const own = validate === undefined ? [] : Array.isArray(validate) ? validate : [validate];
  const { field, fieldState, id, isRequired } = useInput({
    source,
    resource,
    defaultValue,
    disabled,
    validate: partial === 'mark' ? [refusePartial, ...own] : own,
    // the form keeps null for an empty date (react-admin's default would make it '')
    format: (v: unknown) => v ?? null,
    parse: (v: unknown) => v ?? null,
  });
  const { error, invalid } = fieldState;
  return (
    <DatePickerField
      value={field.value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      time={time}
      max={max === 'today' ? todayTashkent() : max}
      name={field.name}
      id={id}
      disabled={disabled}
      fullWidth={fullWidth}
      sx={sx}
      // as react-admin's own inputs: the browser tests find an input's messages by its class
      className={`ra-input ra-input-${source}`}
      partial={partial}
      testId={testId}
      clearable={!isRequired}
      error={invalid}
      label={
        label === false || label === '' ? undefined : (
          <FieldTitle label={label as string | ReactElement} source={source} resource={resource} isRequired={isRequired} />
        )
      }
      helperText={helperText !== false || invalid ? <InputHelperText error={error?.message} helperText={helperText} /> : undefined}
    />
  );
}

export default DatePickerInput;
