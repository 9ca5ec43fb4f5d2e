import { useCallback } from 'react';
import { useNotify, useRecordContext, useRefresh } from 'react-admin';
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

/**
 * "Import statement (.xlsx)" on a payment stack's page: the chosen file is posted to
 * `POST …/stack-payments/:id/import?background=1` and imported by a background job, whose progress
 * bar (percent, cancel) shows beside the button (generic/ImportButton.tsx). A refused file lists its
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
  if (!record || !entity.can.update || !payments?.can.create) return null;
  return (
    <ImportButton
      url={`${entity.path}/${record.id}/import?background=1`}
      label="admin.import.button"
      testId="import-statement"
      heading="admin.import.errors_title"
      column={column}
      order={order}
      onDone={done}
    />
  );
}
