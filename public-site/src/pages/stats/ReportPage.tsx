import { useId } from 'react';
import { qs, useApi, useLangApi, useSticky, type Report, type ReportColumn, type Row } from '../../api';
import { LazyReportChart } from '../../components/Chart';
import { FilterTabs, regionOf, StatsFilters, StatsNav, useSetQuery, yearOf } from '../../components/Filters';
import { TableScroll } from '../../components/TableScroll';
import { SourceLine, type BenefitsSource as BenefitsSourceValue } from '../../components/Source';
import { EmptyState, ErrorState, Icon, Loading, PageTitle } from '../../components/ui';
import { fmtDate, fmtDecimal, fmtInt } from '../../format';
import { useI18n, type Key, type T } from '../../i18n';
import { todayTashkent } from '../../tashkent';
import { DateField } from '../../components/DateField';

/**
 * Every statistics page: one public report (`/public/reports/:name?year&region_id…`) shown as a
 * chart (lazy chunk), a table with its totals and an Excel download. The report's title and its
 * columns' captions come translated from the API; the filters live in the address.
 */
interface ReportRoute {
  report: string;
  title: Key;
  year?: boolean;
  region?: 'optional' | 'required';
  /** the volunteers' rating: period tabs, a day, a name search */
  volunteers?: boolean;
  /** the ecosystem benefits: name where the coefficients come from */
  benefits?: boolean;
  intro?: Key;
}

export const REPORT_ROUTES: Record<string, ReportRoute> = {
  '/region-plantings-statistics': { report: 'region-plantings', title: 'page.region_plantings_stats', year: true },
  '/trees-types-statistics': { report: 'species-trees', title: 'page.species_stats', year: true },
  '/region-trees-types-statistics': { report: 'species-trees', title: 'page.region_species_stats', year: true, region: 'required' },
  '/to-do-pantings-statistics': { report: 'todo-plantings', title: 'page.todo_stats', year: true, intro: 'stats.todo_intro' },
  '/region-ministries-statistics': { report: 'region-ministries', title: 'page.ministries_stats', year: true, region: 'optional' },
  '/region-inventories-statistics': { report: 'region-inventories', title: 'page.inventories_stats', year: true },
  '/eco-info-by-regions-statistics': {
    report: 'eco-info-by-regions',
    title: 'page.eco_info_stats',
    year: true,
    benefits: true,
    intro: 'stats.eco_intro',
  },
  '/forestry-perort-statistics': { report: 'forestry-report', title: 'page.forestry_stats', year: true, region: 'optional' },
  '/irrigation-statistics': { report: 'irrigation', title: 'page.irrigation_stats', year: true },
  '/volunteer-statistics': { report: 'volunteers-rating', title: 'page.volunteers', region: 'optional', volunteers: true },
};

const PERIODS = ['day', 'month', 'year', 'all'] as const;
type Period = (typeof PERIODS)[number];
const DEFAULT_PERIOD: Period = 'year'; // the report's own default
const CHART_ROWS = 20;
const PIE_SLICES = 9;

export function periodOf(query: URLSearchParams): Period {
  const p = query.get('period') as Period;
  return PERIODS.includes(p) ? p : DEFAULT_PERIOD;
}

export function dateOf(query: URLSearchParams): string {
  const d = query.get('date') ?? '';
  const today = todayTashkent();
  return /^\d{4}-\d{2}-\d{2}$/.test(d) && d <= today ? d : today;
}

/** The report's parameters from the page's address. */
function paramsOf(r: ReportRoute, query: URLSearchParams): Record<string, string | number | null> {
  const p: Record<string, string | number | null> = {};
  if (r.year) p.year = yearOf(query);
  if (r.region) p.region_id = regionOf(query);
  if (r.volunteers) {
    p.period = periodOf(query);
    if (p.period !== 'all') p.date = dateOf(query);
    p.q = query.get('q')?.trim() || null;
  }
  return p;
}

/** Digits after the comma of a decimal the API wrote as a string ("12.50" → 2). */
const decimalsOf = (v: unknown, type: ReportColumn['type']) => {
  if (type === 'integer') return 0;
  const m = /\.(\d+)$/.exec(String(v ?? ''));
  return m ? m[1].length : type === 'string' || type === 'date' ? 0 : 2;
};

export function formatCell(v: unknown, c: ReportColumn): string {
  if (v === null || v === undefined || v === '') return c.type === 'string' ? '' : '—';
  switch (c.type) {
    case 'integer':
      return fmtInt(v as number);
    case 'decimal':
    case 'money':
      return fmtDecimal(v as string, decimalsOf(v, c.type));
    case 'percent':
      return `${fmtDecimal(v as string, decimalsOf(v, c.type))}\u00a0%`;
    case 'date':
      return fmtDate(String(v));
    default:
      return String(v);
  }
}

const isNumeric = (c: ReportColumn) => c.type !== 'string' && c.type !== 'date';

export default function ReportPage({ path, query }: { path: string; query: URLSearchParams }) {
  const { t } = useI18n();
  const route = REPORT_ROUTES[path];
  const params = paramsOf(route, query);
  const waiting = route.region === 'required' && !params.region_id;
  const api = waiting ? null : `/public/reports/${route.report}${qs(params)}`;
  const loaded = useLangApi<Report>(api);
  const report = useSticky(loaded);

  return (
    <div className="container">
      <PageTitle sub={route.intro ? t(route.intro) : undefined}>{t(route.title)}</PageTitle>
      <StatsNav path={path} />
      {route.volunteers ? (
        <VolunteerFilters path={path} query={query} />
      ) : (
        <StatsFilters path={path} query={query} year={route.year} region={!!route.region} regionRequired={route.region === 'required'} />
      )}
      {waiting ? (
        <EmptyState title={t('stats.region_hint')} icon="map" testId="region-hint" />
      ) : loaded.error ? (
        <ErrorState error={loaded.error} retry={loaded.reload} />
      ) : !report ? (
        <Loading height={400} />
      ) : (
        <ReportView report={report} params={params} benefits={route.benefits} busy={loaded.loading} t={t} />
      )}
    </div>
  );
}

function ReportView({
  report,
  params,
  benefits,
  busy,
  t,
}: {
  report: Report;
  params: Record<string, string | number | null>;
  benefits?: boolean;
  busy: boolean;
  t: T;
}) {
  const { lang } = useI18n();
  const columns = report.columns;
  const labelCol = columns.find((c) => c.name === report.chart?.label) ?? columns.find((c) => c.type === 'string') ?? columns[0];
  const totals = report.totals ?? {};
  const totalCols = columns.filter((c) => c.total && totals[c.name] !== undefined && totals[c.name] !== null);
  const exportHref = `/api/public/reports/${report.name}/export${qs({ ...params, lang })}`;
  return (
    <div aria-busy={busy} data-testid="report" data-report={report.name} className={busy ? 'refreshing' : undefined}>
      {totalCols.length > 0 && (
        <dl className="facts cards" data-testid="report-facts">
          {totalCols.slice(0, 4).map((c) => (
            <div key={c.name}>
              <dt>{c.caption}</dt>
              <dd data-testid={`stats-fact-${c.name}`}>{formatCell(totals[c.name], c)}</dd>
            </div>
          ))}
        </dl>
      )}
      {report.rows.length === 0 ? (
        <EmptyState title={t('stats.empty')} />
      ) : (
        <>
          {report.chart && report.chart.series.length > 0 && <ReportFigure report={report} labelCol={labelCol} t={t} />}
          <TableScroll testId="stats-table-card">
            <ReportTable report={report} labelCol={labelCol} t={t} />
          </TableScroll>
        </>
      )}
      {benefits && <BenefitsSource report={report} />}
      <p className="row-gap no-print">
        <a className="btn" href={exportHref} download data-testid="report-export">
          <Icon name="download" /> {t('stats.download_excel')}
        </a>
        <span className="muted small">{t('stats.download_hint')}</span>
      </p>
    </div>
  );
}

function ReportFigure({ report, labelCol, t }: { report: Report; labelCol: ReportColumn; t: T }) {
  const spec = report.chart!;
  const cols = spec.series.map((s) => report.columns.find((c) => c.name === s)).filter((c): c is ReportColumn => !!c);
  if (!cols.length) return null;
  const round = spec.type === 'pie' || spec.type === 'doughnut';
  const num = (r: Row, c: ReportColumn) => Number(r[c.name] ?? 0) || 0;
  let rows = report.rows;
  let other: number[] | null = null;
  if (round && rows.length > PIE_SLICES + 1) {
    const sorted = [...rows].sort((a, b) => num(b, cols[0]) - num(a, cols[0]));
    rows = sorted.slice(0, PIE_SLICES);
    other = cols.map((c) => sorted.slice(PIE_SLICES).reduce((s, r) => s + num(r, c), 0));
  } else if (spec.type === 'bar' && rows.length > CHART_ROWS) {
    rows = [...rows].sort((a, b) => num(b, cols[0]) - num(a, cols[0])).slice(0, CHART_ROWS);
  }
  const labels = rows.map((r) => String(r[labelCol.name] ?? ''));
  if (other) labels.push(t('stats.others'));
  const series = cols.map((c, i) => ({
    label: c.caption,
    values: [...rows.map((r) => num(r, c)), ...(other ? [other[i]] : [])],
    decimals: c.type === 'integer' ? 0 : decimalsOf(report.rows[0]?.[c.name], c.type),
  }));
  const caption = rows.length < report.rows.length && !other ? t('stats.chart_top', { title: report.title, n: rows.length }) : report.title;
  return (
    <section className="card">
      <LazyReportChart
        caption={caption}
        type={spec.type}
        labels={labels}
        series={series}
        horizontal={!!spec.horizontal}
        stacked={!!spec.stacked}
        ariaLabel={t('common.chart', { title: report.title })}
      />
    </section>
  );
}

function ReportTable({ report, labelCol, t }: { report: Report; labelCol: ReportColumn; t: T }) {
  const totals = report.totals ?? {};
  const hasTotals = report.columns.some((c) => c.total && totals[c.name] !== undefined && totals[c.name] !== null);
  // on a phone the table scrolls sideways; its first column stays
  return (
    <table className="table" data-testid="stats-table">
      <caption className="table-caption">{report.title}</caption>
      <thead>
        <tr>
          {report.columns.map((c) => (
            <th key={c.name} scope="col" className={isNumeric(c) ? 'num' : undefined}>
              {c.caption}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {report.rows.map((r, i) => (
          <tr key={i}>
            {report.columns.map((c) =>
              c === labelCol ? (
                <th key={c.name} scope="row">
                  {formatCell(r[c.name], c)}
                </th>
              ) : (
                <td key={c.name} className={isNumeric(c) ? 'num' : undefined}>
                  {formatCell(r[c.name], c)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
      {hasTotals && (
        <tfoot>
          <tr>
            {report.columns.map((c, i) => {
              const total = c.total && totals[c.name] != null;
              // "Total" in the first column that has no total of its own
              if (!total && i === report.columns.findIndex((x) => !(x.total && totals[x.name] != null)))
                return (
                  <th key={c.name} scope="row">
                    {t('common.total')}
                  </th>
                );
              return (
                <td key={c.name} className={isNumeric(c) ? 'num' : undefined} data-testid={total ? `stats-total-${c.name}` : undefined}>
                  {total ? formatCell(totals[c.name], c) : ''}
                </td>
              );
            })}
          </tr>
        </tfoot>
      )}
    </table>
  );
}

/** Where the benefits' coefficients come from: the report's own line, else the API's (`/public/benefits-source`), else ours. */
function BenefitsSource({ report }: { report: Report }) {
  const fromReport = report.source ?? report.benefits_source ?? null;
  const api = useApi<BenefitsSourceValue>(fromReport ? null : '/public/benefits-source');
  if (!fromReport && api.loading) return null;
  return <SourceLine source={fromReport ?? api.data} />;
}

/** The volunteers' rating: a period (day, month, year, all time), the day it counts from, a region and a name. */
function VolunteerFilters({ path, query }: { path: string; query: URLSearchParams }) {
  const { t } = useI18n();
  const id = useId();
  const set = useSetQuery(path, query);
  const period = periodOf(query);
  const today = todayTashkent();
  const date = dateOf(query);
  return (
    <>
      <FilterTabs
        label={t('vol.period')}
        value={period}
        testId="period-tabs"
        options={PERIODS.map((p) => ({ value: p, label: t(`vol.period.${p}`) }))}
        onChange={(p) => set({ period: p === DEFAULT_PERIOD ? null : p })}
      />
      <StatsFilters path={path} query={query} year={false} region search={t('vol.search')}>
        {period !== 'all' && (
          <div className="field inline">
            <label htmlFor={`${id}-date`}>{t(`vol.date.${period}`)}</label>
            <DateField
              id={`${id}-date`}
              max={today}
              value={date}
              testId="filter-date"
              onChange={(v) => {
                if (/^\d{4}-\d{2}-\d{2}$/.test(v) && v <= today) set({ date: v === today ? null : v });
              }}
            />
          </div>
        )}
      </StatsFilters>
    </>
  );
}
