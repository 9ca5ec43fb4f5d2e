import { useState } from 'react';
import { Box, Button as MuiButton, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import {
  Button, Form, TextInput, required, useNotify, useRecordContext, useRefresh, useTranslate, type RaRecord,
} from 'react-admin';
import { request } from '../api/http';
import type { EntityMeta, FieldMeta, WorkflowActionMeta } from '../meta/types';
import { MetaInput } from './inputs';

type ActionMeta = WorkflowActionMeta & { comment?: 'required' | 'optional'; params?: Record<string, Omit<FieldMeta, 'name' | 'label'> & { label?: string }> };

const paramFields = (a: ActionMeta): FieldMeta[] =>
  Object.entries(a.params ?? {}).map(([name, f]) => ({ ...f, name, label: f.label ?? `fields.${name}` }) as FieldMeta);

/**
 * The workflow actions of the metadata that the user's actions allow and the row's state admits,
 * as buttons. Each asks first, with the action's parameters and comment when it has them, then
 * runs `POST path/:id/actions/:name` with the row's version.
 */
export function WorkflowButtons({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const wf = entity.workflow;
  if (!record || !wf) return null;
  const state = String(record[wf.field] ?? '');
  const actions = (wf.actions as ActionMeta[]).filter((a) => a.allowed && a.from.includes(state));
  if (!actions.length) return null;
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} data-testid="workflow-actions">
      {actions.map((a) => <WorkflowButton key={a.name} entity={entity} action={a} record={record} />)}
    </Box>
  );
}

function WorkflowButton({ entity, action, record }: { entity: EntityMeta; action: ActionMeta; record: RaRecord }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const params = paramFields(action);

  const run = async (values: Record<string, unknown>) => {
    setBusy(true);
    try {
      await request(`${entity.path}/${record.id}/actions/${encodeURIComponent(action.name)}`, {
        method: 'POST',
        body: { ...values, version: record.version },
      });
      setOpen(false);
      notify('ra.notification.updated', { type: 'info', messageArgs: { smart_count: 1 } });
      refresh();
    } catch (err) {
      const message = err instanceof Error ? err.message : 'ra.notification.http_error';
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button label={action.label} onClick={() => setOpen(true)} data-testid={`workflow-${action.name}`}>
        <PlayArrowIcon />
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} fullWidth maxWidth="sm">
        <Form onSubmit={(v: Record<string, unknown>) => run(v)} record={{}}>
          <DialogTitle>{translate(action.label)}</DialogTitle>
          <DialogContent>
            <Typography sx={{ mb: 2 }}>{translate('ra.message.are_you_sure')}</Typography>
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
            <MuiButton onClick={() => setOpen(false)} disabled={busy}>{translate('ra.action.cancel')}</MuiButton>
            <MuiButton type="submit" variant="contained" disabled={busy} data-testid="workflow-confirm">{translate('ra.action.confirm')}</MuiButton>
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
}
