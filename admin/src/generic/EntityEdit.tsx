import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Button, Edit, SimpleForm, Toolbar, TopToolbar, useRecordContext, useResourceContext } from 'react-admin';
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

/** A row's form, with its workflow buttons and links above it. */
export function EntityEdit() {
  const e = useEntity();
  return (
    <Edit
      mutationMode="pessimistic"
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
