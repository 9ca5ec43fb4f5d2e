import { useMemo, type ReactNode } from 'react';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { useTranslate } from 'react-admin';

/**
 * Every spinner below it is named ("Yuklanmoqda" in the language shown) unless it names itself:
 * an unnamed progress bar is announced as nothing, and axe counts it as a serious fault. The bar's
 * loading indicator (react-admin's, shown while any request is in flight), the busy buttons and
 * the panels' spinners all take the name from MUI's theme defaults given here, once.
 */
export function NamedSpinners({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const label = translate('ra.page.loading');
  const theme = useMemo(
    () =>
      (outer: Theme): Theme => ({
        ...outer,
        components: {
          ...outer.components,
          MuiCircularProgress: {
            ...outer.components?.MuiCircularProgress,
            defaultProps: { ...outer.components?.MuiCircularProgress?.defaultProps, 'aria-label': label },
          },
          MuiLinearProgress: {
            ...outer.components?.MuiLinearProgress,
            defaultProps: { ...outer.components?.MuiLinearProgress?.defaultProps, 'aria-label': label },
          },
        },
      }),
    [label],
  );
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}
