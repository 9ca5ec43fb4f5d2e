import { useGetOne, type RaRecord } from 'react-admin';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';

/** The row a reference points at (a planting's species, region, organisation), when the user may read it. */
export function useRefRecord(ref: string | undefined, id: unknown): { entity?: EntityMeta; record?: RaRecord } {
  const model = useMeta();
  const resource = model.resourceOf(ref);
  const has = id !== null && id !== undefined && id !== '';
  const { data } = useGetOne(resource ?? '-', { id: has ? (id as RaRecord['id']) : 0 }, { enabled: !!resource && has });
  return { entity: ref ? model.byName.get(ref) : undefined, record: resource && has ? data : undefined };
}
