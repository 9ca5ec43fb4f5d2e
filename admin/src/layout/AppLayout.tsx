import { memo, type ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { AppBar, Layout, LoadingIndicator, TitlePortal, useTranslate } from 'react-admin';
import { AppMenu } from './AppMenu';
import { LanguageSwitcher } from './LanguageSwitcher';
import { NotificationBell } from './NotificationBell';
import { MyJobs } from './MyJobs';
import { ErrorPage } from '../pages/ErrorPage';
import { PrintStyles } from './PrintStyles';
import { AppSidebar } from './AppSidebar';
import { AppUserMenu } from './AppUserMenu';
import { GlobalSearch } from './GlobalSearch';
import { DatesProvider } from '../generic/DatesProvider';

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

/** On a phone the page's title takes a line of its own under the bar's buttons: beside them it was cut to "St". */
const PHONE_TITLE_LINE = 32;
/** The line of the bar's buttons on a phone: 36 px buttons, all on one line at 360 px (AppAppBar). */
const PHONE_BUTTONS_LINE = 36;

const AppAppBar = memo(function AppAppBar() {
  return (
    <AppBar
      userMenu={<AppUserMenu />}
      sx={{
        '& .RaAppBar-toolbar': { flexWrap: { xs: 'wrap', sm: 'nowrap' } },
        // at 360 px the menu, search, jobs, bell, languages, refresh and user buttons fit one line only
        // a little closer (36 px each, not 40): wrapped, the user's button took a line of its own and
        // the bar grew over the page's first lines
        '& .RaAppBar-toolbar .MuiIconButton-root': { p: { xs: '6px', sm: 1 } },
      }}
      toolbar={
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <GlobalSearch />
          <MyJobs />
          <NotificationBell />
          <LanguageSwitcher />
          <LoadingIndicator />
        </Box>
      }
    >
      <AppTitle />
      <TitlePortal
        sx={{
          order: { xs: 10, sm: 0 },
          flexBasis: { xs: '100%', sm: 'auto' },
          // a responsive value holds from its breakpoint up: the desktop's are given back (MUI's h6)
          fontSize: { xs: '1rem', sm: '1.25rem' },
          lineHeight: { xs: `${PHONE_TITLE_LINE - 6}px`, sm: 1.6 },
          px: { xs: 2, sm: 0 },
          pb: { xs: '6px', sm: 0 },
        }}
      />
    </AppBar>
  );
});

/** The sidebar drawn again only when its own state changes: its one child is always the menu (react-admin's Layout). */
const MemoSidebar = memo(AppSidebar, (a, b) => a.appBarAlwaysOn === b.appBarAlwaysOn);

/** The signed-in back-office; the date pickers' language is set here, once for every page (generic/DatesProvider.tsx). */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <DatesProvider>
      <Layout
        appBar={AppAppBar}
        menu={AppMenu}
        sidebar={MemoSidebar}
        error={ErrorPage}
        sx={{
          minWidth: 0,
          '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content': { minWidth: 0 },
          // the bar's height, so that nothing of the page lies under it (admin.e2e measures it at 360 and
          // 1400 px): on a phone a line of buttons and the title's line (AppAppBar)
          '& .RaLayout-appFrame': { marginTop: { xs: `${PHONE_BUTTONS_LINE + PHONE_TITLE_LINE}px`, sm: '48px' } },
        }}
      >
        <PrintStyles />
        {children}
      </Layout>
    </DatesProvider>
  );
}
