import { ResourceContextProvider } from 'react-admin';
import { useParams } from 'react-router-dom';
import { substituteFilter, type RouteInfo } from '../meta/model';
import type { ScreenDef } from '../generic/extensions';
import { EntityList } from '../generic/EntityViews';
import { Forbidden } from './Forbidden';

/**
 * A menu route with parameters that lists an entity (`#/ecofund/payments/5`): the entity's list
 * with the route's filter, its `:params` taken from the URL (`{stack_id: 5}`). The route's action
 * decides who may open it.
 */
export function ParamListPage({ route }: { route: RouteInfo }) {
  const params = useParams();
  if (!route.allowed) return <Forbidden caption={route.caption} />;
  const filter = substituteFilter(route.filter, params);
  const key = JSON.stringify(filter);
  return (
    <ResourceContextProvider value={route.resource!}>
      <EntityList key={key} permanentFilter={filter} storeKey={`${route.resource}?${key}`} />
    </ResourceContextProvider>
  );
}

/** A special screen on a menu route without an entity, when the route's action allows it. */
export function ScreenPage({ route, screen }: { route: RouteInfo; screen: ScreenDef }) {
  if (!route.allowed) return <Forbidden caption={route.caption} />;
  return <screen.Component />;
}
