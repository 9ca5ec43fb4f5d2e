import { lazy, Suspense } from 'react';
import { Box, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import PentagonOutlinedIcon from '@mui/icons-material/PentagonOutlined';
import CloseIcon from '@mui/icons-material/Close';
import {
  ReferenceArrayField,
  ReferenceField,
  RecordContextProvider,
  useListContext,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useMeta } from '../meta/store';
import type { EntityMeta, FieldMeta } from '../meta/types';
import { i18n } from '../i18n';
import type { MetaFieldProps } from './MetaFieldProps';
import { useLang } from './useLang';
import { FilesField } from './FilesField';
import { entityOfEntry, jsonSummary } from './audit';
import { JsonTable } from './JsonTable';
import { RecordName } from './RecordName';
import { RecordTitle } from './RecordTitle';
import {
  formatCoordinate,
  formatDate,
  formatDateTime,
  formatDecimal,
  formatNumber,
  formatPassport,
  formatPhone,
  text3,
  truncate,
} from './format';
import { isPlainInteger } from '../../../shared/numbers';
import { FlagBadge } from './FlagBadge';
import { LoadingText } from './LoadingText';
import { FormValuesView } from './FormValuesView';

/** A polygon's small map, with OpenLayers in a chunk of its own: loaded when a page shows one. */
const PolygonView = lazy(() => import('./PolygonView').then((m) => ({ default: m.PolygonView })));

function get(record: RaRecord | undefined, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), record);
}

/** The words of rich text: tags dropped, blocks apart, entities read. */
function htmlText(html: string): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(html.replace(/<\/(p|h[1-6]|li|blockquote)>/gi, '$&\n'), 'text/html');
  return (doc.body.textContent ?? '').replace(/\n{2,}/g, '\n').trim();
}

/**
 * A list cell's text: it wraps within a column of at most about 24 characters and shows at most two
 * lines, cut with an ellipsis (the whole text shows on hover), so that a list fits its screen; a
 * page shows it whole.
 */
function Clipped({ text, inList, max = 80, ch = 24 }: { text: string; inList?: boolean; max?: number; ch?: number }) {
  if (!inList) return <span style={{ whiteSpace: 'pre-wrap' }}>{text}</span>;
  const shown = <span style={{ ...LIST_TEXT, maxWidth: `${ch}ch` }}>{truncate(text, max)}</span>;
  return text.length <= 40 ? shown : <Tooltip title={text}>{shown}</Tooltip>;
}
const LIST_TEXT = {
  display: '-webkit-box',
  WebkitLineClamp: 2,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
  whiteSpace: 'normal',
  overflowWrap: 'break-word',
  maxWidth: '24ch',
  minWidth: '6ch',
} as const;

/** Shows one value of the current record by its field kind. */
export function MetaField({ field, inList }: MetaFieldProps) {
  const record = useRecordContext();
  const lang = useLang();
  const translate = useTranslate();
  const model = useMeta();
  if (!record) return null;
  const v = get(record, field.name);
  const empty = v === null || v === undefined || v === '';
  switch (field.type) {
    case 'text3':
      // rich text is shown as its words (the server keeps it to an allow-list; the page shows no markup)
      return <Clipped text={field.html ? htmlText(text3(v, lang)) : text3(v, lang)} inList={inList} />;
    case 'string':
      if (empty) return null;
      if (field.format === 'phone') return <span style={{ whiteSpace: 'nowrap' }}>{formatPhone(v)}</span>;
      if (field.format === 'passport') return <span style={{ whiteSpace: 'nowrap' }}>{formatPassport(v)}</span>;
      return <Clipped text={String(v)} inList={inList} />;
    case 'text':
      return empty ? null : <Clipped text={String(v)} inList={inList} max={60} />;
    case 'integer':
      // quantities grouped ("5 333 000"), years and codes as they are (shared/numbers.ts)
      return empty ? null : <span style={{ whiteSpace: 'nowrap' }}>{isPlainInteger(field.name) ? String(v) : formatNumber(v, 0)}</span>;
    case 'decimal':
      return empty ? null : <span style={{ whiteSpace: 'nowrap' }}>{formatDecimal(v)}</span>;
    case 'money':
      return empty ? null : <span style={{ whiteSpace: 'nowrap' }}>{formatNumber(v, 2)}</span>;
    case 'boolean':
      if (empty) return null;
      if (field.badge) return <FlagBadge field={field} value={v} />;
      return v ? (
        <CheckIcon fontSize="small" color="success" titleAccess={translate('ra.boolean.true')} data-value="true" />
      ) : (
        <CloseIcon fontSize="small" color="disabled" titleAccess={translate('ra.boolean.false')} data-value="false" />
      );
    case 'date':
      return empty ? null : <span style={{ whiteSpace: 'nowrap' }}>{formatDate(v)}</span>;
    case 'datetime':
      return empty ? null : <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span>;
    case 'enum':
      return empty ? null : <span>{translate(`enums.${field.name}.${String(v)}`)}</span>;
    case 'ref': {
      const reference = model.resourceOf(field.ref);
      if (empty) return null;
      if (!reference) return <span>#{String(v)}</span>;
      // a document (a subject, a stack, a report) opens its page; a reference book's value is just text
      const target = model.byName.get(field.ref!);
      return (
        <ReferenceField
          source={field.name}
          reference={reference}
          link={target?.kind === 'document' ? (r) => model.showPath(reference, r.id) : false}
        >
          <RecordTitle entity={target} />
        </ReferenceField>
      );
    }
    case 'refs': {
      const reference = model.resourceOf(field.ref);
      if (!Array.isArray(v) || !v.length) return null;
      if (!reference) return <span>{v.join(', ')}</span>;
      return (
        <ReferenceArrayField source={field.name} reference={reference}>
          <RefChips entity={model.byName.get(field.ref!)} />
        </ReferenceArrayField>
      );
    }
    case 'file':
    case 'image':
    case 'files':
      return <FilesField field={field} value={v} inList={inList} />;
    case 'point': {
      const p = v as { lat?: number; lng?: number } | null;
      return p && typeof p.lat === 'number' && typeof p.lng === 'number' ? (
        <span style={{ whiteSpace: 'nowrap' }}>
          {formatCoordinate(p.lat)}, {formatCoordinate(p.lng)}
        </span>
      ) : null;
    }
    case 'polygon': {
      const n = Array.isArray(v) ? v.length : 0;
      if (!n) return null;
      // a list cell says only that there is one, and of how many corners; a page draws it
      if (inList) {
        return (
          <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap' }} data-points={n}>
            <PentagonOutlinedIcon fontSize="small" color="success" aria-hidden />
            <span>{n}</span>
          </Box>
        );
      }
      return (
        <Suspense fallback={<LoadingText text={translate('admin.map.loading')} />}>
          <PolygonView value={v} />
        </Suspense>
      );
    }
    case 'password':
      return null;
    case 'json': {
      // a list cell says the keys and values in a line; a page, a table of them (a form's, captioned by its schema)
      if (empty) return null;
      if (field.form && !inList) return <FormValuesView field={field} />;
      if (!inList) return <JsonTable fields={[field]} view={MetaField} />;
      const summary = jsonSummary(model, entityOfEntry(model, record.entity), v, lang, translate, (k) => i18n.exists(k));
      // a summary of changed values is a glimpse (the row's page shows them whole): narrower than text,
      // so that the audit log's two of them leave its other columns room at 1400 px
      return <Clipped text={summary} inList ch={16} />;
    }
    case 'children': {
      const rows = Array.isArray(v) ? (v as RaRecord[]) : [];
      if (inList) return <span>{rows.length}</span>;
      return <ChildrenTable field={field} rows={rows} />;
    }
    default:
      return empty ? null : <span>{String(v)}</span>;
  }
}

function RefChips({ entity }: { entity?: EntityMeta }) {
  const { data } = useListContext();
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
      {(data ?? []).map((r) => (
        <Chip key={r.id} size="small" label={<RecordName entity={entity} record={r} />} />
      ))}
    </Stack>
  );
}

function ChildrenTable({ field, rows }: { field: FieldMeta; rows: RaRecord[] }) {
  const translate = useTranslate();
  const cols = (field.fields ?? []).filter((f) => !f.hidden);
  if (!rows.length)
    return (
      <Typography variant="body2" color="text.secondary" data-testid={`children-empty-${field.name}`}>
        {translate(field.empty ?? 'admin.children.empty')}
      </Typography>
    );
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small">
        <TableHead>
          <TableRow>
            {cols.map((c) => (
              <TableCell key={c.name}>{translate(c.label)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r, i) => (
            <RecordContextProvider key={r.id ?? i} value={r}>
              <TableRow>
                {cols.map((c) => (
                  <TableCell key={c.name}>
                    <MetaField field={c} source={c.name} inList />
                  </TableCell>
                ))}
              </TableRow>
            </RecordContextProvider>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
