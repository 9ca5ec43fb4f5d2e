import { useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { request } from '../api/http';
import { useMeta } from '../meta/store';
import { apiErrors } from '../layout/AccountForms';

/**
 * "Set a new password" on a user's page (the spec's `users/set-new-password`,
 * `POST …/managing/users/:id/set-new-password`): the password twice; the user's sessions end.
 * Offered to whoever may update users; population and police users are users too.
 */
export function SetUserPasswordButton() {
  const record = useRecordContext();
  const model = useMeta();
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [v, setV] = useState({ password: '', password_repeat: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const users = model.byName.get('users');
  if (!record || !users?.can.update) return null;
  const close = () => {
    setOpen(false);
    setV({ password: '', password_repeat: '' });
    setErrors({});
    setMessage('');
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (v.password !== v.password_repeat) {
      setErrors({ password_repeat: translate('admin.account.repeat_mismatch') });
      return;
    }
    setBusy(true);
    setErrors({});
    setMessage('');
    try {
      await request(`${users.path}/${record.id}/set-new-password`, { method: 'POST', body: v });
      notify('admin.account.user_password_set', { type: 'success' });
      close();
    } catch (err) {
      const x = apiErrors(err);
      setErrors(x.fields);
      setMessage(x.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="small" startIcon={<KeyIcon />} onClick={() => setOpen(true)} data-testid="set-user-password">
        {translate('admin.account.set_user_password')}
      </Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="xs">
        <form onSubmit={save} noValidate>
          <DialogTitle>{translate('admin.account.set_user_password')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              {message && <Alert severity="error">{message}</Alert>}
              <Alert severity="info">{translate('admin.account.sessions_end')}</Alert>
              <TextField
                label={translate('admin.account.new_password')}
                name="password"
                type="password"
                autoComplete="new-password"
                value={v.password}
                onChange={(e) => setV({ ...v, password: e.target.value })}
                error={!!errors.password}
                helperText={errors.password}
                size="small"
              />
              <TextField
                label={translate('admin.account.password_repeat')}
                name="password_repeat"
                type="password"
                autoComplete="new-password"
                value={v.password_repeat}
                onChange={(e) => setV({ ...v, password_repeat: e.target.value })}
                error={!!errors.password_repeat}
                helperText={errors.password_repeat}
                size="small"
              />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{translate('ra.action.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={busy} data-testid="set-user-password-save">
              {translate('ra.action.save')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
