import EditIcon from '@mui/icons-material/Edit';
import { Button, Show, TopToolbar, useRecordContext, useResourceContext } from 'react-admin';
import { Link } from 'react-router-dom';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import { useEntity } from './useEntity';
import { editableState } from './editableState';
import { RecordPageTitle } from './RecordPageTitle';
import { RouteLinks } from './RouteLinks';
import { ShowBody } from './ShowBody';
import { DangerActions, WorkflowButtons } from './WorkflowButtons';
import { DeleteRecordButton } from './DeleteButtons';
import { useExtension } from './extensions';
import { PrintButton } from '../print/PrintButton';
import { PrintDocumentButton } from '../documents/PrintDocumentButton';

/** A row's page: its actions above, its fields, related lists and history in tabs. */
export function EntityShow() {
  const e = useEntity();
  return (
    <Show title={<RecordPageTitle entity={e} />} actions={<ShowActions entity={e} />}>
      <ShowBody entity={e} />
    </Show>
  );
}

function ShowActions({ entity }: { entity: EntityMeta }) {
  const { showActions: Extra } = useExtension(entity.name);
  return (
    <TopToolbar sx={{ flexWrap: 'wrap', gap: 1, width: '100%' }}>
      <WorkflowButtons entity={entity} />
      {Extra && <Extra entity={entity} />}
      <RouteLinks entity={entity} />
      <PrintButton entity={entity} />
      <PrintDocumentButton entity={entity} />
      <EditLink entity={entity} />
      <DangerActions entity={entity}>
        <DeleteRecordButton entity={entity} variant="button" />
      </DangerActions>
    </TopToolbar>
  );
}

function EditLink({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const model = useMeta();
  // a row its workflow has moved past editing (a sent report) is changed by its actions only
  if (!record || !entity.can.update || !editableState(entity, record)) return null;
  return (
    <Button label="ra.action.edit" component={Link} to={model.editPath(resource, record.id)} data-testid="edit-button">
      <EditIcon />
    </Button>
  );
}
