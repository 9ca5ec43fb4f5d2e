import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { SxProps, Theme } from '@mui/material';
import dayjs, { type Dayjs } from 'dayjs';
import { DesktopDatePicker } from '@mui/x-date-pickers/DesktopDatePicker';
import { DesktopDateTimePicker } from '@mui/x-date-pickers/DesktopDateTimePicker';
import { PARTIAL_DATE, valueOfWall, wallOf } from './pickerValue';

/**
 * The back-office's date and date-time picker (docs/decisions/0085): MUI X's picker in the language
 * shown (generic/DatesProvider.tsx gives the names and texts), showing DD.MM.YYYY (and HH:mm, on
 * Tashkent's clock), typed by keyboard section by section, with a calendar behind its button. The
 * form holds what the API takes: `YYYY-MM-DD`, a moment as ISO with `+05:00`, null when empty.
 *
 * The desktop variant everywhere: its field is typed into on a phone too (the mobile variant's is
 * read-only), and its calendar opens from the button.
 *
 * A chunk of its own with MUI X, loaded by DateInput.tsx (react-admin's forms, through
 * DatePickerInput.tsx) and DateValueInput.tsx (a dialog's own fields) the first time a date is shown.
 */

export interface DatePickerFieldProps {
  /** the form's value: `YYYY-MM-DD`, an ISO moment, null or '' */
  value: unknown;
  onChange: (value: string | null) => void;
  onBlur?: () => void;
  /** a moment (DD.MM.YYYY HH:mm) rather than a day */
  time?: boolean;
  /** the last day offered, `YYYY-MM-DD` */
  max?: string;
  label?: ReactNode;
  name?: string;
  id?: string;
  error?: boolean;
  helperText?: ReactNode;
  /** the label's mark of a required field (a react-admin label marks it itself) */
  required?: boolean;
  /** a button that empties the field (not for a required one) */
  clearable?: boolean;
  disabled?: boolean;
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
  className?: string;
  /**
   * What a field typed only in part gives the form: `mark` a value its validator refuses (a form
   * says the date is not complete), `null` nothing (a filter waits for the whole date)
   */
  partial?: 'mark' | 'null';
  testId?: string;
}

const toDayjs = (value: unknown, time: boolean): Dayjs | null => {
  const wall = wallOf(value, time);
  return wall ? dayjs(wall) : null;
};

/** A controlled picker over the form's value, for inputs outside react-admin's forms. */
export function DatePickerField({
  value,
  onChange,
  onBlur,
  time = false,
  max,
  label,
  name,
  id,
  error,
  helperText,
  required,
  clearable = !required,
  disabled,
  fullWidth,
  sx,
  className,
  partial = 'mark',
  testId,
}: DatePickerFieldProps) {
  const [shown, setShown] = useState<Dayjs | null>(() => toDayjs(value, time));
  // the last value this picker gave the form: a value coming back is its own, one that differs came from elsewhere (a reset, a link)
  const given = useRef<unknown>(value);
  useEffect(() => {
    if (sameValue(value, given.current)) return;
    given.current = value;
    setShown(toDayjs(value, time));
  }, [value, time]);

  const give = (next: string | null) => {
    if (sameValue(next, given.current)) return;
    given.current = next;
    onChange(next);
  };
  const change = (d: Dayjs | null) => {
    setShown(d);
    give(!d ? null : d.isValid() ? valueOfWall(d.format('YYYY-MM-DDTHH:mm:ss'), time) : partial === 'mark' ? PARTIAL_DATE : null);
  };
  // MUI keeps a date typed in part to itself (its value stays empty until every section is typed):
  // leaving the field, what its sections show says whether something was typed that is not a date
  const sections = useRef<HTMLInputElement>(null);
  const leave = () => {
    const typed = /\d/.test(sections.current?.value ?? '');
    if (!shown || !shown.isValid()) give(typed && partial === 'mark' ? PARTIAL_DATE : null);
    onBlur?.();
  };

  const common = {
    value: shown,
    onChange: change,
    onClose: onBlur,
    label,
    name,
    disabled,
    maxDate: max ? dayjs(max) : undefined,
    sx,
    slotProps: {
      textField: {
        id,
        className,
        size: 'small' as const,
        required,
        fullWidth,
        helperText,
        onBlur: leave,
        inputRef: sections,
        // MUI's own checks (past the last day, typed in part) show when the form has nothing to say
        ...(error ? { error: true } : {}),
        ...(testId ? { 'data-testid': testId } : {}),
      },
      field: { clearable: clearable && !disabled },
    },
  };
  return time ? (
    <DesktopDateTimePicker {...common} format="DD.MM.YYYY HH:mm" ampm={false} />
  ) : (
    <DesktopDatePicker {...common} format="DD.MM.YYYY" />
  );
}

const sameValue = (a: unknown, b: unknown) => (a ?? '') === (b ?? '');

export default DatePickerField;
