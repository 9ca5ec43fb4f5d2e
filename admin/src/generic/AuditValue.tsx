import { Box, Typography } from '@mui/material';
import type { ComponentType } from 'react';
import { RecordContextProvider, useTranslate } from 'react-admin';
import { i18n } from '../i18n';
import type { FieldMeta } from '../meta/types';
import type { MetaFieldProps } from './MetaFieldProps';
import { useLang } from './useLang';
import {
  changedElsewhere,
  HIDDEN_VALUE,
  htmlText,
  idsNotIn,
  isEmptyValue,
  keyFieldOf,
  looksHtml,
  objectLines,
  plainValue,
  showsDelta,
} from './audit';
import { useMeta } from '../meta/store';

const exists = (k: string) => i18n.exists(k);

/**
 * One value of the audit trail (a field before or after a change) as the list shows it: a
 * reference by its title, an enum by its caption, money with two decimals and spaced thousands,
 * dates in Tashkent's calendar, a flag as yes or no; a password as dots; nothing as a dash.
 *
 * `other` is the value on the change's other side: of two long lists of references only what one
 * has and the other does not is shown (`+` added on the after side, `−` taken away on the before
 * side), with how many stayed.
 *
 * `view` shows a value as the list does (MetaField, handed in by the caller: MetaField shows a
 * JSON value as a JsonTable of AuditValues, so this file does not import it).
 */
export function AuditValue({
  field,
  value,
  other,
  side,
  view,
}: {
  field: FieldMeta;
  value: unknown;
  other?: unknown;
  side?: 'before' | 'after';
  view: ComponentType<MetaFieldProps>;
}) {
  const translate = useTranslate();
  const lang = useLang();
  const model = useMeta();
  if (isEmptyValue(value))
    return (
      <Typography component="span" color="text.disabled" data-value="empty">
        —
      </Typography>
    );
  if (value === HIDDEN_VALUE || field.type === 'password') return <span>{HIDDEN_VALUE}</span>;
  if (field.type === 'boolean') return <span>{translate(value ? 'ra.boolean.true' : 'ra.boolean.false')}</span>;
  // a three-language text changed in another language than the one shown: that language's words, named
  const otherLangs = side ? changedElsewhere(value, other, lang) : [];
  if (otherLangs.length)
    return (
      <Box component="span" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-value="text3-langs">
        {otherLangs
          .map((l) => {
            const text = looksHtml((value as Record<string, unknown>)[l])
              ? htmlText(String((value as Record<string, unknown>)[l]))
              : String((value as Record<string, unknown>)[l] ?? '—');
            return `${translate(`admin.lang.${l}`)}: ${text.length > LONG_TEXT ? `${text.slice(0, LONG_TEXT)}…` : text}`;
          })
          .join('\n')}
      </Box>
    );
  if (field.type === 'json') {
    // an object of keys a line each ("caption: value"), a three-language text in the language shown
    const text3Like = isText3(value);
    const text =
      typeof value === 'object' && !text3Like
        ? objectLines(value, lang, translate, exists, keyFieldOf(model, undefined)).join('\n')
        : plainValue(field, value, lang, translate, exists);
    return (
      <Box component="span" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-value="json">
        {text}
      </Box>
    );
  }
  // rich text (HTML kept by the server) as its words, never its tags
  if (looksHtml(value) || (field.html && field.type === 'text3')) {
    const text = field.type === 'text3' ? plainValue(field, value, lang, translate, exists) : htmlText(String(value));
    return (
      <Box component="span" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-value="html">
        {text.length > LONG_TEXT ? `${text.slice(0, LONG_TEXT)}…` : text}
      </Box>
    );
  }
  if (side && showsDelta(field, value, other)) {
    const own = idsNotIn(value, other);
    const kept = (value as unknown[]).length - own.length;
    return (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.5 }}>
        {own.length > 0 && (
          <Typography component="span" sx={{ fontWeight: 600, color: side === 'after' ? 'success.main' : 'error.main' }}>
            {side === 'after' ? '+' : '−'}
          </Typography>
        )}
        {own.length > 0 && <Shown field={field} value={own} view={view} />}
        {kept > 0 && (
          <Typography component="span" variant="body2" color="text.secondary">
            ({translate('admin.history.unchanged', { count: kept })})
          </Typography>
        )}
      </Box>
    );
  }
  // long text (a signature, a description) is cut with an ellipsis, whole on hover (spec §9)
  if (typeof value === 'string' && value.length > LONG_TEXT) {
    return <Box component="span" title={value} sx={{ overflowWrap: 'anywhere' }} data-value="long">{`${value.slice(0, LONG_TEXT)}…`}</Box>;
  }
  return <Shown field={field} value={value} view={view} />;
}

const isText3 = (v: unknown) =>
  !!v &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.keys(v).length > 0 &&
  Object.keys(v).every((k) => k === 'uz' || k === 'uk' || k === 'ru');

/** Text longer than this is shown cut in the trail. */
const LONG_TEXT = 160;

/** Kinds whose page view is too big for a line of the trail: a list cell says them (a count, a small icon). */
const AS_CELL = new Set(['polygon', 'children', 'file', 'files', 'image']);

/** The value in a row of its own, shown as the list shows its field kind; text whole and wrapped. */
function Shown({ field, value, view: View }: { field: FieldMeta; value: unknown; view: ComponentType<MetaFieldProps> }) {
  return (
    <RecordContextProvider value={{ id: `audit-${field.name}`, [field.name]: value }}>
      <Box
        component="span"
        sx={{ display: 'inline-flex', verticalAlign: 'middle', maxWidth: '100%', minWidth: 0, overflowWrap: 'anywhere' }}
      >
        <View field={field} source={field.name} inList={AS_CELL.has(field.type)} />
      </Box>
    </RecordContextProvider>
  );
}
