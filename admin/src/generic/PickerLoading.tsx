import type { ReactNode } from 'react';
import { TextField, type SxProps, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';

/** What stands in a date's place (same size, same label) while the picker's chunk comes, the first time one is shown. */
export function PickerLoading({ label, sx }: { label?: ReactNode; sx?: SxProps<Theme> }) {
  const translate = useTranslate();
  return (
    <TextField
      size="small"
      disabled
      label={typeof label === 'string' ? translate(label, { _: label }) : label}
      sx={[{ minWidth: 170 }, ...(Array.isArray(sx) ? sx : [sx])]}
      slotProps={{ htmlInput: { 'aria-busy': true } }}
    />
  );
}
