import { lazy, Suspense } from 'react';
import type { DatePickerFieldProps } from './DatePickerField';
import { PickerLoading } from './PickerLoading';

const Field = lazy(() => import('./DatePickerField'));

/**
 * A date outside react-admin's forms (a dialog's own fields, a form of data's date), controlled by
 * `value` (`YYYY-MM-DD`) and `onChange`: the same picker as DateInput.tsx (docs/decisions/0085).
 */
export function DateValueInput(props: DatePickerFieldProps) {
  return (
    <Suspense fallback={<PickerLoading label={props.label} sx={props.sx} />}>
      <Field {...props} />
    </Suspense>
  );
}
