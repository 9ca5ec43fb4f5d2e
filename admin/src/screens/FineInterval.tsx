import { Alert } from '@mui/material';
import { useGetOne, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useMeta } from '../meta/store';

/** "5", "10.5": a multiple as the fine book stores it, without trailing zeros. */
const multiple = (v: unknown) =>
  String(v ?? '')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');

/**
 * Under an offence's or a protocol's fine article (spec §5: "Fine warning shows an interval of
 * minimum-wage multiples for the chosen article, part or item"): as soon as the article is chosen,
 * its interval from the fine book (`min_multiple` – `max_multiple`, read from the API), and a
 * warning when the multiple typed is outside it — the same rule the server applies on saving
 * (api/domain/fines.ts `checkFineMultiple`), said before it is refused.
 */
export function FineInterval() {
  const translate = useTranslate();
  const model = useMeta();
  const fineId = useWatch({ name: 'fine_id' }) as number | null | undefined;
  const typed = useWatch({ name: 'fine_multiple' }) as string | number | null | undefined;
  const resource = model.resourceOf('fine');
  const { data, error } = useGetOne(resource ?? '-', { id: fineId ?? 0 }, { enabled: !!resource && !!fineId });
  if (!fineId || error || !data) return null;
  const min = multiple(data.min_multiple);
  const max = multiple(data.max_multiple);
  const n = typed === null || typed === undefined || typed === '' ? null : Number(typed);
  const outside = n !== null && Number.isFinite(n) && (n < Number(data.min_multiple) || n > Number(data.max_multiple));
  return (
    <Alert
      severity={outside ? 'warning' : 'info'}
      role="status"
      aria-live="polite"
      data-testid="fine-interval"
      data-outside={outside ? 'true' : 'false'}
      sx={{ mt: -1, mb: 2, maxWidth: 960 }}
    >
      {translate(min === max ? 'admin.fine.fixed' : 'admin.fine.interval', { min, max })}
      {outside ? ` ${translate('admin.fine.outside', { value: multiple(typed) })}` : ''}
    </Alert>
  );
}
