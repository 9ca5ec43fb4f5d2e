import { useEffect, useId, useState } from 'react';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import { useTranslate } from 'react-admin';
import { formatNumber } from './format';
import { typedMatches, type Consequence } from './deletion';

export interface DeleteDialogProps {
  open: boolean;
  onClose: () => void;
  /** the question: "«Chinor» MChJ oʻchirilsinmi?" */
  title: string;
  /** the red button's name: "Oʻchirish: «Chinor» MChJ" */
  confirmLabel: string;
  /** what goes with the row (its child rows, files, the rows a full deletion takes) */
  consequences: Consequence[];
  /** undoable for a few seconds, or final */
  undoable: boolean;
  /** what must be typed before the button works (a name, a count), with its instruction */
  typed?: { expected: string; prompt: string };
  /** the server's answer to a dry run: null when the delete would go, else its refusal */
  check?: () => Promise<string | null>;
  /** runs the delete: null when done (the dialog closes), else the refusal to show */
  onConfirm: () => Promise<string | null>;
}

/**
 * The one confirmation of every delete (docs/decisions/0066): it names the row and what goes with
 * it, says whether it can be undone, asks the server first whether the delete would go (and then
 * offers no button), asks for the name or the count typed where a slip costs most, and its button
 * is red and says what it deletes. Cancel has the focus; Enter in the typed box confirms.
 */
export function DeleteDialog({ open, onClose, title, confirmLabel, consequences, undoable, typed, check, onConfirm }: DeleteDialogProps) {
  const translate = useTranslate();
  const [text, setText] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const typedId = useId();

  useEffect(() => {
    if (!open) return;
    setText('');
    setRefusal(null);
    if (!check) return;
    let live = true;
    setChecking(true);
    check()
      .then((r) => live && setRefusal(r))
      .finally(() => live && setChecking(false));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asked once each time the dialog opens
  }, [open]);

  const ready = !checking && !refusal && !busy && (!typed || typedMatches(text, typed.expected));
  const confirm = async () => {
    if (!ready) return;
    setBusy(true);
    try {
      const r = await onConfirm();
      if (r) setRefusal(r);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={() => !busy && onClose()} fullWidth maxWidth="sm" aria-labelledby={titleId} data-testid="delete-dialog">
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {title}
      </DialogTitle>
      <DialogContent>
        {consequences.length > 0 && (
          <Box sx={{ mb: 2 }} data-testid="delete-consequences">
            <Typography>{translate('admin.delete.with_it')}</Typography>
            <Box component="ul" sx={{ my: 0.5, pl: 3 }}>
              {consequences.map((c) => (
                <li key={c.caption}>
                  {translate(c.caption)}
                  {c.count !== undefined ? `: ${formatNumber(c.count, 0)}` : ''}
                </li>
              ))}
            </Box>
          </Box>
        )}
        <Typography color={undoable ? 'text.secondary' : 'error'} sx={{ mb: 2 }} data-testid="delete-undo-note">
          {translate(undoable ? 'admin.delete.undoable' : 'admin.delete.final')}
        </Typography>
        {checking && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }} role="status">
            <CircularProgress size={16} />
            <Typography variant="body2">{translate('admin.delete.checking')}</Typography>
          </Box>
        )}
        {refusal && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="delete-refusal">
            <AlertTitle>{translate('admin.delete.refused')}</AlertTitle>
            {refusal}
          </Alert>
        )}
        {typed && !refusal && (
          <Box
            component="form"
            onSubmit={(e) => {
              e.preventDefault();
              // React carries a portal's submit up to an enclosing form (the record's own)
              e.stopPropagation();
              void confirm();
            }}
          >
            <Typography component="label" htmlFor={typedId} sx={{ display: 'block', mb: 1, overflowWrap: 'anywhere' }}>
              {typed.prompt}
            </Typography>
            <TextField
              id={typedId}
              value={text}
              onChange={(e) => setText(e.target.value)}
              fullWidth
              size="small"
              autoComplete="off"
              autoFocus
              slotProps={{ htmlInput: { 'data-testid': 'delete-typed', spellCheck: false } }}
            />
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={busy} autoFocus={!typed} data-testid="delete-cancel">
          {translate('ra.action.cancel')}
        </Button>
        {!refusal && (
          <Button
            color="error"
            variant="contained"
            onClick={() => void confirm()}
            disabled={!ready}
            startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <DeleteForeverIcon />}
            sx={{ overflowWrap: 'anywhere', textAlign: 'left' }}
            data-testid="delete-confirm"
          >
            {confirmLabel}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
