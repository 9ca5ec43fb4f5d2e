import { lazy, Suspense, useState } from 'react';
import { Box } from '@mui/material';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Button, useRecordContext, useRedirect, useRefresh, useResourceContext, type RaRecord } from 'react-admin';
import type { EntityMeta, WorkflowActionMeta } from '../meta/types';
import { ActionDialog } from './ActionDialog';
import { useRunAction } from './useRunAction';
import { actionsFor, needsDialog } from './workflowActions';

/** The signing dialog and its providers (pkijs) load as their own chunk, the first time one opens. */
const SignDialog = lazy(() => import('../esign/SignDialog').then((m) => ({ default: m.SignDialog })));

/**
 * The workflow actions of the metadata that the user's actions allow and the row's state admits,
 * as buttons on its show and edit pages. An action with a signature opens the signing dialog.
 */
export function WorkflowButtons({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const actions = actionsFor(entity, record);
  if (!record || !actions.length) return null;
  return (
    // its buttons wrap with the toolbar's others
    <Box sx={{ display: 'contents' }} data-testid="workflow-actions">
      {actions.map((a) => (
        <WorkflowButton key={a.name} entity={entity} action={a} record={record} />
      ))}
    </Box>
  );
}

function WorkflowButton({ entity, action, record }: { entity: EntityMeta; action: WorkflowActionMeta; record: RaRecord }) {
  const refresh = useRefresh();
  const redirect = useRedirect();
  const resource = useResourceContext();
  const run = useRunAction(entity);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // an action that deletes the row (a subject's full deletion) leaves for the list the row was in
  const after = () => (action.delete && resource ? redirect('list', resource) : refresh());
  const done = () => {
    setOpen(false);
    after();
  };
  const click = async () => {
    if (action.signature || needsDialog(action)) {
      setOpen(true);
      return;
    }
    setBusy(true);
    const { ok } = await run(action, { kind: 'one', record }, {});
    setBusy(false);
    if (ok) after();
  };
  return (
    <>
      <Button label={action.label} onClick={() => void click()} disabled={busy} data-testid={`workflow-${action.name}`}>
        <PlayArrowIcon />
      </Button>
      {action.signature ? (
        open && (
          <Suspense fallback={null}>
            <SignDialog entity={entity} action={action} record={record} open={open} onClose={() => setOpen(false)} onDone={done} />
          </Suspense>
        )
      ) : (
        <ActionDialog
          entity={entity}
          action={action}
          target={{ kind: 'one', record }}
          open={open}
          onClose={() => setOpen(false)}
          onDone={done}
        />
      )}
    </>
  );
}
