import { defaultTheme, type RaThemeOptions } from 'react-admin';

/**
 * Text of the badges (chips) in each tone: dark enough for 4.5:1 against white and the page's
 * background, where MUI's own tones give 3:1 to 4.3:1 (warning #ed6c02, info #0288d1).
 */
export const BADGE_TEXT = { warning: '#8a4b00', info: '#01579b', success: '#1b5e20', error: '#b3261e' } as const;

const badgeVariants = (Object.entries(BADGE_TEXT) as [keyof typeof BADGE_TEXT, string][]).flatMap(([color, text]) => [
  { props: { variant: 'outlined' as const, color }, style: { color: text, borderColor: text } },
  { props: { variant: 'filled' as const, color }, style: { color: '#fff', backgroundColor: text } },
]);

/** react-admin's default look in the fund's green. */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: '#2e7d32', light: '#60ad5e', dark: '#005005', contrastText: '#fff' },
    secondary: { main: '#1b5e20', contrastText: '#fff' },
    background: { default: '#f4f7f4' },
  },
  components: {
    ...defaultTheme.components,
    MuiChip: { ...defaultTheme.components?.MuiChip, variants: badgeVariants },
  },
  sidebar: { width: 280, closedWidth: 55 },
};
