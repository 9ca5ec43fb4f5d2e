import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';

/**
 * Under a subject's INN on its form, until one is typed: the spec's prompt (§5) "fill the reference
 * form before adding or searching a subject" — the same words the subjects list's INN search says
 * when searched empty (InnSearch).
 */
export function SubjectInnHint() {
  const translate = useTranslate();
  const inn = useWatch({ name: 'inn' }) as string | null | undefined;
  if (inn) return null;
  return (
    <Typography role="note" variant="body2" color="text.secondary" data-testid="subject-fill-first" sx={{ mt: -1, mb: 2, maxWidth: 960 }}>
      {translate('admin.subject.fill_first')}
    </Typography>
  );
}
