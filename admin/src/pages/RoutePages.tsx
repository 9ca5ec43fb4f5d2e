import { ResourceContextProvider } from 'react-admin';
import { Navigate, useParams } from 'react-router-dom';
import { PARAMS_SEGMENT, substituteFilter, type RouteInfo } from '../meta/model';
import type { ScreenDef } from '../generic/extensions';
import { EntityList } from '../generic/EntityList';
import { filterFromSegment } from '../reports/params';
import { ReportScreen } from '../reports/ReportScreen';
import { Forbidden } from './Forbidden';
import { FixedFilterChips } from './FixedFilterChips';
import { useMeta } from '../meta/store';

/**
 * A menu route with parameters that lists an entity: the entity's list with the route's filter,
 * its `:params` taken from the URL (`#/ecofund/payments/5` → `{stack_id: 5}`), and a `:params`
 * segment (`#/ecofund-plantings/plantings/org_id%3D5%3Byear%3D2026`, what report drill links
 * open) as more of the filter. The route's action decides who may open it.
 */
export function ParamListPage({ route }: { route: RouteInfo }) {
  const params = useParams();
  const model = useMeta();
  if (!route.allowed) return <Forbidden caption={route.caption} />;
  // `k=v;k=v` is a filter; a bare number is a row (a link from before the row's form moved to `…/<id>/edit`)
  const raw = route.params.includes(PARAMS_SEGMENT) ? params[PARAMS_SEGMENT] : undefined;
  const rowResource = model.resourceOf(route.entity);
  if (raw && /^\d+$/.test(raw) && rowResource) return <Navigate replace to={model.showPath(rowResource, raw)} />;
  const segment = route.params.includes(PARAMS_SEGMENT) ? filterFromSegment(params[PARAMS_SEGMENT]) : undefined;
  const filter = { ...substituteFilter(route.filter, params), ...segment };
  const key = JSON.stringify(filter);
  const entity = model.entity(route.resource!);
  return (
    <ResourceContextProvider value={route.resource!}>
      {segment && entity && <FixedFilterChips entity={entity} filter={segment} />}
      <EntityList key={key} permanentFilter={filter} storeKey={`${route.resource}?${key}`} />
    </ResourceContextProvider>
  );
}

/** A menu route's report, when the route's action allows it. */
export function ReportPage({ route }: { route: RouteInfo }) {
  if (!route.allowed) return <Forbidden caption={route.caption} />;
  return <ReportScreen key={route.path} route={route} />;
}

/** A special screen on a menu route without an entity, when the route's action allows it. */
export function ScreenPage({ route, screen }: { route: RouteInfo; screen: ScreenDef }) {
  if (!route.allowed) return <Forbidden caption={route.caption} />;
  return <screen.Component />;
}
