import type { RaRecord } from 'react-admin';
import type { EntityMeta } from '../meta/types';
import { text3, type Lang } from './format';

/** The text that names a row of an entity: its title field, in the language shown. */
export function titleOf(e: EntityMeta | undefined, record: RaRecord | undefined, lang: Lang): string {
  if (!record) return '';
  // a title that is a reference is another row's id: the row's own number says more (RecordName shows the name)
  if (e?.fields.find((f) => f.name === e.titleField)?.type === 'ref') return record.id !== undefined ? `#${record.id}` : '';
  const v = e ? record[e.titleField] : undefined;
  const s = text3(v, lang);
  return s || (record.id !== undefined ? `#${record.id}` : '');
}
