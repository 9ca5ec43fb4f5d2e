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
    // the red of deletes and errors: MUI's #d32f2f reaches 3.8:1 on a toolbar's grey, this 7.9:1
    error: { main: BADGE_TEXT.error, light: '#e57373', dark: '#8c1d18', contrastText: '#fff' },
  },
  components: {
    ...defaultTheme.components,
    MuiChip: { ...defaultTheme.components?.MuiChip, variants: badgeVariants },
    // a hidden badge (a count of 0) keeps its last number for its exit animation, shrunk to nothing
    // but still text of its button: gone from the page, the button's name is all that is announced
    MuiBadge: { styleOverrides: { invisible: { display: 'none' } } },
    // a focused field's caption in the dark green: the green on a filled field's grey is 4.49:1
    MuiFormLabel: { styleOverrides: { root: { '&.Mui-focused.MuiFormLabel-colorPrimary': { color: '#1b5e20' } } } },
  },
  sidebar: { width: 280, closedWidth: 55 },
};
