import { useGetManyAggregate, type RaRecord } from 'react-admin';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import { titleOf, useLang } from './fields';

/**
 * The name of a row: its title field, in the language shown; when the title field is a reference
 * (a planting's species, a plan's branch), the referenced row's own name — never its id. Lookups
 * are batched and cached with the reference fields of the same page.
 */
export function RecordName({ entity, record, depth = 0 }: { entity?: EntityMeta; record?: RaRecord; depth?: number }) {
  const lang = useLang();
  const model = useMeta();
  const f = entity?.fields.find((x) => x.name === entity.titleField);
  const refId = f?.type === 'ref' && record ? record[f.name] : undefined;
  const target = f?.type === 'ref' ? model.byName.get(f.ref!) : undefined;
  const reference = target ? model.resourceOf(target.name) : undefined;
  const enabled = refId != null && !!reference && depth < 3;
  const { data } = useGetManyAggregate(reference ?? '', { ids: enabled ? [refId as RaRecord['id']] : [] }, { enabled });
  if (!record) return null;
  if (f?.type !== 'ref') return <>{titleOf(entity, record, lang)}</>;
  const row = data?.[0];
  // while it loads (or when the user may not read it), the row's own number
  if (!row) return <>{`#${record.id}`}</>;
  return <RecordName entity={target} record={row} depth={depth + 1} />;
}

/**
 * The same name as a string, for places that need text (a printed heading, a document's title):
 * one reference deep, the row's own number while it loads or when the user may not read it.
 */
export function useRecordName(entity: EntityMeta | undefined, record: RaRecord | undefined): string {
  const lang = useLang();
  const model = useMeta();
  const f = entity?.fields.find((x) => x.name === entity.titleField);
  const refId = f?.type === 'ref' && record ? record[f.name] : undefined;
  const target = f?.type === 'ref' ? model.byName.get(f.ref!) : undefined;
  const reference = target ? model.resourceOf(target.name) : undefined;
  const enabled = refId != null && !!reference;
  const { data } = useGetManyAggregate(reference ?? '', { ids: enabled ? [refId as RaRecord['id']] : [] }, { enabled });
  const row = data?.[0];
  return row ? titleOf(target, row, lang) : titleOf(entity, record, lang);
}
