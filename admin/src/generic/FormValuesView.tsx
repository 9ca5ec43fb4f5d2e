import { Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { FieldMeta } from '../meta/types';
import { useFormSchema } from './formSchema';
import { formatDate } from './format';

/**
 * A form's values on a record's page: each field's caption and value as the form shows them (an
 * option's caption, yes / no, a date), in the form's order; values of fields no longer defined
 * follow under their codes.
 */
export function FormValuesView({ field }: { field: FieldMeta }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const { data } = useFormSchema(field, record?.[field.form!.by]);
  const values = (record?.[field.name] ?? {}) as Record<string, unknown>;
  const props = data?.schema.properties ?? {};
  const order = ((data?.uiSchema['ui:order'] as string[] | undefined) ?? Object.keys(props)).filter((c) => c !== '*');
  const codes = [...order.filter((c) => c in values), ...Object.keys(values).filter((c) => !order.includes(c))];
  if (!codes.length)
    return (
      <Typography variant="body2" color="text.secondary">
        —
      </Typography>
    );
  const show = (code: string, v: unknown): string => {
    const p = props[code] ?? {};
    const names = ((data?.uiSchema[code] as Record<string, unknown> | undefined)?.['ui:enumNames'] ?? []) as string[];
    const option = (x: unknown) => {
      const list = (p.enum ?? (p.items as { enum?: unknown[] } | undefined)?.enum ?? []) as unknown[];
      const i = list.indexOf(x);
      return i >= 0 && names[i] ? names[i] : String(x);
    };
    if (typeof v === 'boolean') return translate(v ? 'ra.boolean.true' : 'ra.boolean.false');
    if (Array.isArray(v)) return v.map(option).join(', ');
    if (p.format === 'date' && typeof v === 'string') return formatDate(v);
    return option(v);
  };
  return (
    <Table size="small" sx={{ maxWidth: 720 }}>
      <TableBody>
        {codes.map((code) => (
          <TableRow key={code}>
            <TableCell component="th" sx={{ color: 'text.secondary', width: '45%' }}>
              {String(props[code]?.title ?? code)}
            </TableCell>
            <TableCell>{show(code, values[code])}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
