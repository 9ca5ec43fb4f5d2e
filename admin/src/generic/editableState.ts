import type { RaRecord } from 'react-admin';
import type { EntityMeta } from '../meta/types';

/** Whether a row's state lets it be edited or deleted (its workflow's `editable` states; every state when it names none). */
export function editableState(entity: EntityMeta, record: RaRecord | undefined): boolean {
  const wf = entity.workflow;
  return !record || !wf?.editable || wf.editable.includes(record[wf.field] as string);
}
