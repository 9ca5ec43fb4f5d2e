import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import {
  Alert, AlertTitle, Box, Button as MuiButton, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, ListItemText, Menu, MenuItem, Typography,
} from '@mui/material';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import {
  Button, Form, HttpError, TextInput, required, useListContext, useNotify, useRecordContext, useRedirect, useRefresh, useResourceContext, useTranslate,
  type RaRecord,
} from 'react-admin';
import { request } from '../api/http';
import { errorMessage } from '../api/useFetch';
import type { EntityMeta, FieldMeta, WorkflowActionMeta } from '../meta/types';
import { MetaInput } from './inputs';
import { cleanFilter } from '../api/dataProvider';
import { formatNumber } from './format';

/** The signing dialog and its providers (pkijs) load as their own chunk, the first time one opens. */
const SignDialog = lazy(() => import('../esign/SignDialog').then((m) => ({ default: m.SignDialog })));

/** The inputs an action asks for, from its `params` (the server's field declarations). */
export const paramFields = (a: WorkflowActionMeta): FieldMeta[] =>
  Object.entries(a.params ?? {}).map(([name, f]) => ({
    ...f, name, label: f.label ?? `fields.${name}`, fields: undefined,
  }) as FieldMeta);

/** The workflow actions the user's actions allow, but those a signing dialog offers as its "skip" (only there). */
function offered(entity: EntityMeta): WorkflowActionMeta[] {
  const actions = entity.workflow?.actions ?? [];
  const skips = new Set(actions.map((a) => a.skip).filter(Boolean));
  return actions.filter((a) => a.allowed && !skips.has(a.name));
}

/** The actions of a row's state that the user's actions allow (a signing dialog's "skip" action is offered there only). */
export function actionsFor(entity: EntityMeta, record: RaRecord | undefined): WorkflowActionMeta[] {
  const wf = entity.workflow;
  if (!record || !wf) return [];
  const state = String(record[wf.field] ?? '');
  return offered(entity).filter((a) => a.from.includes(state));
}

/** Where an action runs: one row, the selected rows, or every row of the list's filters. */
export type Target =
  | { kind: 'one'; record: RaRecord }
  | { kind: 'many'; ids: RaRecord['id'][] }
  | { kind: 'all'; filter: Record<string, unknown>; total: number };

/**
 * Runs a workflow action: `POST path/:id/actions/:name` (with the row's version), or
 * `POST path/actions/:name {ids}` / `{all: true}` with the list's filter in the query string.
 * Field errors (400) are given back for the dialog's inputs; every error is notified.
 */
export function useRunAction(entity: EntityMeta) {
  const notify = useNotify();
  const translate = useTranslate();
  return async (action: WorkflowActionMeta, target: Target, values: Record<string, unknown>): Promise<{ ok: boolean; errors?: Record<string, unknown>; message?: string; description?: string }> => {
    const label = translate(action.label);
    const name = encodeURIComponent(action.name);
    try {
      if (target.kind === 'one') {
        await request(`${entity.path}/${target.record.id}/actions/${name}`, { method: 'POST', body: { ...values, version: target.record.version } });
        notify('admin.workflow.done', { type: 'info', messageArgs: { action: label } });
      } else {
        const query = target.kind === 'all' ? `?${new URLSearchParams({ filter: JSON.stringify(cleanFilter(target.filter)) })}` : '';
        const body = target.kind === 'all' ? { ...values, all: true } : { ...values, ids: target.ids };
        const res = await request(`${entity.path}/actions/${name}${query}`, { method: 'POST', body });
        const { ids, changed } = (await res.json()) as { ids: unknown[]; changed: number };
        notify(target.kind === 'all' ? 'admin.workflow.done_all' : 'admin.workflow.done_many', {
          type: 'info', messageArgs: { action: label, changed: formatNumber(changed, 0), total: formatNumber(ids.length, 0) },
        });
      }
      return { ok: true };
    } catch (err) {
      const message = errorMessage(err);
      notify(message, { type: 'error', messageArgs: { _: message } });
      const errors = err instanceof HttpError ? (err.body?.errors as Record<string, unknown> | undefined) : undefined;
      const description = err instanceof HttpError && typeof err.body?.description === 'string' ? err.body.description : undefined;
      return { ok: false, errors, message, description };
    }
  };
}

/**
 * The values an action's dialog starts from: on one row, its parameters that are fields of the
 * entity start from the row's values (assigning roles starts from the user's roles).
 */
export function initialParams(entity: EntityMeta, action: WorkflowActionMeta, target: Target): Record<string, unknown> {
  if (target.kind !== 'one') return {};
  const out: Record<string, unknown> = {};
  for (const f of paramFields(action)) {
    if (entity.fields.some((x) => x.name === f.name && x.type === f.type) && target.record[f.name] !== undefined) out[f.name] = target.record[f.name];
  }
  return out;
}

/** What an action needs asked before it runs: a confirmation, parameters or a comment. */
export const needsDialog = (a: WorkflowActionMeta) => !!(a.confirm || a.comment || Object.keys(a.params ?? {}).length);

/**
 * The dialog of an action: the confirmation ("change the status of id N?"), the inputs of its
 * parameters by their field kinds (a reference is an autocomplete), a comment when the action asks
 * for one; the server's field errors show beside the inputs.
 */
export function ActionDialog({ entity, action, target, open, onClose, onDone }: {
  entity: EntityMeta; action: WorkflowActionMeta; target: Target; open: boolean; onClose: () => void; onDone: () => void;
}) {
  const translate = useTranslate();
  const run = useRunAction(entity);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ message: string; description?: string } | null>(null);
  const params = paramFields(action);
  const one = target.kind === 'one' ? target.record : null;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the row, not the target object made anew on each render
  const initial = useMemo(() => initialParams(entity, action, target), [entity, action, one]);
  // an action's own question (blocking a user) where it has one; else an action that moves the row
  // says so, and one that keeps its state (assigning roles) is applied to it
  const question = target.kind === 'one' && action.prompt
    ? translate(action.prompt, { id: target.record.id, 0: target.record.id })
    : target.kind === 'one'
    ? translate(action.to ? 'admin.workflow.confirm_one' : 'admin.workflow.confirm_one_apply', { id: target.record.id, action: translate(action.label) })
    : target.kind === 'many'
      ? translate('admin.workflow.confirm_many', { count: formatNumber(target.ids.length, 0), action: translate(action.label) })
      : translate('admin.workflow.confirm_all', { count: formatNumber(target.total, 0), action: translate(action.label) });

  const submit = async (values: Record<string, unknown>) => {
    setBusy(true);
    setRefusal(null);
    try {
      const { ok, errors, message, description } = await run(action, target, values);
      if (ok) { onDone(); return undefined; }
      // a refusal that no input is to blame for (no right to grant these roles) stays said in the dialog
      if (!errors && message) setRefusal({ message, description });
      return errors;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={() => !busy && onClose()} fullWidth maxWidth="sm" data-testid="workflow-dialog" slotProps={{ transition: { onExited: () => setRefusal(null) } }}>
      {open && (
        <Form onSubmit={(v: Record<string, unknown>) => submit(v)} record={initial}>
          <DialogTitle>{translate(action.label)}</DialogTitle>
          <DialogContent>
            <Typography sx={{ mb: 2 }} data-testid="workflow-question">{question}</Typography>
            {target.kind === 'all' && <Alert severity="warning" sx={{ mb: 2 }}>{translate('admin.workflow.all_hint')}</Alert>}
            {refusal && (
              <Alert severity="error" sx={{ mb: 2 }} data-testid="workflow-refusal">
                <AlertTitle>{translate('admin.workflow.refused')}</AlertTitle>
                {refusal.message}
                {refusal.description ? <Box sx={{ mt: 0.5 }}>{refusal.description}</Box> : null}
              </Alert>
            )}
            {params.map((f) => <MetaInput key={f.name} field={f} mode="create" />)}
            {action.comment && (
              <TextInput
                source="comment"
                label="admin.workflow.comment"
                multiline
                minRows={2}
                validate={action.comment === 'required' ? required('validation.required') : undefined}
              />
            )}
          </DialogContent>
          <DialogActions>
            <MuiButton onClick={onClose} disabled={busy}>{translate('ra.action.cancel')}</MuiButton>
            <MuiButton type="submit" variant="contained" disabled={busy} data-testid="workflow-confirm" startIcon={busy ? <CircularProgress size={16} /> : undefined}>
              {translate('ra.action.confirm')}
            </MuiButton>
          </DialogActions>
        </Form>
      )}
    </Dialog>
  );
}

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
      {actions.map((a) => <WorkflowButton key={a.name} entity={entity} action={a} record={record} />)}
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
  const done = () => { setOpen(false); after(); };
  const click = async () => {
    if (action.signature || needsDialog(action)) { setOpen(true); return; }
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
      {action.signature
        ? open && <Suspense fallback={null}><SignDialog entity={entity} action={action} record={record} open={open} onClose={() => setOpen(false)} onDone={done} /></Suspense>
        : <ActionDialog entity={entity} action={action} target={{ kind: 'one', record }} open={open} onClose={() => setOpen(false)} onDone={done} />}
    </>
  );
}

/** The bulk actions of an entity the user's actions allow (bulk and without a signature). */
export const bulkActions = (entity: EntityMeta): WorkflowActionMeta[] =>
  (entity.workflow?.actions ?? []).filter((a) => a.bulk && a.allowed && !a.signature);

/** The one-row actions a list offers on a selected row: allowed, not bulk, not signed, not a signing dialog's skip. */
export const rowActions = (entity: EntityMeta): WorkflowActionMeta[] => offered(entity).filter((a) => !a.bulk && !a.signature);

/**
 * In the list's bulk-action toolbar: each bulk action on the selected rows, and each one-row action
 * on the selected row — which asks for exactly one ("Select the needed row", spec §5) before it runs.
 */
export function BulkWorkflowButtons({ entity }: { entity: EntityMeta }) {
  const { selectedIds, onUnselectItems, data } = useListContext();
  const refresh = useRefresh();
  const notify = useNotify();
  const [current, setCurrent] = useState<{ action: WorkflowActionMeta; target: Target } | null>(null);
  const actions = bulkActions(entity);
  const single = rowActions(entity);
  if (!actions.length && !single.length) return null;
  const one = (a: WorkflowActionMeta) => {
    const record = selectedIds.length === 1 ? data?.find((r) => r.id === selectedIds[0]) : undefined;
    if (!record) { notify('errors.select_row', { type: 'warning' }); return; }
    setCurrent({ action: a, target: { kind: 'one', record } });
  };
  return (
    <>
      {actions.map((a) => (
        <Button key={a.name} label={a.label} onClick={() => setCurrent({ action: a, target: { kind: 'many', ids: selectedIds } })} data-testid={`bulk-${a.name}`}>
          <PlayArrowIcon />
        </Button>
      ))}
      {single.map((a) => (
        <Button key={a.name} label={a.label} onClick={() => one(a)} data-testid={`row-${a.name}`}>
          <PlayArrowIcon />
        </Button>
      ))}
      {current && (
        <ActionDialog
          entity={entity}
          action={current.action}
          target={current.target}
          open
          onClose={() => setCurrent(null)}
          onDone={() => { setCurrent(null); onUnselectItems(); refresh(); }}
        />
      )}
    </>
  );
}

/** In the list's top toolbar: each bulk action on every row of the list as filtered now. */
export function AllRowsActionsButton({ entity, permanentFilter }: { entity: EntityMeta; permanentFilter?: Record<string, unknown> }): ReactNode {
  const { filterValues, total } = useListContext();
  const translate = useTranslate();
  const refresh = useRefresh();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [current, setCurrent] = useState<WorkflowActionMeta | null>(null);
  const actions = bulkActions(entity);
  if (!actions.length) return null;
  return (
    <>
      <Button label="admin.workflow.all_rows" onClick={(e) => setAnchor(e.currentTarget)} disabled={!total} data-testid="bulk-all-menu">
        <DoneAllIcon />
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {actions.map((a) => (
          <MenuItem key={a.name} onClick={() => { setAnchor(null); setCurrent(a); }} data-testid={`bulk-all-${a.name}`}>
            <ListItemText primary={translate(a.label)} secondary={translate('admin.workflow.all_rows_count', { count: formatNumber(total ?? 0, 0) })} />
          </MenuItem>
        ))}
      </Menu>
      {current && (
        <ActionDialog
          entity={entity}
          action={current}
          target={{ kind: 'all', filter: { ...filterValues, ...permanentFilter }, total: total ?? 0 }}
          open
          onClose={() => setCurrent(null)}
          onDone={() => { setCurrent(null); refresh(); }}
        />
      )}
    </>
  );
}
