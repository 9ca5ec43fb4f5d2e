import { useState } from 'react';
import { Button, IconButton, Tooltip } from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import {
  useDelete,
  useDeleteMany,
  useListContext,
  useNotify,
  useRecordContext,
  useRedirect,
  useResourceContext,
  useTranslate,
  useUnselect,
  useUnselectAll,
} from 'react-admin';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import { request } from '../api/http';
import { errorMessage } from '../api/useFetch';
import { DeleteDialog } from './DeleteDialog';
import { consequences, deletable, shortName, typedBulk, UNDO_MS } from './deletion';
import { formatNumber } from './format';
import { useRecordName } from './RecordName';

/** The text of a refused call, translated when it is a caption key. */
function useRefusalText() {
  const translate = useTranslate();
  return (err: unknown) => {
    const m = errorMessage(err);
    return translate(m, { _: m });
  };
}

/**
 * A row's delete, in red and apart from the row's other actions (docs/decisions/0065, 0066): in a
 * list an icon named after the row ("«Chinor» qatorini oʻchirish"), on its pages a labelled button.
 * It is not offered where the server would refuse it up front (no right, a state that keeps the row,
 * a row the system needs); the dialog asks the server's dry run for the rest (a row in use). The
 * delete itself is react-admin's undoable one: the request waits a few seconds in the browser, and
 * "Undo" in the notification means it is never sent.
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
  const notify = useNotify();
  const redirect = useRedirect();
  const unselect = useUnselect(resource);
  const refusal = useRefusalText();
  const model = useMeta();
  const name = useRecordName(entity, record);
  const [open, setOpen] = useState(false);
  const [deleteOne] = useDelete();
  if (!record || !deletable(entity, record)) return null;

  const label = translate('admin.delete.row', { title: name });
  const run = async (): Promise<string | null> => {
    setOpen(false);
    await deleteOne(
      resource,
      { id: record.id, previousData: record },
      {
        mutationMode: 'undoable',
        onSuccess: () => {
          notify('admin.delete.done_one', { type: 'info', undoable: true, autoHideDuration: UNDO_MS, messageArgs: { title: name } });
          unselect([record.id], true);
          // on the row's own page there is nothing left to show
          if (variant === 'button') redirect('list', resource);
        },
        onError: (err) => {
          const m = refusal(err);
          notify(m, { type: 'error', messageArgs: { _: m } });
        },
      },
    );
    return null;
  };
  const dialog = (
    <DeleteDialog
      open={open}
      onClose={() => setOpen(false)}
      title={translate('admin.delete.title_one', { title: name })}
      confirmLabel={translate('admin.delete.confirm_one', { title: shortName(name) })}
      consequences={consequences(entity, record, undefined, (n) => model.byName.get(n)?.caption)}
      undoable
      check={async () => {
        try {
          await request(`${entity.path}/${record.id}?dryRun=1`, { method: 'DELETE' });
          return null;
        } catch (err) {
          return refusal(err);
        }
      }}
      onConfirm={run}
    />
  );
  const click = (e: React.MouseEvent) => {
    // a list row opens its record on a click: the delete is not that click
    e.stopPropagation();
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
      {/* the dialog is a portal, but its clicks bubble through React to the list row, which would open the record */}
      <span onClick={(e) => e.stopPropagation()} style={{ display: 'contents' }}>
        {dialog}
      </span>
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
