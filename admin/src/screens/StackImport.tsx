import { useCallback } from 'react';
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
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import type { Job } from '../api/jobs';
import { formatNumber } from '../generic/format';
import { ImportButton } from '../generic/ImportButton';

/** The statement's columns (docs/payments-import.md), to point at the cell of an error. */
const COLUMN: Record<string, string> = {
  paid_on: 'A',
  number: 'B',
  amount: 'C',
  payer: 'D',
  payer_inn: 'E',
  payer_account: 'F',
  purpose: 'G',
  income_code: 'H',
  payment_type: 'I',
};
const column = (field: string): string | undefined => COLUMN[field];
const order = (field: string): string => COLUMN[field] ?? field;

/** What the server answers for a previewed statement (docs/payments-import.md). */
interface StatementPreview {
  token: string;
  rows: number;
  total_amount: string;
  attach_payments: number;
  attach_subjects: number;
  unknown_payments: number;
  can_attach: boolean;
  payers: { subject_id: number; inn: string; name: string; payments: number; amount: string }[];
}

/** The preview's dialog: the counts, the subjects the payments will be attached to, confirm or cancel. */
function PreviewDialog({ preview, onConfirm, onCancel }: { preview: StatementPreview; onConfirm: () => void; onCancel: () => void }) {
  const translate = useTranslate();
  // a phone's screen: the whole of it (the payers' table scrolls sideways)
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const figure = (label: string, value: string, id: string) => (
    <Box sx={{ minWidth: 140 }}>
      <Typography variant="caption" color="text.secondary">
        {translate(label)}
      </Typography>
      <Typography variant="h6" data-testid={id}>
        {value}
      </Typography>
    </Box>
  );
  return (
    <Dialog open onClose={onCancel} fullWidth fullScreen={phone} maxWidth="md" data-testid="import-preview">
      <DialogTitle>{translate('admin.import.preview_title')}</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, mb: 2 }}>
          {figure('admin.import.preview_rows', formatNumber(preview.rows, 0), 'import-preview-rows')}
          {figure('admin.import.preview_total', formatNumber(preview.total_amount, 2), 'import-preview-total')}
          {figure('admin.import.preview_known', formatNumber(preview.attach_subjects, 0), 'import-preview-known')}
          {figure('admin.import.preview_unknown', formatNumber(preview.unknown_payments, 0), 'import-preview-unknown')}
        </Box>
        {preview.can_attach ? (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="import-preview-attach">
            {translate('admin.import.preview_attach', {
              payments: formatNumber(preview.attach_payments, 0),
              subjects: formatNumber(preview.attach_subjects, 0),
            })}
          </Alert>
        ) : (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {translate('admin.import.preview_no_attach')}
          </Alert>
        )}
        {preview.payers.length > 0 && (
          <Box sx={{ maxHeight: 360, overflow: 'auto' }}>
            <Table size="small" stickyHeader>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('admin.import.preview_subject')}</TableCell>
                  <TableCell>{translate('admin.import.preview_inn')}</TableCell>
                  <TableCell align="right">{translate('admin.import.preview_payments')}</TableCell>
                  <TableCell align="right">{translate('admin.import.preview_amount')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {preview.payers.map((p) => (
                  <TableRow key={p.subject_id} data-testid="import-preview-payer">
                    <TableCell>{p.name}</TableCell>
                    <TableCell>{p.inn}</TableCell>
                    <TableCell align="right">{formatNumber(p.payments, 0)}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {formatNumber(p.amount, 2)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
        {preview.attach_subjects > preview.payers.length && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('admin.import.preview_more', {
              shown: formatNumber(preview.payers.length, 0),
              count: formatNumber(preview.attach_subjects, 0),
            })}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onCancel} data-testid="import-preview-cancel">
          {translate('admin.import.preview_cancel')}
        </MuiButton>
        <MuiButton variant="contained" onClick={onConfirm} data-testid="import-preview-confirm">
          {translate('admin.import.preview_confirm')}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

/**
 * "Import statement (.xlsx)" on a payment stack's page: the chosen file is first previewed —
 * `POST …/stack-payments/:id/import?background=1&preview=1`, a background job that reads, checks
 * and writes it in a transaction rolled back — and what the import would do is shown (payments,
 * total, known and unknown payers, the subjects they will be attached to). Confirmed, the same file
 * is posted with the preview's token (`?background=1&expect=…`: refused if the import would now write
 * otherwise) and imported by a background job; cancelled, nothing is written. Both jobs' progress
 * bars (percent, cancel) show beside the button (generic/ImportButton.tsx). A refused file lists its
 * errors by row and column; an accepted one says how many payments came in and how many were
 * attached to subjects by the payer's INN, and opens the stack's payments.
 */
export function StackImportButton({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const model = useMeta();
  const notify = useNotify();
  const refresh = useRefresh();
  const navigate = useNavigate();
  const payments = model.byName.get('payments');
  const id = record?.id;
  const done = useCallback(
    (job: Job) => {
      const r = (job.result ?? {}) as { imported?: number; attached?: number; total_amount?: string };
      notify('admin.import.done', {
        type: 'success',
        messageArgs: {
          imported: formatNumber(r.imported ?? 0, 0),
          attached: formatNumber(r.attached ?? 0, 0),
          total: formatNumber(r.total_amount ?? '0', 2),
        },
      });
      const route = model.routes.find(
        (x) =>
          x.kind === 'param-list' &&
          x.allowed &&
          x.entity === 'payments' &&
          Object.values(x.filter ?? {}).length === 1 &&
          payments?.fields.some((f) => f.name === Object.keys(x.filter!)[0] && f.ref === entity.name),
      );
      refresh();
      if (route) navigate(`/${route.path.replace(`:${route.params[0]}`, String(id))}`);
    },
    [notify, model, payments, entity.name, refresh, navigate, id],
  );
  const base = `${entity.path}/${record?.id}/import?background=1`;
  const preview = {
    url: `${base}&preview=1`,
    confirmUrl: (r: Record<string, unknown>) => `${base}&expect=${encodeURIComponent(String(r.token))}`,
    render: (r: Record<string, unknown>, confirm: () => void, cancel: () => void) => (
      <PreviewDialog
        preview={r as unknown as StatementPreview}
        onConfirm={confirm}
        onCancel={() => {
          cancel();
          notify('admin.import.preview_cancelled', { type: 'info' });
        }}
      />
    ),
  };
  if (!record || !entity.can.update || !payments?.can.create) return null;
  return (
    <ImportButton
      url={base}
      preview={preview}
      label="admin.import.button"
      testId="import-statement"
      heading="admin.import.errors_title"
      column={column}
      order={order}
      onDone={done}
    />
  );
}
