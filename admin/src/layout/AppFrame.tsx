import { type ComponentType, type ErrorInfo, type ReactNode, Suspense, useState } from 'react';
import { styled } from '@mui/material/styles';
import { ErrorBoundary } from 'react-error-boundary';
import { Error as ErrorScreen, type ErrorProps, Loading, SkipNavigationButton } from 'react-admin';

/** On a phone the page's title takes a line of its own under the bar's buttons: beside them it was cut to "St" (AppLayout's bar). */
export const PHONE_TITLE_LINE = 32;
/** The line of the bar's buttons on a phone: 36 px buttons (AppLayout's bar), all on one line at 360 px. */
export const PHONE_BUTTONS_LINE = 36;

/**
 * The signed-in frame: react-admin's `Layout` — the skip link, the bar, the sidebar with its menu,
 * the page in an error boundary and a suspense — with the same class names and styles, and our
 * widths (nothing wider than the window; the bar a title's line taller on a phone). Its own because
 * react-admin's also renders the preferences `Inspector`, which the back-office never opens and
 * which reads the body's width at each render of the layout (twice or three times a navigation),
 * making Chromium lay the page out there and then (docs/decisions/0091).
 */
export function AppFrame({
  appBar: Bar,
  sidebar: Side,
  menu: Menu,
  error,
  children,
}: {
  appBar: ComponentType;
  sidebar: ComponentType<{ children: ReactNode }>;
  menu: ComponentType;
  error: ComponentType<ErrorProps>;
  children: ReactNode;
}) {
  const [errorInfo, setErrorInfo] = useState<ErrorInfo | undefined>(undefined);
  return (
    <Root className="layout">
      <SkipNavigationButton />
      <div className="RaLayout-appFrame">
        <Bar />
        <main className="RaLayout-contentWithSidebar">
          <Side>
            <Menu />
          </Side>
          <div id="main-content" className="RaLayout-content">
            <ErrorBoundary
              onError={(_e, info) => setErrorInfo(info)}
              fallbackRender={({ error: e, resetErrorBoundary }) => (
                <ErrorScreen error={e} errorComponent={error} errorInfo={errorInfo} resetErrorBoundary={resetErrorBoundary} />
              )}
            >
              <Suspense fallback={<Loading />}>{children}</Suspense>
            </ErrorBoundary>
          </div>
        </main>
      </div>
    </Root>
  );
}

const Root = styled('div', { name: 'RaLayout', slot: 'Root' })(({ theme }) => ({
  display: 'flex',
  flexDirection: 'column',
  zIndex: 1,
  minHeight: '100vh',
  backgroundColor: theme.palette.background.default,
  position: 'relative',
  minWidth: 0,
  width: '100%',
  '& .RaLayout-appFrame': {
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    minWidth: 0,
    // the bar's height, so that nothing of the page lies under it (admin.e2e measures it at 360 and 1400 px)
    marginTop: PHONE_BUTTONS_LINE + PHONE_TITLE_LINE,
    [theme.breakpoints.up('sm')]: { marginTop: theme.spacing(6) },
  },
  '& .RaLayout-contentWithSidebar': {
    display: 'flex',
    flexGrow: 1,
    minWidth: 0,
    transition: theme.transitions.create('margin', {
      easing: theme.transitions.easing.easeOut,
      duration: theme.transitions.duration.enteringScreen,
    }),
  },
  '& .RaLayout-content': {
    backgroundColor: theme.palette.background.default,
    zIndex: 2,
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    flexBasis: 0,
    minWidth: 0,
    padding: 0,
    paddingRight: theme.spacing(1),
    paddingLeft: theme.spacing(1),
  },
}));
