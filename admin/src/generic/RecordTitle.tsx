import { useRecordContext } from 'react-admin';
import type { EntityMeta } from '../meta/types';
import { RecordName } from './RecordName';

/** The current record's name (a reference field's shown value). */
export function RecordTitle({ entity }: { entity?: EntityMeta }) {
  const record = useRecordContext();
  return (
    <span>
      <RecordName entity={entity} record={record} />
    </span>
  );
}
