import { useState } from 'react';
import {
  Alert,
  Box,
  Card,
  CardContent,
  CircularProgress,
  Grid,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { useFetch, errorMessage } from '../api/useFetch';
import type { EntityMeta } from '../meta/types';
import { formatNumber, todayTashkent } from '../generic/format';

interface Balance {
  subject_id: number;
  year: number;
  /** the years with any money of the subject's (payments, accruals, fines, penya), newest first */
  years: number[];
  balance_start: string;
  paid_in_year: string;
  accrued_in_year: string;
  fines_in_year: string;
  late_fines_in_year: string;
  penya_in_year: string;
  balance_end: string;
  by_income_code: { income_code: string; amount: string; budget: string; fund: string; organisation: string }[];
}

/** Adds decimal strings exactly (tiyin as BigInt). */
function sum(values: string[]): string {
  let t = 0n;
  for (const v of values) {
    const [i, f = ''] = String(v || '0').split('.');
    const neg = i.startsWith('-');
    const n = BigInt(i.replace('-', '') + (f + '00').slice(0, 2));
    t += neg ? -n : n;
  }
  const neg = t < 0n;
  const s = (neg ? -t : t).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  // a balance below zero is what the subject owes
  const owes = value.startsWith('-');
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {label}
        </Typography>
        <Typography
          variant="h6"
          sx={{ fontWeight: 600, whiteSpace: 'nowrap', color: owes ? 'error.dark' : undefined }}
          data-testid={testId}
        >
          {formatNumber(value, 2)}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** The year's movements: what came in (+) and what was charged (−), between the balance at its start and at its end. */
const MOVEMENTS = [
  { key: 'paid_in_year', label: 'admin.balance.paid', sign: '+', testId: 'balance-paid' },
  { key: 'accrued_in_year', label: 'admin.balance.accrued', sign: '−', testId: 'balance-accrued' },
  { key: 'fines_in_year', label: 'admin.balance.fines', sign: '−', testId: 'balance-fines' },
  { key: 'late_fines_in_year', label: 'admin.balance.late_fines', sign: '−', testId: 'balance-late-fines' },
  { key: 'penya_in_year', label: 'admin.balance.penya', sign: '−', testId: 'balance-penya' },
] as const;

/**
 * A subject's balance for a chosen year (`GET …/subject/:id/balance?year=`), the server's one
 * definition of it (the reports show the same figure): the balance at the year's start and end —
 * confirmed payments less compensation accrued by accepted reports, protocols' fines, late-report
 * fines and penya — the year's movement of each, and the year's payments by income code with their
 * split between the budget, the fund and the organisation. It opens on the newest year with any of
 * them (the server's choice when no year is asked), or says there are none yet.
 */
export function SubjectBalance({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const current = Number(todayTashkent().slice(0, 4));
  // undefined: the server's choice, the newest year with payments
  const [chosen, setYear] = useState<number | undefined>();
  const { data, error, loading } = useFetch<Balance>(
    record ? `${entity.path}/${record.id}/balance${chosen ? `?year=${chosen}` : ''}` : null,
    record?.version,
  );
  const year = chosen ?? data?.year ?? '';
  const years = [...new Set([...(data?.years ?? []), ...Array.from({ length: 10 }, (_, i) => current - i)])].sort((a, b) => b - a);
  const none = !!data && !data.years.length;
  const rows = data?.by_income_code ?? [];
  return (
    <Box data-testid="subject-balance">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2 }}>
        <TextField
          select
          size="small"
          label={translate('admin.balance.year')}
          value={year}
          onChange={(e) => setYear(Number(e.target.value))}
          sx={{ width: 140 }}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'balance-year' } as never } }}
        >
          {years.map((y) => (
            <MenuItem key={y} value={y} data-testid={`balance-year-${y}`}>
              {y}
            </MenuItem>
          ))}
        </TextField>
        {loading && <CircularProgress size={20} />}
      </Box>
      {none && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="balance-none">
          {translate('admin.balance.none')}
        </Alert>
      )}
      {error && <Alert severity="error">{errorMessage(error)}</Alert>}
      {data && (
        <>
          <Grid container spacing={2} sx={{ mb: 1 }}>
            <Grid size={{ xs: 12, md: 4 }}>
              <Stat label={translate('admin.balance.start', { year: data.year })} value={data.balance_start} testId="balance-start" />
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <Stat label={translate('admin.balance.end', { year: data.year })} value={data.balance_end} testId="balance-end" />
            </Grid>
          </Grid>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="balance-rule">
            {translate('admin.balance.rule')}
          </Typography>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
            {translate('admin.balance.movements', { year: data.year })}
          </Typography>
          <Box sx={{ overflowX: 'auto', mb: 3, maxWidth: 720 }}>
            <Table size="small" data-testid="balance-movements">
              <TableBody>
                {MOVEMENTS.map((m) => (
                  <TableRow key={m.key}>
                    <TableCell>{translate(m.label, { year: data.year })}</TableCell>
                    <TableCell align="right" sx={{ width: 24, color: 'text.secondary' }} aria-hidden>
                      {m.sign}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap', width: 180 }} data-testid={m.testId}>
                      {formatNumber(data[m.key], 2)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
            {translate('admin.balance.by_code')}
          </Typography>
          {!rows.length ? (
            <Typography color="text.secondary" data-testid="balance-empty">
              {translate('admin.empty.no_payments')}
            </Typography>
          ) : (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" data-testid="balance-by-code">
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('fields.income_code')}</TableCell>
                    <TableCell align="right">{translate('fields.amount')}</TableCell>
                    <TableCell align="right">{translate('fields.budget')}</TableCell>
                    <TableCell align="right">{translate('fields.fund')}</TableCell>
                    <TableCell align="right">{translate('fields.organisation')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((r) => (
                    <TableRow key={r.income_code} data-testid={`balance-code-${r.income_code}`}>
                      <TableCell>{r.income_code}</TableCell>
                      <TableCell align="right">{formatNumber(r.amount, 2)}</TableCell>
                      <TableCell align="right">{formatNumber(r.budget, 2)}</TableCell>
                      <TableCell align="right">{formatNumber(r.fund, 2)}</TableCell>
                      <TableCell align="right">{formatNumber(r.organisation, 2)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
                {rows.length > 1 && (
                  <TableFooter sx={{ '& td': { fontSize: '0.875rem', color: 'text.primary' } }}>
                    <TableRow>
                      <TableCell sx={{ fontWeight: 600 }}>{translate('admin.balance.total')}</TableCell>
                      {(['amount', 'budget', 'fund', 'organisation'] as const).map((k) => (
                        <TableCell key={k} align="right" sx={{ fontWeight: 600 }}>
                          {formatNumber(sum(rows.map((r) => r[k])), 2)}
                        </TableCell>
                      ))}
                    </TableRow>
                  </TableFooter>
                )}
              </Table>
            </Box>
          )}
        </>
      )}
    </Box>
  );
}
