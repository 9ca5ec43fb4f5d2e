import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { ComponentType } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import { i18n } from '../i18n';
import { useMeta } from '../meta/store';
import type { FieldMeta } from '../meta/types';
import { captionOf, changesOf, entityOfEntry, isEmptyValue } from './audit';
import { AuditValue } from './AuditValue';
import type { MetaFieldProps } from './MetaFieldProps';

const exists = (k: string) => i18n.exists(k);
const asObject = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/**
 * JSON fields of the current row (an audit row's before and after) as one table: a line for each
 * key, captioned by the field it is of, and a column for each JSON field with the key's value in
 * it, as the list shows such a value. The fields are those of the entity the row names in its
 * `entity` column where it has one; other keys by `fields.<key>`. With two fields side by side,
 * this is the change's diff: field, before, after. `view` shows each value (MetaField: see AuditValue).
 */
export function JsonTable({ fields, view }: { fields: FieldMeta[]; view: ComponentType<MetaFieldProps> }) {
  const record = useRecordContext();
  const model = useMeta();
  const translate = useTranslate();
  if (!record) return null;
  const values = fields.map((f) => asObject(record[f.name]));
  if (values.every((v) => !v || !Object.keys(v).length)) {
    // nothing, or values that are not objects of keys: said as they are
    if (fields.every((f) => isEmptyValue(record[f.name]) || asObject(record[f.name]))) {
      return (
        <Typography variant="body2" color="text.secondary" data-testid="json-empty">
          {translate('admin.empty.no_data')}
        </Typography>
      );
    }
    return (
      <Box data-testid="json-table">
        {fields.map((f) => (
          <Box key={f.name} sx={{ display: 'flex', gap: 1 }}>
            {fields.length > 1 && (
              <Typography variant="body2" color="text.secondary">
                {translate(f.label)}:
              </Typography>
            )}
            <AuditValue field={{ ...f, type: 'json' }} value={record[f.name]} view={view} />
          </Box>
        ))}
      </Box>
    );
  }
  const e = entityOfEntry(model, record.entity);
  // the keys of every column, the entity's field order first (changesOf merges two; more are folded in pairs)
  const merged: Record<string, unknown> = {};
  for (const v of values) Object.assign(merged, v ?? {});
  const rows = changesOf(model, e, merged, null);
  const pair = fields.length === 2;
  return (
    <Box sx={{ overflowX: 'auto' }} data-testid="json-table">
      <Table size="small" sx={{ '& td, & th': { verticalAlign: 'top' } }}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 600, width: '28%' }}>{translate('admin.history.field')}</TableCell>
            {fields.map((f) => (
              <TableCell key={f.name} sx={{ fontWeight: 600 }}>
                {translate(f.label)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.key} data-testid={`json-row-${r.key}`}>
              <TableCell sx={{ color: 'text.secondary' }}>{captionOf(r.field, translate, exists)}</TableCell>
              {fields.map((f, i) => {
                const v = values[i];
                const has = !!v && r.key in v;
                const other = pair ? values[1 - i]?.[r.key] : undefined;
                return (
                  <TableCell
                    key={f.name}
                    data-testid={`json-cell-${f.name}`}
                    sx={pair && has ? { bgcolor: i === 0 ? 'rgba(211, 47, 47, 0.05)' : 'rgba(46, 125, 50, 0.06)' } : undefined}
                  >
                    {has ? (
                      <AuditValue
                        field={r.field}
                        value={v![r.key]}
                        other={other}
                        side={pair ? (i === 0 ? 'before' : 'after') : undefined}
                        view={view}
                      />
                    ) : (
                      <Typography component="span" color="text.disabled">
                        —
                      </Typography>
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
