import { qs, useLangApi, useSticky, type EntityPage } from '../api';
import { regionOf, StatsFilters } from '../components/Filters';
import { Found, Pager, pageOf, useEnum } from '../components/List';
import { EmptyState, ErrorState, Loading, PageTitle } from '../components/ui';
import { fmtDate, fmtDecimal, fmtInt } from '../format';
import { TableScroll } from '../components/TableScroll';
import { sumDecimals } from '../../../shared/numbers';
import { useI18n } from '../i18n';

/**
 * The public control of felling: /permits (the permits to cut trees, `tree-cutting-permits`) and
 * /illegal-loggers (the cases of illegal felling, `tree-cutting-violations`, with their totals).
 * Tables with a region and a search; on a phone the less important columns are left out.
 */
interface Permit {
  id: number;
  number: string;
  issued_on: string;
  region_id_name?: string;
  area_id_name?: string | null;
  applicant?: string | null;
  address?: string | null;
  species_id_name?: string | null;
  trees: number;
  reason?: string | null;
  valid_from?: string | null;
  valid_to?: string | null;
  compensation?: string | null;
  status?: string | null;
}
interface Violation {
  id: number;
  found_on: string;
  region_id_name?: string;
  area_id_name?: string | null;
  violator_kind?: string | null;
  species_id_name?: string | null;
  trees: number;
  damage?: string | null;
  status?: string | null;
}
type Totals = { totals?: Record<string, number | string | null> | null };

export default function Control({ path, query }: { path: string; query: URLSearchParams }) {
  return path === '/permits' ? <Permits path={path} query={query} /> : <Violations path={path} query={query} />;
}

const PERMITS_PER_PAGE = 25;
const VIOLATIONS_PER_PAGE = 100;

function Permits({ path, query }: { path: string; query: URLSearchParams }) {
  const { t } = useI18n();
  const enumOf = useEnum();
  const page = pageOf(query);
  const loaded = useLangApi<EntityPage<Permit>>(
    `/public/entities/tree-cutting-permits${qs({ page, perPage: PERMITS_PER_PAGE, region_id: regionOf(query), q: query.get('q') })}`,
  );
  const data = useSticky(loaded);
  return (
    <div className="container">
      <PageTitle sub={t('permits.lead')}>{t('page.permits')}</PageTitle>
      <StatsFilters path={path} query={query} year={false} region search={t('permits.search')} />
      {loaded.error ? (
        <ErrorState error={loaded.error} retry={loaded.reload} />
      ) : !data ? (
        <Loading height={300} />
      ) : data.rows.length === 0 ? (
        <EmptyState title={t('list.empty')} icon="news" />
      ) : (
        <>
          <Found total={data.total} />
          <TableScroll busy={loaded.loading}>
            <table className="table" data-testid="permits-table">
              <caption className="visually-hidden">{t('page.permits')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('permits.number')}</th>
                  <th scope="col" className="hide-narrow">
                    {t('permits.issued_on')}
                  </th>
                  <th scope="col">{t('common.region')}</th>
                  <th scope="col" className="hide-narrow">
                    {t('permits.applicant')}
                  </th>
                  <th scope="col" className="hide-narrow">
                    {t('common.address')}
                  </th>
                  <th scope="col" className="hide-narrow">
                    {t('common.species')}
                  </th>
                  <th scope="col" className="num">
                    {t('control.trees')}
                  </th>
                  <th scope="col" className="hide-narrow">
                    {t('permits.reason')}
                  </th>
                  <th scope="col" className="hide-narrow">
                    {t('permits.valid')}
                  </th>
                  <th scope="col">{t('control.status')}</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">
                      <span className="nowrap">{p.number}</span>
                      <span className="muted small block show-narrow">{fmtDate(p.issued_on)}</span>
                    </th>
                    <td className="hide-narrow">{fmtDate(p.issued_on)}</td>
                    <td>
                      {p.region_id_name}
                      {p.area_id_name ? <span className="muted small block hide-narrow">{p.area_id_name}</span> : null}
                    </td>
                    <td className="hide-narrow">{p.applicant}</td>
                    <td className="hide-narrow">{p.address}</td>
                    <td className="hide-narrow">{p.species_id_name}</td>
                    <td className="num">{fmtInt(p.trees)}</td>
                    <td className="hide-narrow">{enumOf('permits.reason', p.reason)}</td>
                    <td className="hide-narrow nowrap">{[fmtDate(p.valid_from), fmtDate(p.valid_to)].filter(Boolean).join(' – ')}</td>
                    <td>
                      <span className={`pill status-${p.status ?? ''}`}>{enumOf('permits.status', p.status)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager path={path} query={query} total={data.total} perPage={PERMITS_PER_PAGE} />
        </>
      )}
    </div>
  );
}

function Violations({ path, query }: { path: string; query: URLSearchParams }) {
  const { t } = useI18n();
  const enumOf = useEnum();
  const page = pageOf(query);
  const loaded = useLangApi<EntityPage<Violation> & Totals>(
    `/public/entities/tree-cutting-violations${qs({ page, perPage: VIOLATIONS_PER_PAGE, region_id: regionOf(query) })}`,
  );
  const data = useSticky(loaded);
  // the API's totals over every row found when it gives them, else the sums of the rows shown
  const whole = !!data && (data.totals != null || data.total <= data.rows.length);
  const trees = data?.totals?.trees ?? data?.rows.reduce((s, v) => s + Number(v.trees ?? 0), 0) ?? 0;
  const damage = data?.totals?.damage ?? sumDecimals(data?.rows.map((v) => v.damage) ?? []);
  return (
    <div className="container">
      <PageTitle sub={t('violations.lead')}>{t('page.illegal_loggers')}</PageTitle>
      <StatsFilters path={path} query={query} year={false} region />
      {loaded.error ? (
        <ErrorState error={loaded.error} retry={loaded.reload} />
      ) : !data ? (
        <Loading height={300} />
      ) : data.rows.length === 0 ? (
        <EmptyState title={t('list.empty')} icon="alert" />
      ) : (
        <>
          <dl className="facts cards" data-testid="violations-facts">
            <div>
              <dt>{t('violations.cases')}</dt>
              <dd data-testid="violations-count">{fmtInt(data.total)}</dd>
            </div>
            <div>
              <dt>{whole ? t('violations.trees_total') : t('violations.trees_page')}</dt>
              <dd data-testid="violations-trees">{fmtInt(trees)}</dd>
            </div>
            <div>
              <dt>{whole ? t('violations.damage_total') : t('violations.damage_page')}</dt>
              <dd>{fmtDecimal(damage, 2)}</dd>
            </div>
          </dl>
          <TableScroll busy={loaded.loading}>
            <table className="table" data-testid="violations-table">
              <caption className="visually-hidden">{t('page.illegal_loggers')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('violations.found_on')}</th>
                  <th scope="col">{t('common.region')}</th>
                  <th scope="col" className="hide-narrow">
                    {t('violations.violator')}
                  </th>
                  <th scope="col" className="hide-narrow">
                    {t('common.species')}
                  </th>
                  <th scope="col" className="num">
                    {t('control.trees')}
                  </th>
                  <th scope="col" className="num hide-narrow">
                    {t('violations.damage')}
                  </th>
                  <th scope="col">{t('control.status')}</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((v) => (
                  <tr key={v.id}>
                    <th scope="row" className="nowrap">
                      {fmtDate(v.found_on)}
                    </th>
                    <td>
                      {v.region_id_name}
                      {v.area_id_name ? <span className="muted small block hide-narrow">{v.area_id_name}</span> : null}
                    </td>
                    <td className="hide-narrow">{enumOf('violations.kind', v.violator_kind)}</td>
                    <td className="hide-narrow">{v.species_id_name}</td>
                    <td className="num">{fmtInt(v.trees)}</td>
                    <td className="num hide-narrow">{v.damage != null ? fmtDecimal(v.damage, 2) : '—'}</td>
                    <td>
                      <span className={`pill status-${v.status ?? ''}`}>{enumOf('violations.status', v.status)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">{whole ? t('common.total') : t('violations.total_page')}</th>
                  <td />
                  <td className="hide-narrow" />
                  <td className="hide-narrow" />
                  <td className="num" data-testid="violations-total-trees">
                    {fmtInt(trees)}
                  </td>
                  <td className="num hide-narrow" data-testid="violations-total-damage">
                    {fmtDecimal(damage, 2)}
                  </td>
                  <td />
                </tr>
              </tfoot>
            </table>
          </TableScroll>
          <Pager path={path} query={query} total={data.total} perPage={VIOLATIONS_PER_PAGE} />
        </>
      )}
    </div>
  );
}
