import { Box, Chip, Typography } from '@mui/material';
import { useGetOne, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useMeta } from '../meta/store';

/** A type's declared variables (`"id, year, comment"`), as the server reads them (api/notify/render.ts). */
export const variableNames = (declared: unknown): string[] => [
  ...new Set(
    String(declared ?? '')
      .split(/[\s,]+/)
      .filter(Boolean),
  ),
];

/**
 * Beside a notification template's body: the placeholders its type allows (`{id}`, `{year}` …), read
 * from the type chosen in the form, so staff know what they may write — the server refuses any
 * other with a 400 naming it (docs/notifications.md). Before a type is chosen, it says to choose one.
 */
export function TemplateVariables() {
  const translate = useTranslate();
  const model = useMeta();
  const typeId = useWatch({ name: 'type_id' }) as number | null | undefined;
  const resource = model.resourceOf('notification-types');
  const { data, isPending, error } = useGetOne(resource ?? '-', { id: typeId ?? 0 }, { enabled: !!resource && !!typeId });
  // a type the user may not read: nothing to show rather than a wrong "none"
  if (typeId && error) return null;
  const names = typeId && data ? variableNames(data.variables) : [];
  return (
    <Box role="note" aria-live="polite" data-testid="template-variables" sx={{ mt: -1, mb: 2, maxWidth: 960 }}>
      <Typography
        variant="body2"
        color="text.secondary"
        component="div"
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.75 }}
      >
        {!typeId ? (
          translate('admin.templates.pick_type')
        ) : isPending ? (
          translate('admin.templates.variables')
        ) : names.length ? (
          <>
            <span>{translate('admin.templates.variables')}</span>
            {names.map((n) => (
              <Chip key={n} size="small" variant="outlined" label={<code>{`{${n}}`}</code>} data-testid="template-variable" />
            ))}
          </>
        ) : (
          translate('admin.templates.none')
        )}
      </Typography>
    </Box>
  );
}
