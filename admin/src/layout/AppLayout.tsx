import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { AppBar, Layout, LoadingIndicator, TitlePortal, useTranslate } from 'react-admin';
import { AppMenu } from './AppMenu';
import { LanguageSwitcher } from './LanguageSwitcher';
import { NotificationBell } from './NotificationBell';
import { MyJobs } from './MyJobs';
import { ErrorPage } from '../pages/ErrorPage';
import { PrintStyles } from './PrintStyles';
import { AppUserMenu } from './AppUserMenu';

function AppTitle() {
  const translate = useTranslate();
  return (
    <Typography
      variant="subtitle1"
      sx={{ fontWeight: 700, mr: 2, whiteSpace: 'nowrap', display: { xs: 'none', md: 'block' } }}
      data-testid="app-title"
    >
      {translate('admin.title')}
    </Typography>
  );
}

function AppAppBar() {
  return (
    <AppBar
      userMenu={<AppUserMenu />}
      toolbar={
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <MyJobs />
          <NotificationBell />
          <LanguageSwitcher />
          <LoadingIndicator />
        </Box>
      }
    >
      <AppTitle />
      <TitlePortal />
    </AppBar>
  );
}

export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <Layout
      appBar={AppAppBar}
      menu={AppMenu}
      error={ErrorPage}
      sx={{ minWidth: 0, '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content': { minWidth: 0 } }}
    >
      <PrintStyles />
      {children}
    </Layout>
  );
}
