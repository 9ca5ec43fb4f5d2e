import { useGetManyAggregate, type RaRecord } from 'react-admin';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import { titleOf } from './titleOf';
import { useLang } from './useLang';

/**
 * The row an entity's title field refers to, when the title field is a reference (a planting's
 * species, a plan's branch): looked up batched and cached with the reference fields of the same page.
 */
function useTitleReference(entity: EntityMeta | undefined, record: RaRecord | undefined, enabled = true) {
  const model = useMeta();
  const f = entity?.fields.find((x) => x.name === entity.titleField);
  const isRef = f?.type === 'ref';
  const refId = isRef && record ? record[f.name] : undefined;
  const target = isRef ? model.byName.get(f.ref!) : undefined;
  const reference = target ? model.resourceOf(target.name) : undefined;
  const on = enabled && refId != null && !!reference;
  const { data } = useGetManyAggregate(reference ?? '', { ids: on ? [refId as RaRecord['id']] : [] }, { enabled: on });
  return { isRef, target, row: data?.[0] };
}

/**
 * The name of a row: its title field, in the language shown; when the title field is a reference,
 * the referenced row's own name (references of references too, three deep) — never its id.
 */
export function RecordName({ entity, record, depth = 0 }: { entity?: EntityMeta; record?: RaRecord; depth?: number }) {
  const lang = useLang();
  const { isRef, target, row } = useTitleReference(entity, record, depth < 3);
  if (!record) return null;
  if (!isRef) return <>{titleOf(entity, record, lang)}</>;
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
  const { target, row } = useTitleReference(entity, record);
  return row ? titleOf(target, row, lang) : titleOf(entity, record, lang);
}
