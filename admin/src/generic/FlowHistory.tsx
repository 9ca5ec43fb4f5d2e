import {
  Alert,
  Box,
  Card,
  CardContent,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import HistoryIcon from '@mui/icons-material/History';
import { useRecordContext, useTranslate } from 'react-admin';
import { useFetch, errorMessage } from '../api/useFetch';
import { i18n } from '../i18n';
import type { EntityMeta } from '../meta/types';
import { formatDateTime } from './format';

interface Flow {
  id: number;
  action: string;
  from_state: string | null;
  to_state: string | null;
  comment: string | null;
  created_at: string;
  user_fio: string | null;
  username: string | null;
}

/**
 * A row's workflow history (`GET path/:id/flows`), oldest first: when, which action, from which
 * state to which, who, and the comment. Asked again whenever the row's version changes (after an
 * action). "No flows" when there is none (spec §8).
 */
export function FlowHistory({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const wf = entity.workflow;
  const { data, error, loading } = useFetch<Flow[]>(record && wf ? `${entity.path}/${record.id}/flows` : null, record?.version);
  if (!record || !wf) return null;
  const actionLabel = (name: string) => {
    const a = wf.actions.find((x) => x.name === name);
    const key = a?.label ?? `actions.${name}`;
    return i18n.exists(key) ? translate(key) : name;
  };
  const stateLabel = (s: string | null) => {
    if (!s) return '';
    const key = `enums.${wf.field}.${s}`;
    return i18n.exists(key) ? translate(key) : s;
  };
  return (
    <Card variant="outlined" sx={{ mt: 2 }} data-testid="flow-history">
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
          <HistoryIcon color="action" fontSize="small" />
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {translate('admin.flows.title')}
          </Typography>
          {loading && <CircularProgress size={16} />}
        </Box>
        {error && <Alert severity="error">{errorMessage(error)}</Alert>}
        {data && !data.length && (
          <Typography color="text.secondary" data-testid="flows-empty">
            {translate('admin.empty.no_flows')}
          </Typography>
        )}
        {data && data.length > 0 && (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('admin.flows.date')}</TableCell>
                  <TableCell>{translate('admin.flows.action')}</TableCell>
                  <TableCell>{translate('admin.flows.state')}</TableCell>
                  <TableCell>{translate('admin.flows.user')}</TableCell>
                  <TableCell>{translate('admin.flows.comment')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.map((f) => (
                  <TableRow key={f.id} data-testid="flow-row">
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(f.created_at)}</TableCell>
                    <TableCell>{actionLabel(f.action)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {f.from_state === f.to_state ? stateLabel(f.to_state) : `${stateLabel(f.from_state)} → ${stateLabel(f.to_state)}`}
                    </TableCell>
                    <TableCell>{f.user_fio || f.username || ''}</TableCell>
                    <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{f.comment ?? ''}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
