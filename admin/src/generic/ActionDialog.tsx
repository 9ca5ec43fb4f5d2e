import { useMemo, useState } from 'react';
import {
  Alert,
  AlertTitle,
  Box,
  Button as MuiButton,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { Form, TextInput, required, useTranslate } from 'react-admin';
import type { EntityMeta, WorkflowActionMeta } from '../meta/types';
import { MetaInput } from './inputs';
import { formatNumber } from './format';
import { useRunAction } from './useRunAction';
import { initialParams, paramFields, type Target } from './workflowActions';

/**
 * The dialog of an action: the confirmation ("change the status of id N?"), the inputs of its
 * parameters by their field kinds (a reference is an autocomplete), a comment when the action asks
 * for one; the server's field errors show beside the inputs.
 */
export function ActionDialog({
  entity,
  action,
  target,
  open,
  onClose,
  onDone,
}: {
  entity: EntityMeta;
  action: WorkflowActionMeta;
  target: Target;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
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
  const question =
    target.kind === 'one' && action.prompt
      ? translate(action.prompt, { id: target.record.id, 0: target.record.id })
      : target.kind === 'one'
        ? translate(action.to ? 'admin.workflow.confirm_one' : 'admin.workflow.confirm_one_apply', {
            id: target.record.id,
            action: translate(action.label),
          })
        : target.kind === 'many'
          ? translate('admin.workflow.confirm_many', { count: formatNumber(target.ids.length, 0), action: translate(action.label) })
          : translate('admin.workflow.confirm_all', { count: formatNumber(target.total, 0), action: translate(action.label) });

  const submit = async (values: Record<string, unknown>) => {
    setBusy(true);
    setRefusal(null);
    try {
      const { ok, errors, message, description } = await run(action, target, values);
      if (ok) {
        onDone();
        return undefined;
      }
      // a refusal that no input is to blame for (no right to grant these roles) stays said in the dialog
      if (!errors && message) setRefusal({ message, description });
      return errors;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      fullWidth
      maxWidth="sm"
      data-testid="workflow-dialog"
      slotProps={{ transition: { onExited: () => setRefusal(null) } }}
    >
      {open && (
        <Form onSubmit={(v: Record<string, unknown>) => submit(v)} record={initial}>
          <DialogTitle>{translate(action.label)}</DialogTitle>
          <DialogContent>
            <Typography sx={{ mb: 2 }} data-testid="workflow-question">
              {question}
            </Typography>
            {target.kind === 'all' && (
              <Alert severity="warning" sx={{ mb: 2 }}>
                {translate('admin.workflow.all_hint')}
              </Alert>
            )}
            {refusal && (
              <Alert severity="error" sx={{ mb: 2 }} data-testid="workflow-refusal">
                <AlertTitle>{translate('admin.workflow.refused')}</AlertTitle>
                {refusal.message}
                {refusal.description ? <Box sx={{ mt: 0.5 }}>{refusal.description}</Box> : null}
              </Alert>
            )}
            {params.map((f) => (
              <MetaInput key={f.name} field={f} mode="create" />
            ))}
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
            <MuiButton onClick={onClose} disabled={busy}>
              {translate('ra.action.cancel')}
            </MuiButton>
            <MuiButton
              type="submit"
              variant="contained"
              disabled={busy}
              data-testid="workflow-confirm"
              startIcon={busy ? <CircularProgress size={16} /> : undefined}
            >
              {translate('ra.action.confirm')}
            </MuiButton>
          </DialogActions>
        </Form>
      )}
    </Dialog>
  );
}
