import { useState } from 'react';
import { Button, IconButton, Tooltip } from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { useDeleteMany, useListContext, useNotify, useRecordContext, useResourceContext, useTranslate, useUnselectAll } from 'react-admin';
import type { EntityMeta } from '../meta/types';
import { request } from '../api/http';
import { DeleteDialog } from './DeleteDialog';
import { DeleteRecordDialog } from './DeleteRecordDialog';
import { deletable, typedBulk, UNDO_MS } from './deletion';
import { formatNumber } from './format';
import { useRecordName } from './RecordName';
import { useRefusalText } from './useRefusalText';

/**
 * A row's delete, in red and apart from the row's other actions (docs/decisions/0065, 0066): in a
 * list an icon named after the row ("«Chinor» qatorini oʻchirish"), on its pages a labelled button.
 * It is not offered where the server would refuse it up front (no right, a state that keeps the row,
 * a row the system needs); the dialog asks the server's dry run for the rest (a row in use). The
 * delete itself is react-admin's undoable one: the request waits a few seconds in the browser, and
 * "Undo" in the notification means it is never sent. The dialog with the delete's hooks
 * (DeleteRecordDialog) is mounted at the button's first press: a list draws a button a row, and
 * each row drew its closed dialog, a mutation observer and the delete's hooks for nothing.
 */
export function DeleteRecordButton({
  entity,
  resource: given,
  variant,
}: {
  entity: EntityMeta;
  resource?: string;
  variant: 'icon' | 'button';
}) {
  const record = useRecordContext();
  const contextResource = useResourceContext();
  const resource = given ?? contextResource!;
  const translate = useTranslate();
  const name = useRecordName(entity, record);
  const [open, setOpen] = useState(false);
  const [armed, setArmed] = useState(false);
  if (!record || !deletable(entity, record)) return null;

  const label = translate('admin.delete.row', { title: name });
  const click = (e: React.MouseEvent) => {
    // a list row opens its record on a click: the delete is not that click
    e.stopPropagation();
    setArmed(true);
    setOpen(true);
  };
  return (
    <>
      {variant === 'icon' ? (
        <Tooltip title={label}>
          <IconButton color="error" size="small" aria-label={label} onClick={click} data-testid="row-delete">
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : (
        <Button color="error" variant="outlined" startIcon={<DeleteIcon />} onClick={click} aria-label={label} data-testid="record-delete">
          {translate('ra.action.delete')}
        </Button>
      )}
      {armed && (
        <DeleteRecordDialog
          entity={entity}
          resource={resource}
          record={record}
          name={name}
          redirectToList={variant === 'button'}
          open={open}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

/**
 * The selected rows' delete, in red at the end of the bulk actions: the dialog says how many, asks
 * the server's dry run first, and past ten rows asks for the count typed; undoable as a row's.
 */
export function BulkDeleteRecordsButton({ entity }: { entity: EntityMeta }) {
  const { selectedIds, resource } = useListContext();
  const translate = useTranslate();
  const notify = useNotify();
  const unselectAll = useUnselectAll(resource);
  const refusal = useRefusalText();
  const [open, setOpen] = useState(false);
  const [deleteMany] = useDeleteMany();
  const count = selectedIds.length;
  const n = formatNumber(count, 0);
  const run = async (): Promise<string | null> => {
    setOpen(false);
    const ids = [...selectedIds];
    await deleteMany(
      resource,
      { ids },
      {
        mutationMode: 'undoable',
        onSuccess: () => {
          notify('admin.delete.done_many', { type: 'info', undoable: true, autoHideDuration: UNDO_MS, messageArgs: { count: n } });
          unselectAll();
        },
        onError: (err) => {
          const m = refusal(err);
          notify(m, { type: 'error', messageArgs: { _: m } });
        },
      },
    );
    return null;
  };
  return (
    <>
      <Button
        color="error"
        variant="outlined"
        size="small"
        startIcon={<DeleteIcon />}
        onClick={() => setOpen(true)}
        sx={{ ml: 'auto' }}
        data-testid="bulk-delete"
      >
        {translate('ra.action.delete')}
      </Button>
      <DeleteDialog
        open={open}
        onClose={() => setOpen(false)}
        title={translate('admin.delete.title_many', { count: n })}
        confirmLabel={translate('admin.delete.confirm_many', { count: n })}
        consequences={[]}
        undoable
        typed={
          typedBulk(count) ? { expected: String(count), prompt: translate('admin.delete.type_count', { count: String(count) }) } : undefined
        }
        check={async () => {
          try {
            await request(`${entity.path}/delete-many?dryRun=1`, { method: 'POST', body: { ids: selectedIds } });
            return null;
          } catch (err) {
            return refusal(err);
          }
        }}
        onConfirm={run}
      />
    </>
  );
}
