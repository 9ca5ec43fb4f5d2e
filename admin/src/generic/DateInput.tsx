import { lazy, Suspense } from 'react';
import type { DatePickerInputProps } from './DatePickerInput';
import { PickerLoading } from './PickerLoading';

/** MUI X comes with the first date a screen shows: a list without one, and the sign-in screen, carry none of it. */
const Picker = lazy(() => import('./DatePickerInput'));

/**
 * A date of a react-admin form, filter or report bar (docs/decisions/0085): `YYYY-MM-DD` in the
 * form and DD.MM.YYYY on screen; with `time`, a moment — ISO with +05:00 in the form, DD.MM.YYYY
 * HH:mm on Tashkent's clock on screen. The picker (DatePickerInput.tsx) is a chunk of its own.
 */
export function DateInput(props: DatePickerInputProps) {
  return (
    <Suspense fallback={<PickerLoading label={props.label} sx={props.sx} />}>
      <Picker {...props} />
    </Suspense>
  );
}
