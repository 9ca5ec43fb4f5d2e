import { useMemo, type ReactNode } from 'react';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { useTranslate } from 'react-admin';
import { withDefaultProps } from '../generic/withDefaultProps';

/**
 * Every spinner below it is named ("Yuklanmoqda" in the language shown) unless it names itself:
 * an unnamed progress bar is announced as nothing, and axe counts it as a serious fault. The bar's
 * loading indicator (react-admin's, shown while any request is in flight), the busy buttons and
 * the panels' spinners and the print pages' all take the name from MUI's theme defaults given here,
 * once for the whole back-office (App.tsx, between react-admin's AdminContext and AdminUI).
 */
export function NamedSpinners({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const label = translate('ra.page.loading');
  const theme = useMemo(
    () => (outer: Theme) =>
      withDefaultProps(outer, { MuiCircularProgress: { 'aria-label': label }, MuiLinearProgress: { 'aria-label': label } }),
    [label],
  );
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}
