import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { FieldMeta } from '../meta/types';

/**
 * A flag declared with `badge` (metadata): where true, a small badge with the field's caption in
 * the declared tone (the theme keeps its text at 4.5:1 or more); where false, nothing.
 */
export function FlagBadge({ field, value }: { field: FieldMeta; value: unknown }) {
  const translate = useTranslate();
  if (value !== true) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={field.badge}
      label={translate(field.label)}
      data-testid={`badge-${field.name}`}
      sx={{ fontWeight: 500 }}
    />
  );
}
