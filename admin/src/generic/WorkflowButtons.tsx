import { lazy, Suspense, useId, useState } from 'react';
import { Box, Button as MuiButton, Menu, MenuItem, useMediaQuery, type Theme } from '@mui/material';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import { Button, useRecordContext, useRedirect, useRefresh, useResourceContext, useTranslate, type RaRecord } from 'react-admin';
import type { EntityMeta, WorkflowActionMeta } from '../meta/types';
import { useMeta } from '../meta/store';
import { ActionDialog } from './ActionDialog';
import { DeleteDialog } from './DeleteDialog';
import { useRunAction } from './useRunAction';
import { actionsFor, needsDialog } from './workflowActions';
import { consequences, shortName } from './deletion';
import { useRecordName } from './RecordName';

/** The signing dialog and its providers (pkijs) load as their own chunk, the first time one opens. */
const SignDialog = lazy(() => import('../esign/SignDialog').then((m) => ({ default: m.SignDialog })));

/** Whether the screen is a phone's: react-admin's buttons drop their labels there. */
const usePhone = () => useMediaQuery((t: Theme) => t.breakpoints.down('sm'));

/**
 * The workflow actions of the metadata that the user's actions allow and the row's state admits,
 * on its show and edit pages: buttons, or on a phone one labelled "Actions" menu (react-admin's
 * buttons lose their labels there, and five ▶ icons say nothing). An action with a signature
 * opens the signing dialog. Actions that delete the row are not here: DangerActions has them.
 */
export function WorkflowButtons({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const refresh = useRefresh();
  const run = useRunAction(entity);
  const phone = usePhone();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [open, setOpen] = useState<WorkflowActionMeta | null>(null);
  const [busy, setBusy] = useState(false);
  const actions = actionsFor(entity, record).filter((a) => !a.delete);
  if (!record || !actions.length) return null;

  const start = async (action: WorkflowActionMeta) => {
    setAnchor(null);
    if (action.signature || needsDialog(action)) {
      setOpen(action);
      return;
    }
    setBusy(true);
    const { ok } = await run(action, { kind: 'one', record }, {});
    setBusy(false);
    if (ok) refresh();
  };
  const done = () => {
    setOpen(null);
    refresh();
  };

  return (
    // its buttons wrap with the toolbar's others
    <Box sx={{ display: 'contents' }} data-testid="workflow-actions">
      {phone ? (
        <>
          <MuiButton
            size="small"
            variant="outlined"
            endIcon={<ArrowDropDownIcon />}
            aria-haspopup="menu"
            aria-controls={anchor ? menuId : undefined}
            aria-expanded={anchor ? 'true' : undefined}
            onClick={(e) => setAnchor(e.currentTarget)}
            disabled={busy}
            data-testid="workflow-menu"
          >
            {translate('admin.workflow.actions')}
          </MuiButton>
          <Menu id={menuId} anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
            {actions.map((a) => (
              <MenuItem key={a.name} onClick={() => void start(a)} data-testid={`workflow-${a.name}`}>
                {translate(a.label)}
              </MenuItem>
            ))}
          </Menu>
        </>
      ) : (
        actions.map((a) => (
          <Button key={a.name} label={a.label} onClick={() => void start(a)} disabled={busy} data-testid={`workflow-${a.name}`}>
            <PlayArrowIcon />
          </Button>
        ))
      )}
      {open && <ActionDialogs entity={entity} action={open} record={record} onClose={() => setOpen(null)} onDone={done} />}
    </Box>
  );
}

function ActionDialogs({
  entity,
  action,
  record,
  onClose,
  onDone,
}: {
  entity: EntityMeta;
  action: WorkflowActionMeta;
  record: RaRecord;
  onClose: () => void;
  onDone: () => void;
}) {
  return action.signature ? (
    <Suspense fallback={null}>
      <SignDialog entity={entity} action={action} record={record} open onClose={onClose} onDone={onDone} />
    </Suspense>
  ) : (
    <ActionDialog entity={entity} action={action} target={{ kind: 'one', record }} open onClose={onClose} onDone={onDone} />
  );
}

/**
 * A row page's destructive actions, apart from the others (at the toolbar's far end, on a phone
 * on a line of their own), red and labelled even on a phone: the entity's ordinary delete (given
 * as `children`) and the workflow actions that delete the row (a subject's full deletion). A full
 * deletion's dialog names what goes with the row (`removes` in its metadata), says it cannot be
 * undone and asks for the row's name typed; the server's refusal (money attached) stays in it.
 */
export function DangerActions({ entity, children }: { entity: EntityMeta; children?: React.ReactNode }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const actions = actionsFor(entity, record).filter((a) => a.delete);
  return (
    <Box
      role="group"
      aria-label={translate('admin.delete.group')}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1,
        ml: 'auto',
        pl: { sm: 2 },
        borderLeft: { sm: 1 },
        borderColor: { sm: 'divider' },
        // a line of its own on a phone, at its end
        flexBasis: { xs: '100%', sm: 'auto' },
        justifyContent: 'flex-end',
        '&:empty': { display: 'none' },
      }}
      data-testid="danger-actions"
    >
      {children}
      {record && actions.map((a) => <FullDeleteButton key={a.name} entity={entity} action={a} record={record} />)}
    </Box>
  );
}

function FullDeleteButton({ entity, action, record }: { entity: EntityMeta; action: WorkflowActionMeta; record: RaRecord }) {
  const translate = useTranslate();
  const redirect = useRedirect();
  const resource = useResourceContext();
  const model = useMeta();
  const run = useRunAction(entity);
  const name = useRecordName(entity, record);
  const [open, setOpen] = useState(false);
  const label = translate(action.label);
  return (
    <>
      <MuiButton
        color="error"
        variant="outlined"
        startIcon={<DeleteForeverIcon />}
        onClick={() => setOpen(true)}
        aria-label={`${label}: «${name}»`}
        data-testid={`workflow-${action.name}`}
      >
        {label}
      </MuiButton>
      <DeleteDialog
        open={open}
        onClose={() => setOpen(false)}
        title={translate('admin.delete.title_full', { title: name, action: label })}
        confirmLabel={translate('admin.delete.confirm_full', { title: shortName(name), action: label })}
        consequences={consequences(entity, record, action, (n) => model.byName.get(n)?.caption ?? `entity.${n}`)}
        undoable={false}
        typed={{ expected: name, prompt: translate('admin.delete.type_name', { title: name }) }}
        onConfirm={async () => {
          const r = await run(action, { kind: 'one', record }, {});
          if (!r.ok) return [r.message, r.description].filter(Boolean).join(' — ') || translate('admin.workflow.refused');
          setOpen(false);
          if (resource) redirect('list', resource);
          return null;
        }}
      />
    </>
  );
}
