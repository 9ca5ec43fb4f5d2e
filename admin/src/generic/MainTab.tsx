import type { ComponentType } from 'react';
import { Box, Divider, Grid, Typography } from '@mui/material';
import { Labeled, useRecordContext, useTranslate } from 'react-admin';
import { useMeta } from '../meta/store';
import type { EntityMeta, FieldMeta } from '../meta/types';
import { MetaField } from './MetaField';
import type { MetaFieldProps } from './MetaFieldProps';
import { FlowHistory } from './FlowHistory';
import { JsonTable } from './JsonTable';
import { useExtension } from './extensions';

/** Values that need a whole row: tables, file lists, long text, maps. */
const WIDE = new Set(['children', 'files', 'text', 'point', 'refs', 'json']);

/**
 * The row's fields in a grid, grouped as its form is (the fields no form section names, such as
 * its state and computed values, first), then its workflow history.
 */
export function MainTab({ entity }: { entity: EntityMeta }) {
  const model = useMeta();
  const translate = useTranslate();
  const record = useRecordContext();
  const { fieldViews = {} } = useExtension(entity.name);
  // JSON values (an audit row's before and after) are a table of their own below the grid, side by side
  const json = entity.fields.filter((f) => f.type === 'json' && !f.hidden && !f.form);
  // a form's values (a control zone's) are a field of the grid, captioned by the form's schema
  const shown = (f: FieldMeta | undefined): f is FieldMeta => !!f && !f.hidden && f.type !== 'password' && (f.type !== 'json' || !!f.form);
  const byName = new Map(entity.fields.map((f) => [f.name, f]));
  const sections = (entity.form?.sections ?? []).map((sec) => ({
    label: sec.label,
    fields: sec.fields.map((n) => byName.get(n)).filter(shown),
  }));
  const inSections = new Set(sections.flatMap((sec) => sec.fields.map((f) => f.name)));
  const rest = entity.fields.filter((f) => shown(f) && !inSections.has(f.name));
  const groups = [{ label: undefined as string | undefined, fields: [model.field(entity, 'id')!, ...rest] }, ...sections];
  // when the row was last changed; a log without bookkeeping columns, when it was written
  const stamp = !record || 'updated_at' in record ? 'updated_at' : 'created_at';
  groups[groups.length - 1].fields.push(model.field(entity, stamp)!);
  return (
    <>
      <Box sx={{ p: 2 }} data-testid="entity-show">
        {groups
          .filter((g) => g.fields.length)
          .map((g, i) => (
            <Box key={g.label ?? i} sx={{ mb: 1 }}>
              {g.label && (
                <>
                  {i > 0 && <Divider sx={{ mb: 1.5 }} />}
                  <Typography variant="subtitle2" color="primary" sx={{ fontWeight: 600, mb: 1 }}>
                    {translate(g.label)}
                  </Typography>
                </>
              )}
              <Grid container columnSpacing={3} rowSpacing={1.5} sx={{ mb: 1.5 }}>
                {g.fields.map((f) => (
                  <Grid key={f.name} size={WIDE.has(f.type) ? 12 : { xs: 12, sm: 6, md: 4 }} sx={{ minWidth: 0 }}>
                    <Labeled label={f.label} className={`ra-field-${f.name}`}>
                      <FieldView view={fieldViews[f.name]} field={f} />
                    </Labeled>
                  </Grid>
                ))}
              </Grid>
            </Box>
          ))}
        {json.length > 0 && (
          <Box className={json.map((f) => `ra-field-${f.name}`).join(' ')} data-testid="json-fields">
            <Divider sx={{ mb: 1.5 }} />
            <JsonTable fields={json} view={MetaField} />
          </Box>
        )}
      </Box>
      {entity.workflow && (
        <Box sx={{ px: 2, pb: 2 }}>
          <FlowHistory entity={entity} />
        </Box>
      )}
    </>
  );
}

/** A field's value on the page: the entity's own view of it where a special screen gives one, else by its kind. */
function FieldView({ view: View = MetaField, field }: { view?: ComponentType<MetaFieldProps>; field: FieldMeta }) {
  return <View source={field.name} label={field.label} field={field} />;
}
