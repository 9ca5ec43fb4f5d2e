import { useLocation } from 'react-router-dom';
import { useMetaModel } from '../meta/store';
import { Forbidden } from './Forbidden';
import { NotFound } from './NotFound';
import { Placeholder } from './Placeholder';

/**
 * Every path no screen claimed. A route of the menu tree (hidden and `:param` ones included) the
 * user may not open is a 403; one they may open has no screen yet; anything else is a 404.
 */
export function CatchAll() {
  const { pathname } = useLocation();
  const model = useMetaModel();
  const route = model?.routeFor(pathname);
  if (!route) return <NotFound />;
  if (!route.allowed) return <Forbidden caption={route.caption} />;
  return <Placeholder caption={route.caption} />;
}
