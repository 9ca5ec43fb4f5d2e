import { Box, Typography } from '@mui/material';
import ParkIcon from '@mui/icons-material/Park';
import { Login, LoginForm, useTranslate } from 'react-admin';
import { LanguageSwitcher } from './LanguageSwitcher';

/** react-admin's sign-in form with the system's name and the language switch. */
export function LoginPage() {
  const translate = useTranslate();
  return (
    <Login
      avatarIcon={<ParkIcon />}
      sx={{ backgroundImage: 'linear-gradient(135deg, #1b5e20 0%, #2e7d32 45%, #81c784 100%)' }}
    >
      <Box sx={{ px: 2, textAlign: 'center' }}>
        <Typography variant="h6" component="h1" data-testid="login-title">{translate('admin.title')}</Typography>
        <Typography variant="body2" color="text.secondary">{translate('admin.subtitle')}</Typography>
      </Box>
      <LoginForm />
      <Box sx={{ display: 'flex', justifyContent: 'center', pb: 2 }}>
        <LanguageSwitcher color="primary" />
      </Box>
    </Login>
  );
}
