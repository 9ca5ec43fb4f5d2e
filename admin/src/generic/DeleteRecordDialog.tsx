import { useDelete, useNotify, useRedirect, useTranslate, useUnselect, type RaRecord } from 'react-admin';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import { request } from '../api/http';
import { DeleteDialog } from './DeleteDialog';
import { consequences, shortName, UNDO_MS } from './deletion';
import { useRefusalText } from './useRefusalText';

/**
 * A row's delete dialog and the delete itself (DeleteRecordButton): react-admin's undoable delete,
 * the server's dry run asked first. Mounted by the button at its first press and kept, so that the
 * delete's notification and undo outlive the dialog's closing.
 */
export function DeleteRecordDialog({
  entity,
  resource,
  record,
  name,
  redirectToList,
  open,
  onClose,
}: {
  entity: EntityMeta;
  resource: string;
  record: RaRecord;
  name: string;
  /** on the row's own page there is nothing left to show after the delete */
  redirectToList: boolean;
  open: boolean;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const unselect = useUnselect(resource);
  const refusal = useRefusalText();
  const model = useMeta();
  const [deleteOne] = useDelete();

  const run = async (): Promise<string | null> => {
    onClose();
    await deleteOne(
      resource,
      { id: record.id, previousData: record },
      {
        mutationMode: 'undoable',
        onSuccess: () => {
          notify('admin.delete.done_one', { type: 'info', undoable: true, autoHideDuration: UNDO_MS, messageArgs: { title: name } });
          unselect([record.id], true);
          if (redirectToList) redirect('list', resource);
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
    // the dialog is a portal, but its clicks bubble through React to the list row, which would open the record
    <span onClick={(e) => e.stopPropagation()} style={{ display: 'contents' }}>
      <DeleteDialog
        open={open}
        onClose={onClose}
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
    </span>
  );
}
