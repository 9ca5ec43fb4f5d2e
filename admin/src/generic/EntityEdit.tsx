import { useCallback, useState } from 'react';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import {
  Button,
  Edit,
  SimpleForm,
  Toolbar,
  TopToolbar,
  useNotify,
  useRecordContext,
  useResourceContext,
  type HttpError,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import { useEntity } from './useEntity';
import { FormBody } from './FormBody';
import { RecordPageTitle } from './RecordPageTitle';
import { RouteLinks } from './RouteLinks';
import { DangerActions, WorkflowButtons } from './WorkflowButtons';
import { DeleteRecordButton } from './DeleteButtons';
import { FormSaveButton } from './FormSaveButton';
import { InvalidFormNotice } from './InvalidFormNotice';
import { ConflictPanel } from './ConflictPanel';
import { conflictOf, resolved, type Choice, type Conflict } from './conflict';

/**
 * A row's form, with its workflow buttons and links above it. A save refused because someone else
 * changed the row meanwhile (409 with `current` and `differs`) keeps the form as the user left it
 * and shows both versions of each differing field above it (ConflictPanel); the next save carries
 * the user's choices and the row's version now (decision 0077).
 */
export function EntityEdit() {
  const e = useEntity();
  const notify = useNotify();
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [choices, setChoices] = useState<Record<string, Choice | undefined>>({});
  const onChoose = useCallback((k: string, c: Choice) => setChoices((x) => ({ ...x, [k]: c })), []);
  const onError = useCallback(
    (error: unknown) => {
      const c = conflictOf(error);
      if (c) {
        setConflict(c);
        notify('admin.conflict.conflict_title', { type: 'warning' });
        return;
      }
      // as react-admin does without an onError: field errors are said by the form (InvalidFormNotice)
      const err = error as HttpError;
      if (err?.body?.errors && Object.keys(err.body.errors).length) return;
      const message = typeof error === 'string' ? error : err?.message || 'ra.notification.http_error';
      notify(message, { type: 'error', messageArgs: { _: message } });
    },
    [notify],
  );
  return (
    <Edit
      mutationMode="pessimistic"
      mutationOptions={{ onError }}
      transform={(data: Record<string, unknown>) => (conflict ? resolved(data, conflict, choices) : data)}
      redirect="list"
      title={<RecordPageTitle entity={e} />}
      actions={
        <TopToolbar sx={{ flexWrap: 'wrap', gap: 1 }}>
          <WorkflowButtons entity={e} />
          <RouteLinks entity={e} />
          <ShowLink />
          {/* a full deletion stays apart here too; the ordinary delete is at the form's end */}
          <DangerActions entity={e} />
        </TopToolbar>
      }
    >
      <SimpleForm toolbar={<EditToolbar entity={e} />} data-testid="entity-form" disableInvalidFormNotification>
        <InvalidFormNotice />
        {conflict && <ConflictPanel entity={e} conflict={conflict} choices={choices} onChoose={onChoose} />}
        <FormBody entity={e} mode="edit" />
      </SimpleForm>
    </Edit>
  );
}

/** Save at the start, the delete (red, named, confirmed, undoable) apart at the end. */
function EditToolbar({ entity }: { entity: EntityMeta }) {
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <FormSaveButton entity={entity} />
      <DeleteRecordButton entity={entity} variant="button" />
    </Toolbar>
  );
}

function ShowLink() {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const model = useMeta();
  if (!record) return null;
  return (
    <Button label="ra.action.show" component={Link} to={model.showPath(resource, record.id)} data-testid="show-button">
      <OpenInNewIcon />
    </Button>
  );
}
