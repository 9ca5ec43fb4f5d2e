import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** react-admin's default look in the fund's green. */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: '#2e7d32', light: '#60ad5e', dark: '#005005', contrastText: '#fff' },
    secondary: { main: '#1b5e20', contrastText: '#fff' },
    background: { default: '#f4f7f4' },
  },
  sidebar: { width: 280, closedWidth: 55 },
};
