import { useState, type FormEvent } from 'react';
import { Alert, Avatar, Box, Button, Card, CardContent, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { Title, useNotify, useTranslate } from 'react-admin';
import { request, requestJson } from '../api/http';
import { getSession, setSession, type SessionUser } from '../api/session';
import { uploadFile } from '../api/files';
import { ImagePreview } from '../generic/ImagePreview';
import { apiErrors } from './AccountForms';

/**
 * The signed-in user's own account (the user menu's "Profile", docs/accounts.md): name, e-mail,
 * phone, language and photo (`edit-user-info`); confirming the e-mail or phone with a code
 * (`send-confirm`, `check-code`); a new password with the current one and repeated
 * (`set-new-password`, which ends every session, this one too: the user signs in again).
 */
export function ProfilePage() {
  const translate = useTranslate();
  const notify = useNotify();
  const session = getSession();
  const [user, setUser] = useState<SessionUser | null>(session?.user ?? null);
  const [v, setV] = useState({
    fio: user?.fio ?? '',
    email: user?.email ?? '',
    phone: user?.phone ?? '',
    lang_code: user?.lang_code ?? 'uz',
  });
  const [pw, setPw] = useState({ old_password: '', password: '', password_repeat: '' });
  const [code, setCode] = useState<{ sentTo: string; value: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ form: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  if (!user) return null;
  const run = async (form: string, fn: () => Promise<void>) => {
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      await fn();
    } catch (err) {
      const e = apiErrors(err);
      setErrors(e.fields);
      if (e.message) setMessage({ form, text: e.message });
    } finally {
      setBusy(false);
    }
  };
  const saved = (u: SessionUser) => {
    setUser(u);
    const s = getSession();
    if (s) setSession({ ...s, user: u });
  };
  const saveInfo = (e: FormEvent) => {
    e.preventDefault();
    void run('info', async () => {
      const r = await requestJson<{ user: SessionUser }>('/api/admin/auth/edit-user-info', {
        method: 'POST',
        body: { fio: v.fio, email: v.email || null, phone: v.phone || null, lang_code: v.lang_code },
      });
      saved(r.user);
      notify('admin.account.saved', { type: 'success' });
    });
  };
  const photo = (file: File | undefined) =>
    file &&
    void run('info', async () => {
      const up = await uploadFile(file);
      const r = await requestJson<{ user: SessionUser }>('/api/admin/auth/edit-user-info', {
        method: 'POST',
        body: { img_resource_id: up.id },
      });
      saved(r.user);
    });
  const sendCode = () =>
    void run('confirm', async () => {
      const r = await requestJson<{ sent: boolean; address?: string }>('/api/admin/auth/send-confirm', { method: 'POST', body: {} });
      setCode({ sentTo: r.address ?? '', value: '' });
    });
  const checkCode = () =>
    void run('confirm', async () => {
      await request('/api/admin/auth/check-code', { method: 'POST', body: { code: code?.value.trim() } });
      setCode(null);
      notify('admin.account.confirmed', { type: 'success' });
    });
  const changePassword = (e: FormEvent) => {
    e.preventDefault();
    void run('password', async () => {
      if (pw.password !== pw.password_repeat) {
        setErrors({ password_repeat: translate('admin.account.repeat_mismatch') });
        return;
      }
      await request('/api/admin/auth/set-new-password', { method: 'POST', body: pw });
      // every session of the user ended, this one too
      notify('admin.account.password_changed', { type: 'success' });
      setTimeout(() => {
        localStorage.removeItem('ecofond.session');
        window.location.hash = '#/login';
        window.location.reload();
      }, 1500);
    });
  };
  const err = (k: string) => ({ error: !!errors[k], helperText: errors[k] });
  const alert = (form: string) =>
    message?.form === form && (
      <Alert severity="error" data-testid={`profile-error-${form}`}>
        {message.text}
      </Alert>
    );
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, mt: 2 }} data-testid="profile">
      <Title title={translate('admin.account.profile')} />
      <Card>
        <CardContent component="form" onSubmit={saveInfo} noValidate>
          <Stack spacing={2}>
            <Typography variant="h6" component="h2">
              {translate('admin.account.profile')}
            </Typography>
            {alert('info')}
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
              {user.img_resource_id ? <ImagePreview id={user.img_resource_id} size={56} /> : <Avatar sx={{ width: 56, height: 56 }} />}
              <Button component="label" size="small" variant="outlined">
                {translate('admin.account.photo')}
                <input hidden type="file" accept="image/*" onChange={(e) => photo(e.target.files?.[0])} />
              </Button>
            </Box>
            <TextField label={translate('admin.account.username')} value={user.username} disabled size="small" />
            <TextField
              label={translate('admin.account.fio')}
              name="fio"
              value={v.fio}
              onChange={(e) => setV({ ...v, fio: e.target.value })}
              size="small"
              {...err('fio')}
            />
            <TextField
              label={translate('admin.account.email')}
              name="email"
              type="email"
              value={v.email}
              onChange={(e) => setV({ ...v, email: e.target.value })}
              size="small"
              {...err('email')}
            />
            <TextField
              label={translate('admin.account.phone')}
              name="phone"
              value={v.phone}
              onChange={(e) => setV({ ...v, phone: e.target.value })}
              size="small"
              placeholder="(90) 123-45-67"
              {...err('phone')}
            />
            <TextField
              select
              label={translate('admin.lang.label')}
              name="lang_code"
              value={v.lang_code}
              onChange={(e) => setV({ ...v, lang_code: e.target.value })}
              size="small"
              {...err('lang_code')}
            >
              <MenuItem value="uz">Oʻzbekcha</MenuItem>
              <MenuItem value="uk">Ўзбекча</MenuItem>
              <MenuItem value="ru">Русский</MenuItem>
            </TextField>
            <Button type="submit" variant="contained" disabled={busy} data-testid="profile-save">
              {translate('ra.action.save')}
            </Button>
            <Typography variant="subtitle2" component="h3">
              {translate('admin.account.confirm_contact')}
            </Typography>
            {alert('confirm')}
            {!code && (
              <Button variant="outlined" onClick={sendCode} disabled={busy || (!user.email && !user.phone)} data-testid="profile-send-code">
                {translate('admin.account.send_code')}
              </Button>
            )}
            {code && (
              <>
                <Alert severity="info">{translate('admin.account.code_sent_to', { address: code.sentTo })}</Alert>
                <TextField
                  label={translate('admin.account.code')}
                  value={code.value}
                  onChange={(e) => setCode({ ...code, value: e.target.value })}
                  size="small"
                  {...err('code')}
                />
                <Button variant="outlined" onClick={checkCode} disabled={busy}>
                  {translate('admin.account.confirm')}
                </Button>
              </>
            )}
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <CardContent component="form" onSubmit={changePassword} noValidate>
          <Stack spacing={2}>
            <Typography variant="h6" component="h2">
              {translate('admin.account.change_password')}
            </Typography>
            {alert('password')}
            <TextField
              label={translate('admin.account.old_password')}
              name="old_password"
              type="password"
              autoComplete="current-password"
              value={pw.old_password}
              onChange={(e) => setPw({ ...pw, old_password: e.target.value })}
              size="small"
              {...err('old_password')}
            />
            <TextField
              label={translate('admin.account.new_password')}
              name="password"
              type="password"
              autoComplete="new-password"
              value={pw.password}
              onChange={(e) => setPw({ ...pw, password: e.target.value })}
              size="small"
              {...err('password')}
            />
            <TextField
              label={translate('admin.account.password_repeat')}
              name="password_repeat"
              type="password"
              autoComplete="new-password"
              value={pw.password_repeat}
              onChange={(e) => setPw({ ...pw, password_repeat: e.target.value })}
              size="small"
              {...err('password_repeat')}
            />
            <Button type="submit" variant="contained" disabled={busy} data-testid="password-save">
              {translate('admin.account.set_password')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
