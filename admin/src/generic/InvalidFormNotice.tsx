import { useEffect, useRef } from 'react';
import { useFormState, type FieldErrors } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { hasMissingRequired } from './formErrors';

/**
 * The summary notification of a form sent with errors (instead of react-admin's own): the spec's
 * "Enter the data fully" when a required part is missing, "check the marked fields" for other
 * mistakes, the server's message for its refusals. The field errors stay beside their inputs.
 * Inside a form whose own notification is off (`disableInvalidFormNotification`).
 */
export function InvalidFormNotice() {
  const { submitCount, errors } = useFormState();
  const seen = useRef(submitCount);
  const notify = useNotify();
  useEffect(() => {
    if (submitCount <= seen.current) return;
    seen.current = submitCount;
    if (!Object.keys(errors).length) return;
    const server = typeof errors.root?.serverError?.message === 'string' ? errors.root.serverError.message : undefined;
    notify(server || (hasMissingRequired(errors as FieldErrors) ? 'validation.fill_fully' : 'ra.message.invalid_form'), { type: 'error' });
  }, [errors, submitCount, notify]);
  return null;
}
