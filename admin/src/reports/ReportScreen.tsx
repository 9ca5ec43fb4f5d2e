import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CircularProgress, TablePagination, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import InboxIcon from '@mui/icons-material/Inbox';
import PrintIcon from '@mui/icons-material/Print';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Title, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { describeError } from '../api/http';
import { errorMessage } from '../api/useFetch';
import { PARAMS_SEGMENT, type RouteInfo } from '../meta/model';
import { useMeta } from '../meta/store';
import { ChartBoundary } from './ChartBoundary';
import { ReportExportButton } from './ReportExportButton';
import { ReportParamsBar } from './ReportParamsBar';
import { ReportPageSize } from './ReportPageSize';
import { ReportTable } from './ReportTable';
import { paramLabelKey } from './paramLabels';
import { useReport } from './useReport';
import { useReportParams } from './useReportParams';
import { toQuery } from './params';
import { rememberReportTemplate, reportTemplate } from '../api/clientState';

/** Rows a page of a report's table may hold (the API's paging: `page`, `perPage`; totals are always of every row). */
export const REPORT_PAGE_SIZES = [25, 50, 100, 500];
const DEFAULT_PAGE_SIZE = 100;

/** Chart.js and its React wrapper: a chunk of their own, fetched when a report with a chart opens. */
const ReportChart = lazy(() => import('./ReportChart'));

function Loading({ text }: { text: string }) {
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 6, justifyContent: 'center', color: 'text.secondary' }}
      data-testid="report-loading"
    >
      <CircularProgress size={24} />
      <span>{text}</span>
    </Box>
  );
}

/**
 * A menu route's report (its `report`): the title; the parameters bar from the report's
 * declarations in /api/meta, kept in the URL; the chart (lazily loaded) and the table with totals
 * and drill links of `GET /api/reports/:name`, a page at a time (the row count and the totals of
 * every row come with each page); Excel of the same parameters, every row; print. Loading, no
 * data and failures are announced (role status / alert). A `:params` route (a drill's target)
 * takes its parameters from its segment.
 */
export function ReportScreen({ route }: { route: RouteInfo }) {
  const model = useMeta();
  const translate = useTranslate();
  const navigate = useNavigate();
  const meta = model.report(route.report);
  const { values, setValues, given } = useReportParams(route, meta?.params);
  // a required parameter with no value and no default (a detail's organisation): ask for it first
  const missing = Object.entries(meta?.params ?? {})
    .filter(([n, d]) => d.required && values[n] === undefined)
    .map(([n, d]) => translate(paramLabelKey(n, d)));
  // the table's page: the API answers it with the row count and the totals of every row; new parameters start again at the first
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(DEFAULT_PAGE_SIZE);
  const valuesKey = toQuery(values);
  useEffect(() => {
    setPage(1);
  }, [valuesKey, route.report]);
  const { data, error, loading, reload } = useReport(missing.length ? undefined : route.report, values, { page, perPage });
  const title = data?.title || translate(meta?.caption ?? route.caption);
  const chart = data ? (data.chart === undefined ? meta?.chart : data.chart) : null;
  const rows = data?.rows ?? [];
  const isDetail = route.params.includes(PARAMS_SEGMENT);
  // the latest period that has data (api/reports/latest.ts): a year the URL does not name is moved to
  // it by the API; a year chosen stays, and the screen says it is empty with a link to that one
  const period = data?.period;
  const yearChosen = given.includes('year');
  // (the API itself opens a year not asked for on the latest one with figures: the screen does not
  // rewrite its URL when the answer comes, which raced a click on another menu item and took the
  // user back to this report)
  // the report template (client state): a report opened with no parameters in its URL takes the user's last choice
  useEffect(() => {
    const template = route.report && !given.length && !isDetail ? reportTemplate(route.report) : null;
    if (template) setValues({ ...values, ...template });
  }, [route.report]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (route.report && given.length)
      rememberReportTemplate(route.report, Object.fromEntries(given.filter((k) => values[k] !== undefined).map((k) => [k, values[k]])));
  }, [route.report, valuesKey]); // eslint-disable-line react-hooks/exhaustive-deps
  // a chart of nothing but zeros says nothing: an empty period draws none
  const charted =
    !!chart && chart.series?.length > 0 && !period?.empty && rows.some((row) => chart.series.some((s) => Number(row[s] ?? 0) !== 0));

  return (
    <Box sx={{ mt: 2, mb: 4 }} data-testid="page-screen-report" data-report={route.report}>
      {/* the app bar names the menu item, as every page does; the page's heading is the report's own title */}
      <Title title={translate(route.caption)} />
      <Card>
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 2 }}>
            {isDetail && (
              <Button
                size="small"
                startIcon={<ArrowBackIcon />}
                onClick={() => navigate(-1)}
                className="no-print"
                data-testid="report-back"
              >
                {translate('admin.action.back')}
              </Button>
            )}
            <Typography variant="h5" component="h1" sx={{ flex: '1 1 auto', fontWeight: 500 }} data-testid="report-title">
              {title}
            </Typography>
            <Box className="no-print" sx={{ display: 'flex', gap: 1 }}>
              <Button variant="outlined" size="small" startIcon={<PrintIcon />} onClick={() => window.print()} data-testid="report-print">
                {translate('admin.report.print')}
              </Button>
              {route.report && <ReportExportButton name={route.report} values={values} disabled={!data || !rows.length || loading} />}
            </Box>
          </Box>
          {meta && <ReportParamsBar defs={meta.params} values={values} onChange={setValues} />}
        </CardContent>
      </Card>

      {error && (
        <Alert
          severity="error"
          sx={{ mt: 2 }}
          data-testid="report-error"
          action={
            <Button color="inherit" size="small" startIcon={<RefreshIcon />} onClick={reload}>
              {translate('admin.report.retry')}
            </Button>
          }
        >
          {translate(errorMessage(error), { _: errorMessage(error) })}
          {describeError(errorMessage(error)) && (
            <Typography variant="body2">
              {translate(describeError(errorMessage(error))!, { _: describeError(errorMessage(error)) })}
            </Typography>
          )}
        </Alert>
      )}

      {missing.length > 0 && (
        <Alert severity="info" role="status" sx={{ mt: 2 }} data-testid="report-missing">
          {translate('admin.report.choose', { params: missing.join(', ') })}
        </Alert>
      )}

      {period?.empty && yearChosen && (
        <Alert
          severity="info"
          role="status"
          sx={{ mt: 2 }}
          data-testid="report-period-empty"
          action={
            period.latest ? (
              <Button
                color="inherit"
                size="small"
                onClick={() => setValues({ ...values, year: period.latest! })}
                data-testid="report-period-latest"
              >
                {translate('admin.report.open_latest', { year: period.latest })}
              </Button>
            ) : undefined
          }
        >
          {translate(period.latest ? 'admin.report.period_empty' : 'admin.report.period_empty_none', {
            year: period.year,
            latest: period.latest ?? '',
          })}
        </Alert>
      )}

      {!error && !data && loading && (
        <Card sx={{ mt: 2 }}>
          <Loading text={translate('admin.report.loading')} />
        </Card>
      )}

      {data && !error && (
        <Box sx={{ position: 'relative', opacity: loading ? 0.55 : 1, transition: 'opacity 150ms' }} aria-busy={loading}>
          {loading && (
            <Box
              role="status"
              aria-live="polite"
              sx={{ position: 'absolute', inset: 0, zIndex: 1, display: 'flex', justifyContent: 'center', pt: 6 }}
            >
              <CircularProgress size={28} aria-label={translate('admin.report.loading')} />
            </Box>
          )}
          {!rows.length && !data.total ? (
            <Card sx={{ mt: 2 }}>
              <CardContent role="status" aria-live="polite" sx={{ textAlign: 'center', py: 6 }} data-testid="report-empty">
                <InboxIcon sx={{ fontSize: 56, color: 'text.disabled' }} />
                <Typography variant="h6" color="text.secondary">
                  {translate('admin.report.no_data')}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {translate('admin.report.no_data_hint')}
                </Typography>
              </CardContent>
            </Card>
          ) : (
            <>
              {charted && chart && (
                <Card sx={{ mt: 2, breakInside: 'avoid' }}>
                  <CardContent>
                    <ChartBoundary
                      fallback={
                        <Typography color="text.secondary" role="alert">
                          {translate('admin.report.chart_failed')}
                        </Typography>
                      }
                    >
                      <Suspense fallback={<Loading text={translate('admin.report.chart_loading')} />}>
                        <ReportChart chart={chart} columns={data.columns} rows={rows} title={title} />
                      </Suspense>
                    </ChartBoundary>
                  </CardContent>
                </Card>
              )}
              <ReportPageSize columns={data.columns.length} />
              <Card sx={{ mt: 2 }}>
                <ReportTable
                  columns={data.columns}
                  rows={rows}
                  totals={data.totals}
                  drill={data.drill === undefined ? meta?.drill : data.drill}
                  params={{ ...values, ...data.params }}
                  caption={title}
                />
                {(data.total ?? rows.length) > REPORT_PAGE_SIZES[0] && (
                  <TablePagination
                    component="div"
                    data-testid="report-pagination"
                    count={data.total ?? rows.length}
                    page={page - 1}
                    rowsPerPage={perPage}
                    rowsPerPageOptions={REPORT_PAGE_SIZES}
                    onPageChange={(_, p) => setPage(p + 1)}
                    onRowsPerPageChange={(e) => {
                      setPerPage(Number(e.target.value));
                      setPage(1);
                    }}
                    labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
                    labelDisplayedRows={({ from, to, count }) =>
                      translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })
                    }
                  />
                )}
              </Card>
            </>
          )}
        </Box>
      )}
    </Box>
  );
}
