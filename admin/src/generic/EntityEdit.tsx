import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Button, DeleteButton, Edit, SimpleForm, Toolbar, TopToolbar, useRecordContext, useResourceContext } from 'react-admin';
import { Link } from 'react-router-dom';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import { useEntity } from './useEntity';
import { editableState } from './editableState';
import { FormBody } from './FormBody';
import { RecordPageTitle } from './RecordPageTitle';
import { RouteLinks } from './RouteLinks';
import { WorkflowButtons } from './WorkflowButtons';
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

function EditToolbar({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <FormSaveButton entity={entity} />
      {entity.can.delete && editableState(entity, record) && <DeleteButton mutationMode="pessimistic" data-testid="form-delete" />}
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
