import { useState } from 'react';
import { Box, Typography } from '@mui/material';
import ParkIcon from '@mui/icons-material/Park';
import { Login, LoginForm, useTranslate } from 'react-admin';
import { LanguageSwitcher } from './LanguageSwitcher';
import { CodeSignInForm, ForgotPasswordForm, LoginModeLinks, type LoginMode } from './AccountForms';

/**
 * react-admin's sign-in form with the system's name and the language switch, and the other ways in:
 * a forgotten password reset by a code, and sign-in by a code (docs/accounts.md).
 */
export function LoginPage() {
  const translate = useTranslate();
  const [mode, setMode] = useState<LoginMode>('password');
  return (
    <Login avatarIcon={<ParkIcon />} sx={{ backgroundImage: 'linear-gradient(135deg, #1b5e20 0%, #2e7d32 45%, #81c784 100%)' }}>
      <Box sx={{ px: 2, textAlign: 'center' }}>
        <Typography variant="h6" component="h1" data-testid="login-title">
          {translate('admin.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate(mode === 'forgot' ? 'admin.account.forgot' : mode === 'code' ? 'admin.account.with_code' : 'admin.subtitle')}
        </Typography>
      </Box>
      {mode === 'password' && <LoginForm />}
      {mode === 'forgot' && <ForgotPasswordForm done={() => setMode('password')} />}
      {mode === 'code' && <CodeSignInForm />}
      <LoginModeLinks mode={mode} setMode={setMode} />
      <Box sx={{ display: 'flex', justifyContent: 'center', pb: 2 }}>
        <LanguageSwitcher color="primary" />
      </Box>
    </Login>
  );
}
