import {
  Alert,
  Box,
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { i18n } from '../i18n';
import { formatNumber } from './format';

/**
 * An import's refusal shown by row (docs/payments-import.md, docs/reference-books.md): the
 * statement's import and the entities' generic import both list the errors the server answered —
 * the synchronous 400's or a failed job's, in the same shape: `errors` keyed `rows.<n>.<field>`
 * (the first hundred), `error_count` and `error_rows` for all of them.
 */
export interface RowError {
  row: number | null;
  field: string;
  message: string;
}

/** How many errors a refused import had in all (`error_count`, `error_rows`), when its answer lists only the first of them. */
export interface ErrorTotals {
  count: number;
  rows: number;
}

/** A refusal to show: its message, its rows' errors, their totals. */
export interface ImportFailure {
  title: string;
  errors: RowError[];
  totals?: ErrorTotals;
}

/** `{"rows.5.amount": "…"}` → rows in order of row and column (`order` ranks a field; by name otherwise); keys of another shape come first. */
export function rowErrors(errors: Record<string, unknown>, order: (field: string) => string = (f) => f): RowError[] {
  const out: RowError[] = [];
  for (const [k, v] of Object.entries(errors)) {
    if (k === 'root') continue;
    const m = /^rows\.(\d+)\.(.+)$/.exec(k);
    out.push({ row: m ? Number(m[1]) : null, field: m ? m[2] : k, message: String(v) });
  }
  return out.sort((a, b) => (a.row ?? -1) - (b.row ?? -1) || order(a.field).localeCompare(order(b.field)));
}

/** A refusal as the server answered it (a 400's body or a failed job's `error`), or undefined when it names no row or column. */
export function importFailure(
  message: string,
  body: { errors?: Record<string, unknown>; error_count?: number; error_rows?: number; count?: number } | undefined,
  order?: (field: string) => string,
): ImportFailure | undefined {
  const errors = body?.errors;
  if (!errors || !Object.keys(errors).some((k) => k !== 'root')) return undefined;
  const count = body.error_count ?? body.count;
  return {
    title: message,
    errors: rowErrors(errors, order),
    totals: typeof count === 'number' ? { count, rows: body.error_rows ?? 0 } : undefined,
  };
}

/**
 * The errors' dialog: row, column (its letter where the file's layout is fixed), the field's caption
 * and the message; a note when only the first of them are listed.
 */
export function ImportErrorsDialog({
  heading,
  failure,
  column,
  caption,
  onClose,
}: {
  heading: string;
  failure: ImportFailure;
  column?: (field: string) => string | undefined;
  caption?: (field: string) => string;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const { title, errors, totals } = failure;
  const fieldCaption = caption ?? ((f: string) => (i18n.exists(`fields.${f}`) ? translate(`fields.${f}`) : f));
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" data-testid="import-errors">
      <DialogTitle>{translate(heading)}</DialogTitle>
      <DialogContent dividers>
        <Alert severity="error" sx={{ mb: 2 }}>
          {title}
        </Alert>
        {totals && totals.count > errors.length && (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="import-errors-more">
            {translate('admin.import.more', {
              shown: formatNumber(errors.length, 0),
              count: formatNumber(totals.count, 0),
              rows: formatNumber(totals.rows, 0),
            })}
          </Alert>
        )}
        <Box sx={{ maxHeight: 420, overflow: 'auto' }}>
          <Table size="small" stickyHeader>
            <TableHead>
              <TableRow>
                <TableCell>{translate('admin.import.row')}</TableCell>
                {column && <TableCell>{translate('admin.import.column')}</TableCell>}
                <TableCell>{translate('admin.import.field')}</TableCell>
                <TableCell>{translate('admin.import.error')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {errors.map((e, i) => (
                <TableRow key={i} data-testid="import-error-row">
                  <TableCell>{e.row ?? '—'}</TableCell>
                  {column && <TableCell>{column(e.field) ?? '—'}</TableCell>}
                  <TableCell>{fieldCaption(e.field)}</TableCell>
                  <TableCell>{e.message}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>{translate('ra.action.close')}</MuiButton>
      </DialogActions>
    </Dialog>
  );
}
