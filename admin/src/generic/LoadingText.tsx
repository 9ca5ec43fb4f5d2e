import { Typography, type SxProps, type Theme } from '@mui/material';

/**
 * What stands in a lazily loaded part's place (a map, a form's values) while its chunk comes: the
 * words, said by a screen reader as a status, and `aria-busy` so that a test waits for the part
 * itself (e2e/sweep.ts `settled`).
 */
export function LoadingText({ text, sx }: { text: string; sx?: SxProps<Theme> }) {
  return (
    <Typography variant="body2" color="text.secondary" role="status" aria-busy="true" sx={sx}>
      {text}
    </Typography>
  );
}

/** Nothing to see while a part's chunk comes, but a mark that it is coming (`aria-busy`), for the same tests. */
export function Pending() {
  return <span hidden aria-busy="true" />;
}
