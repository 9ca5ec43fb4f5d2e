import { useState } from 'react';
import {
  Alert,
  Box,
  Button as MuiButton,
  Card,
  CardContent,
  CircularProgress,
  Grid,
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import CalculateIcon from '@mui/icons-material/Calculate';
import { ArrayInput, Form, HttpError, ResourceContextProvider, SimpleFormIterator, Title, useNotify, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { request } from '../api/http';
import { errorMessage } from '../api/useFetch';
import { useMeta } from '../meta/store';
import type { FieldMeta } from '../meta/types';
import { MetaInput } from '../generic/inputs';
import { formatDate, formatNumber, todayTashkent } from '../generic/format';

interface Result {
  report_date: string;
  base_value: string;
  base_value_since: string;
  lines: { pollutant: string; multiples: string; amount: string }[];
  total_multiples: string;
  amount: string;
}

/** What the calculator asks, as a report's ingredients are declared (used when the reports are not the user's to read). */
const DEFAULT_DATE: FieldMeta = { name: 'report_date', type: 'date', label: 'fields.report_date', required: true };
const DEFAULT_LINES: FieldMeta[] = [
  { name: 'pollutant', type: 'string', label: 'fields.pollutant', required: true, maxLength: 255 },
  { name: 'mass', type: 'decimal', label: 'fields.mass', required: true, scale: 6, min: 0 },
  { name: 'norm', type: 'decimal', label: 'fields.norm', required: true, scale: 6, min: 0 },
  { name: 'coefficient1', type: 'decimal', label: 'fields.coefficient1', scale: 6, min: 0, default: '1' },
  { name: 'coefficient2', type: 'decimal', label: 'fields.coefficient2', scale: 6, min: 0, default: '1' },
];

/**
 * The ecological calculator (`#/ecofund/ecologic-calculator`): pollutants with their mass, norm
 * and coefficients and a date → `POST /api/ecofund/ecologic-calculator` → the base value in
 * force on that date, each line's amount and the total, with two decimals and space-separated
 * thousands. Nothing is saved. The inputs are the report's ingredient fields of the metadata.
 */
export function EcologicCalculator() {
  const translate = useTranslate();
  const notify = useNotify();
  const model = useMeta();
  const { pathname } = useLocation();
  const route = model.routeFor(pathname);
  const reports = model.byName.get('subject-report-yearly');
  const date = { ...(reports?.fields.find((f) => f.name === 'report_date') ?? DEFAULT_DATE), max: undefined };
  const lineFields = (reports?.fields.find((f) => f.name === 'ingredients')?.fields ?? DEFAULT_LINES).filter(
    (f) => !f.readOnly && !f.computedBy && !f.hidden,
  );
  const [result, setResult] = useState<{ input: Record<string, unknown>[]; out: Result } | null>(null);
  const [busy, setBusy] = useState(false);
  const lineDefaults = Object.fromEntries(lineFields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default]));

  const submit = async (values: Record<string, unknown>) => {
    setBusy(true);
    try {
      const ingredients = ((values.ingredients ?? []) as Record<string, unknown>[]).map((l) => ({
        ...lineDefaults,
        ...Object.fromEntries(Object.entries(l).filter(([, v]) => v !== '' && v !== null && v !== undefined)),
      }));
      const res = await request('/api/ecofund/ecologic-calculator', {
        method: 'POST',
        body: { report_date: values.report_date, ingredients },
      });
      setResult({ input: ingredients, out: (await res.json()) as Result });
      return undefined;
    } catch (err) {
      const m = errorMessage(err);
      notify(m, { type: 'error', messageArgs: { _: m } });
      setResult(null);
      return err instanceof HttpError ? (err.body?.errors as Record<string, unknown> | undefined) : undefined;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ mt: 2 }} data-testid="page-screen-ecologic-calculator">
      <Title title={route?.caption ?? 'menu.ecologic_calculator'} />
      <Card>
        <CardContent>
          {/* the form's inputs are named as a report's; the route is their resource */}
          <ResourceContextProvider value={route?.path ?? 'ecofund/ecologic-calculator'}>
            <Form
              onSubmit={(v: Record<string, unknown>) => submit(v)}
              defaultValues={{ report_date: todayTashkent(), ingredients: [{ ...lineDefaults }] }}
            >
              <Box sx={{ maxWidth: 260 }}>
                <MetaInput field={date} mode="create" />
              </Box>
              <ArrayInput source="ingredients" label="fields.ingredients">
                <SimpleFormIterator inline disableReordering>
                  {lineFields.map((f) => (
                    <MetaInput key={f.name} source={f.name} defaultValue={f.default} field={f} mode="create" />
                  ))}
                </SimpleFormIterator>
              </ArrayInput>
              <MuiButton
                type="submit"
                variant="contained"
                startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <CalculateIcon />}
                disabled={busy}
                sx={{ mt: 1 }}
                data-testid="calculate"
              >
                {translate('admin.calculator.calculate')}
              </MuiButton>
            </Form>
          </ResourceContextProvider>
        </CardContent>
      </Card>
      {result && <CalculatorResult input={result.input} out={result.out} />}
    </Box>
  );
}

function CalculatorResult({ input, out }: { input: Record<string, unknown>[]; out: Result }) {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }} data-testid="calculator-result">
      <CardContent>
        <Grid container spacing={2} sx={{ mb: 2 }}>
          <Grid size={{ xs: 12, md: 6 }}>
            <Typography variant="body2" color="text.secondary">
              {translate('fields.base_value')}
            </Typography>
            <Typography variant="h6" sx={{ fontWeight: 600 }} data-testid="calculator-base">
              {formatNumber(out.base_value, 2)}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {translate('admin.calculator.since', { date: formatDate(out.base_value_since) })}
            </Typography>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Typography variant="body2" color="text.secondary">
              {translate('admin.calculator.total')}
            </Typography>
            <Typography variant="h5" sx={{ fontWeight: 700 }} color="primary" data-testid="calculator-total">
              {formatNumber(out.amount, 2)}
            </Typography>
          </Grid>
        </Grid>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell>{translate('fields.pollutant')}</TableCell>
                <TableCell align="right">{translate('fields.mass')}</TableCell>
                <TableCell align="right">{translate('fields.norm')}</TableCell>
                <TableCell align="right">{translate('fields.coefficient1')}</TableCell>
                <TableCell align="right">{translate('fields.coefficient2')}</TableCell>
                <TableCell align="right">{translate('fields.compensation_amount')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {out.lines.map((l, i) => (
                <TableRow key={i} data-testid="calculator-line">
                  <TableCell>{i + 1}</TableCell>
                  <TableCell>{l.pollutant}</TableCell>
                  <TableCell align="right">{String(input[i]?.mass ?? '')}</TableCell>
                  <TableCell align="right">{String(input[i]?.norm ?? '')}</TableCell>
                  <TableCell align="right">{String(input[i]?.coefficient1 ?? '1')}</TableCell>
                  <TableCell align="right">{String(input[i]?.coefficient2 ?? '1')}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {formatNumber(l.amount, 2)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
            <TableFooter sx={{ '& td': { fontSize: '0.875rem', color: 'text.primary' } }}>
              <TableRow>
                <TableCell colSpan={6} sx={{ fontWeight: 600 }}>
                  {translate('admin.calculator.total')}
                </TableCell>
                <TableCell align="right" sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
                  {formatNumber(out.amount, 2)}
                </TableCell>
              </TableRow>
            </TableFooter>
          </Table>
        </Box>
        {!out.lines.length && <Alert severity="info">{translate('admin.empty.no_data')}</Alert>}
      </CardContent>
    </Card>
  );
}
