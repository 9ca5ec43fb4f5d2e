import {
  Alert,
  Box,
  Card,
  CardContent,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { errorMessage, useFetch } from '../api/useFetch';
import { i18n } from '../i18n';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import { captionOf, changesOf, entityOfEntry, whatKey, type AuditEntry } from './audit';
import { AuditValue } from './AuditValue';
import { MetaField } from './MetaField';
import { formatDateTime } from './format';

const exists = (k: string) => i18n.exists(k);

/**
 * A row's audit trail (`GET path/:id/history`), newest first, on the History tab of its page:
 * when (Tashkent time), who, what (the workflow action, the named change, or created / edited /
 * deleted) and each changed field as "caption: before → after", values as the list shows them.
 * Asked again whenever the row's version changes (after an edit or an action). Generic: the
 * captions and formats are those of the metadata of the entity each change was made to.
 */
export function RecordHistory({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const narrow = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const { data, error, loading } = useFetch<AuditEntry[]>(record ? `${entity.path}/${record.id}/history` : null, record?.version);
  if (!record) return null;
  const who = (h: AuditEntry) => h.user_fio || h.username || translate('admin.history.system');
  return (
    <Box data-testid="record-history">
      {loading && <LinearProgress sx={{ mb: 1 }} />}
      {error && <Alert severity="error">{errorMessage(error)}</Alert>}
      {data && !data.length && (
        <Typography color="text.secondary" sx={{ py: 2 }} data-testid="history-empty">
          {translate('admin.empty.no_data')}
        </Typography>
      )}
      {data && data.length > 0 && narrow && (
        // a phone: each change a card of its own
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          {data.map((h) => (
            <Card key={h.id} variant="outlined" data-testid="history-row" data-op={h.op}>
              <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
                <Typography variant="subtitle2" sx={{ fontWeight: 600 }} data-testid="history-what">
                  <What entry={h} entity={entity} />
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  <span data-testid="history-date">{formatDateTime(h.created_at)}</span> · <span data-testid="history-user">{who(h)}</span>
                </Typography>
                <Changes entry={h} entity={entity} />
              </CardContent>
            </Card>
          ))}
        </Box>
      )}
      {data && data.length > 0 && !narrow && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" sx={{ '& td': { verticalAlign: 'top' } }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ fontWeight: 600 }}>{translate('admin.history.date')}</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>{translate('admin.history.user')}</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>{translate('admin.history.what')}</TableCell>
                <TableCell sx={{ fontWeight: 600, width: '55%' }}>{translate('admin.history.changes')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((h) => (
                <TableRow key={h.id} data-testid="history-row" data-op={h.op}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }} data-testid="history-date">
                    {formatDateTime(h.created_at)}
                  </TableCell>
                  <TableCell data-testid="history-user">{who(h)}</TableCell>
                  <TableCell data-testid="history-what">
                    <What entry={h} entity={entity} />
                  </TableCell>
                  <TableCell>
                    <Changes entry={h} entity={entity} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
}

/** What the change did, by the metadata of the entity it was made to. */
function What({ entry, entity }: { entry: AuditEntry; entity: EntityMeta }) {
  const model = useMeta();
  const translate = useTranslate();
  const key = whatKey(entityOfEntry(model, entry.entity, entity), entry.op, entry.action, exists);
  return <>{exists(key) ? translate(key) : translate(`enums.op.${entry.op}`)}</>;
}

/** Each changed field on a line: "caption: before → after" (only the value after on create, before on delete). */
function Changes({ entry, entity }: { entry: AuditEntry; entity: EntityMeta }) {
  const model = useMeta();
  const translate = useTranslate();
  const changes = changesOf(model, entityOfEntry(model, entry.entity, entity), entry.before, entry.after);
  if (!changes.length)
    return (
      <Typography component="span" color="text.disabled">
        —
      </Typography>
    );
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
      {changes.map((c) => (
        <Box
          key={c.key}
          sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 0.75, minWidth: 0 }}
          data-testid="history-change"
          data-field={c.key}
        >
          <Typography component="span" variant="body2" sx={{ fontWeight: 600 }}>
            {captionOf(c.field, translate, exists)}:
          </Typography>
          {entry.before && (
            <Box component="span" sx={{ color: entry.after ? 'text.secondary' : undefined, minWidth: 0 }} data-testid="history-before">
              <AuditValue field={c.field} value={c.before} other={c.after} side={entry.after ? 'before' : undefined} view={MetaField} />
            </Box>
          )}
          {entry.before && entry.after && (
            <Typography component="span" color="text.secondary" aria-hidden>
              →
            </Typography>
          )}
          {entry.after && (
            <Box component="span" sx={{ minWidth: 0 }} data-testid="history-after">
              <AuditValue field={c.field} value={c.after} other={c.before} side={entry.before ? 'after' : undefined} view={MetaField} />
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}
