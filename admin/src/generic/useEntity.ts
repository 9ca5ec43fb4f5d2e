import { useResourceContext } from 'react-admin';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';

/** The entity of the current resource (a generated page's). */
export function useEntity(): EntityMeta {
  const resource = useResourceContext();
  const model = useMeta();
  const e = resource ? model.entity(resource) : undefined;
  if (!e) throw new Error(`no entity for resource ${resource}`);
  return e;
}
