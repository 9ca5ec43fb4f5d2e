import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Box, Button, CardContent, Link, Stack, TextField } from '@mui/material';
import { HttpError, useLogin, useNotify, useTranslate } from 'react-admin';
import { request } from '../api/http';

/**
 * The sign-in page's other ways in (docs/accounts.md): a forgotten password reset with a code, and
 * sign-in with a code instead of the password — the spec's `admin/auth` forgot-password,
 * set-new-password, send-confirm and check-code. A code goes to the account's e-mail or phone; the
 * answer never says whether the name exists.
 */

export type LoginMode = 'password' | 'forgot' | 'code';

/** A field's error from the API (`errors.<field>`), or the message when the error names no field. */
export function apiErrors(err: unknown): { fields: Record<string, string>; message: string } {
  if (err instanceof HttpError) {
    const errors = (err.body?.errors ?? {}) as Record<string, unknown>;
    const fields = Object.fromEntries(Object.entries(errors).filter(([k, v]) => k !== 'root' && typeof v === 'string')) as Record<
      string,
      string
    >;
    return { fields, message: Object.keys(fields).length ? '' : err.message };
  }
  return { fields: {}, message: err instanceof Error ? err.message : String(err) };
}

function Form({ onSubmit, children }: { onSubmit: () => Promise<void>; children: ReactNode }) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onSubmit();
  };
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <CardContent>
        <Stack spacing={2}>{children}</Stack>
      </CardContent>
    </Box>
  );
}

/** Links under the password form to the other two ways, and back. */
export function LoginModeLinks({ mode, setMode }: { mode: LoginMode; setMode: (m: LoginMode) => void }) {
  const translate = useTranslate();
  const link = (to: LoginMode, label: string) => (
    <Link component="button" type="button" variant="body2" onClick={() => setMode(to)} data-testid={`login-mode-${to}`}>
      {translate(label)}
    </Link>
  );
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', gap: 2, px: 2, pb: 1, flexWrap: 'wrap' }}>
      {mode !== 'password' && link('password', 'admin.account.with_password')}
      {mode !== 'forgot' && link('forgot', 'admin.account.forgot')}
      {mode !== 'code' && link('code', 'admin.account.with_code')}
    </Box>
  );
}

/** Forgot password: the name → a code is sent → the code and the new password twice. */
export function ForgotPasswordForm({ done }: { done: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [step, setStep] = useState<'name' | 'code'>('name');
  const [v, setV] = useState({ username: '', code: '', password: '', password_repeat: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setErrors({});
    setMessage('');
    try {
      await fn();
    } catch (err) {
      const e = apiErrors(err);
      setErrors(e.fields);
      setMessage(e.message);
    } finally {
      setBusy(false);
    }
  };
  const send = () =>
    run(async () => {
      if (!v.username.trim()) {
        setErrors({ username: translate('ra.validation.required') });
        return;
      }
      await request('/api/admin/auth/forgot-password', { method: 'POST', body: { username: v.username.trim() }, anonymous: true });
      setStep('code');
    });
  const save = () =>
    run(async () => {
      if (v.password !== v.password_repeat) {
        setErrors({ password_repeat: translate('admin.account.repeat_mismatch') });
        return;
      }
      await request('/api/admin/auth/set-new-password', {
        method: 'POST',
        body: { username: v.username.trim(), code: v.code.trim(), password: v.password, password_repeat: v.password_repeat },
        anonymous: true,
      });
      notify('admin.account.password_set', { type: 'success' });
      done();
    });
  return (
    <Form onSubmit={step === 'name' ? send : save}>
      {message && (
        <Alert severity="error" data-testid="account-error">
          {message}
        </Alert>
      )}
      {step === 'code' && (
        <Alert severity="info" data-testid="code-sent">
          {translate('admin.account.code_sent')}
        </Alert>
      )}
      <TextField
        label={translate('ra.auth.username')}
        value={v.username}
        onChange={set('username')}
        disabled={step === 'code'}
        error={!!errors.username}
        helperText={errors.username}
        autoComplete="username"
        name="username"
        size="small"
        fullWidth
      />
      {step === 'code' && (
        <>
          <TextField
            label={translate('admin.account.code')}
            value={v.code}
            onChange={set('code')}
            error={!!errors.code}
            helperText={errors.code}
            name="code"
            size="small"
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <TextField
            label={translate('admin.account.new_password')}
            type="password"
            value={v.password}
            onChange={set('password')}
            error={!!errors.password}
            helperText={errors.password}
            name="password"
            size="small"
            autoComplete="new-password"
          />
          <TextField
            label={translate('admin.account.password_repeat')}
            type="password"
            value={v.password_repeat}
            onChange={set('password_repeat')}
            error={!!errors.password_repeat}
            helperText={errors.password_repeat}
            name="password_repeat"
            size="small"
            autoComplete="new-password"
          />
        </>
      )}
      <Button type="submit" variant="contained" disabled={busy} data-testid="account-submit">
        {translate(step === 'name' ? 'admin.account.send_code' : 'admin.account.set_password')}
      </Button>
    </Form>
  );
}

/** Sign-in by code: the name → a code is sent → the code opens a session (authProvider.login with a code). */
export function CodeSignInForm() {
  const translate = useTranslate();
  const login = useLogin();
  const [step, setStep] = useState<'name' | 'code'>('name');
  const [v, setV] = useState({ username: '', code: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setErrors({});
    setMessage('');
    try {
      await fn();
    } catch (err) {
      const e = apiErrors(err);
      setErrors(e.fields);
      setMessage(e.message);
    } finally {
      setBusy(false);
    }
  };
  const send = () =>
    run(async () => {
      if (!v.username.trim()) {
        setErrors({ username: translate('ra.validation.required') });
        return;
      }
      await request('/api/admin/auth/send-confirm', { method: 'POST', body: { username: v.username.trim() }, anonymous: true });
      setStep('code');
    });
  const enter = () =>
    run(async () => {
      await login({ username: v.username.trim(), code: v.code.trim() });
    });
  return (
    <Form onSubmit={step === 'name' ? send : enter}>
      {message && (
        <Alert severity="error" data-testid="account-error">
          {message}
        </Alert>
      )}
      {step === 'code' && (
        <Alert severity="info" data-testid="code-sent">
          {translate('admin.account.code_sent')}
        </Alert>
      )}
      <TextField
        label={translate('ra.auth.username')}
        value={v.username}
        onChange={(e) => setV({ ...v, username: e.target.value })}
        disabled={step === 'code'}
        error={!!errors.username}
        helperText={errors.username}
        autoComplete="username"
        name="username"
        size="small"
      />
      {step === 'code' && (
        <TextField
          label={translate('admin.account.code')}
          value={v.code}
          onChange={(e) => setV({ ...v, code: e.target.value })}
          error={!!errors.code}
          helperText={errors.code}
          name="code"
          size="small"
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      )}
      <Button type="submit" variant="contained" disabled={busy} data-testid="account-submit">
        {translate(step === 'name' ? 'admin.account.send_code' : 'ra.auth.sign_in')}
      </Button>
    </Form>
  );
}
