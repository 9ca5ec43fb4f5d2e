import { useRef, useState } from 'react';
import {
  Alert, Box, Button as MuiButton, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableHead,
  TableRow,
} from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, HttpError, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { LONG_TIMEOUT, request } from '../api/http';
import { errorMessage } from '../api/useFetch';
import { i18n } from '../i18n';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import { formatNumber } from '../generic/format';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The statement's columns (docs/payments-import.md), to point at the cell of an error. */
const COLUMN: Record<string, string> = {
  paid_on: 'A', number: 'B', amount: 'C', payer: 'D', payer_inn: 'E', payer_account: 'F', purpose: 'G', income_code: 'H', payment_type: 'I',
};

export interface RowError { row: number | null; field: string; message: string }

/** `{"rows.5.amount": "…"}` → rows in order of row and column; keys of another shape come first. */
export function rowErrors(errors: Record<string, unknown>): RowError[] {
  const out: RowError[] = [];
  for (const [k, v] of Object.entries(errors)) {
    if (k === 'root') continue;
    const m = /^rows\.(\d+)\.(.+)$/.exec(k);
    out.push({ row: m ? Number(m[1]) : null, field: m ? m[2] : k, message: String(v) });
  }
  return out.sort((a, b) => (a.row ?? -1) - (b.row ?? -1) || (COLUMN[a.field] ?? a.field).localeCompare(COLUMN[b.field] ?? b.field));
}

/** How many errors a refused import had in all (`error_count`, `error_rows`), when its answer lists only the first of them. */
export interface ErrorTotals { count: number; rows: number }

function ErrorsDialog({ title, errors, totals, onClose }: { title: string; errors: RowError[]; totals?: ErrorTotals; onClose: () => void }) {
  const translate = useTranslate();
  const caption = (f: string) => (i18n.exists(`fields.${f}`) ? translate(`fields.${f}`) : f);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" data-testid="import-errors">
      <DialogTitle>{translate('admin.import.errors_title')}</DialogTitle>
      <DialogContent dividers>
        <Alert severity="error" sx={{ mb: 2 }}>{title}</Alert>
        {totals && totals.count > errors.length && (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="import-errors-more">
            {translate('admin.import.more', { shown: formatNumber(errors.length, 0), count: formatNumber(totals.count, 0), rows: formatNumber(totals.rows, 0) })}
          </Alert>
        )}
        <Box sx={{ maxHeight: 420, overflow: 'auto' }}>
          <Table size="small" stickyHeader>
            <TableHead>
              <TableRow>
                <TableCell>{translate('admin.import.row')}</TableCell>
                <TableCell>{translate('admin.import.column')}</TableCell>
                <TableCell>{translate('admin.import.field')}</TableCell>
                <TableCell>{translate('admin.import.error')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {errors.map((e, i) => (
                <TableRow key={i} data-testid="import-error-row">
                  <TableCell>{e.row ?? '—'}</TableCell>
                  <TableCell>{COLUMN[e.field] ?? '—'}</TableCell>
                  <TableCell>{caption(e.field)}</TableCell>
                  <TableCell>{e.message}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </DialogContent>
      <DialogActions><MuiButton onClick={onClose}>{translate('ra.action.close')}</MuiButton></DialogActions>
    </Dialog>
  );
}

/**
 * "Import statement (.xlsx)" on a payment stack's page: the chosen file is the body of
 * `POST …/stack-payments/:id/import` (120 s). A refused file lists its errors by row and column;
 * an accepted one says how many payments came in and how many were attached to subjects by the
 * payer's INN, and opens the stack's payments.
 */
export function StackImportButton({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const model = useMeta();
  const notify = useNotify();
  const refresh = useRefresh();
  const navigate = useNavigate();
  const translate = useTranslate();
  const picker = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ title: string; errors: RowError[]; totals?: ErrorTotals } | null>(null);
  const payments = model.byName.get('payments');
  if (!record || !entity.can.update || !payments?.can.create) return null;

  const send = async (file: File | undefined) => {
    if (picker.current) picker.current.value = '';
    if (!file) return;
    setBusy(true);
    try {
      const res = await request(`${entity.path}/${record.id}/import`, { method: 'POST', body: file, timeout: LONG_TIMEOUT, headers: { 'Content-Type': XLSX } });
      const r = (await res.json()) as { imported: number; attached: number; total_amount: string };
      notify('admin.import.done', { type: 'success', messageArgs: { imported: formatNumber(r.imported, 0), attached: formatNumber(r.attached, 0), total: formatNumber(r.total_amount, 2) } });
      const route = model.routes.find((x) => x.kind === 'param-list' && x.allowed && x.entity === 'payments' && Object.values(x.filter ?? {}).length === 1
        && payments.fields.some((f) => f.name === Object.keys(x.filter!)[0] && f.ref === entity.name));
      refresh();
      if (route) navigate(`/${route.path.replace(`:${route.params[0]}`, String(record.id))}`);
    } catch (err) {
      const message = errorMessage(err);
      const errors = err instanceof HttpError ? (err.body?.errors as Record<string, unknown> | undefined) : undefined;
      const body = err instanceof HttpError ? (err.body as { error_count?: number; error_rows?: number } | undefined) : undefined;
      const totals = typeof body?.error_count === 'number' ? { count: body.error_count, rows: body.error_rows ?? 0 } : undefined;
      if (errors && Object.keys(errors).some((k) => k !== 'root')) setFailure({ title: message, errors: rowErrors(errors), totals });
      else notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button label="admin.import.button" onClick={() => picker.current?.click()} disabled={busy} data-testid="import-statement">
        {busy ? <CircularProgress size={16} /> : <UploadFileIcon />}
      </Button>
      <input ref={picker} type="file" hidden accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" onChange={(e) => void send(e.target.files?.[0])} data-testid="import-file" />
      {failure && <ErrorsDialog title={failure.title} errors={failure.errors} totals={failure.totals} onClose={() => setFailure(null)} />}
      {busy && <span aria-live="polite" style={{ position: 'absolute', left: -9999 }}>{translate('admin.import.running')}</span>}
    </>
  );
}
