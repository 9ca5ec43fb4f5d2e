import { Box, Typography } from '@mui/material';
import { RecordContextProvider, ResourceContextProvider, useTranslate, type RaRecord } from 'react-admin';
import { MetaField } from '../generic/MetaField';
import { useRecordName } from '../generic/RecordName';
import { formatDate, todayTashkent } from '../generic/format';
import { useMeta } from '../meta/store';
import type { EntityMeta, FieldMeta } from '../meta/types';
import { printHeading } from './passport';

/** Kinds a sheet of paper cannot show. */
const UNPRINTABLE = new Set(['password', 'files', 'file', 'image']);
/** Kinds shown as tables: across the whole sheet, under the captioned values, never in the values' column. */
const TABULAR = new Set(['children', 'json']);

/**
 * Any row on paper: its heading (caption and number where the row has no other name), then its
 * fields grouped as its form's sections (the fields no section names first), each as caption and
 * value, as its show page says them; its tables (children rows) take the sheet's whole width.
 */
export function GenericPrint({ entity, record, resource }: { entity: EntityMeta; record: RaRecord; resource: string }) {
  const translate = useTranslate();
  const model = useMeta();
  const name = useRecordName(entity, record);
  const filled = (v: unknown) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && !v.length);
  // what paper cannot show, and what the row leaves empty, is left out
  const shown = (f: FieldMeta | undefined): f is FieldMeta => !!f && !f.hidden && !UNPRINTABLE.has(f.type) && filled(record[f.name]);
  const byName = new Map(entity.fields.map((f) => [f.name, f]));
  const sections = (entity.form?.sections ?? []).map((s) => ({
    label: s.label as string | undefined,
    fields: s.fields.map((n) => byName.get(n)).filter(shown),
  }));
  const inSections = new Set(sections.flatMap((s) => s.fields.map((f) => f.name)));
  const rest = entity.fields.filter((f) => shown(f) && !inSections.has(f.name));
  const groups = [{ label: undefined as string | undefined, fields: rest }, ...sections].filter((g) => g.fields.length);
  const heading = printHeading(translate(model.captionOf.get(resource) ?? entity.caption), name, record.id);
  return (
    <ResourceContextProvider value={resource}>
      <RecordContextProvider value={record}>
        <Box data-testid="generic-print">
          {heading.overline && (
            <Typography sx={{ fontSize: '0.8em', textTransform: 'uppercase', letterSpacing: '0.08em', color: 'primary.main' }}>
              {heading.overline}
            </Typography>
          )}
          <Typography component="h1" sx={{ fontSize: '1.5em', fontWeight: 700, mb: '3mm' }} data-testid="print-heading">
            {heading.title}
          </Typography>
          {groups.map((g, i) => {
            const values = g.fields.filter((f) => !TABULAR.has(f.type));
            const tables = g.fields.filter((f) => TABULAR.has(f.type));
            return (
              <Box key={g.label ?? i} sx={{ mb: '3mm', breakInside: values.length ? 'avoid' : 'auto' }}>
                {g.label && (
                  <Typography sx={{ fontWeight: 600, borderBottom: '0.3mm solid #999', mb: '1.5mm' }}>{translate(g.label)}</Typography>
                )}
                {values.length > 0 && (
                  <Box
                    component="dl"
                    sx={{ m: 0, display: 'grid', gridTemplateColumns: '38% minmax(0, 1fr)', columnGap: '3mm', rowGap: '1mm' }}
                  >
                    {values.map((f) => (
                      <Box key={f.name} sx={{ display: 'contents' }}>
                        <Box component="dt" sx={{ color: 'text.secondary' }}>
                          {translate(f.label)}
                        </Box>
                        <Box component="dd" sx={{ m: 0 }}>
                          <MetaField field={f} source={f.name} />
                        </Box>
                      </Box>
                    ))}
                  </Box>
                )}
                {tables.map((f) => (
                  <Box key={f.name} sx={{ mt: '1.5mm' }} data-testid={`print-table-${f.name}`}>
                    {(values.length > 0 || tables.length > 1 || !g.label) && (
                      <Typography sx={{ color: 'text.secondary', mb: '1mm' }}>{translate(f.label)}</Typography>
                    )}
                    <MetaField field={f} source={f.name} />
                  </Box>
                ))}
              </Box>
            );
          })}
          <Typography sx={{ fontSize: '0.75em', color: 'text.secondary', mt: '4mm' }}>
            {translate('admin.print.printed_on', { date: formatDate(todayTashkent()) })}
          </Typography>
        </Box>
      </RecordContextProvider>
    </ResourceContextProvider>
  );
}
