import { useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';
import { RecordName } from './RecordName';
import { useExtension } from './extensions';

/** "Payments — 12" on a row's pages: the resource's caption and the row's title. */
export function RecordPageTitle({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const model = useMeta();
  const translate = useTranslate();
  const { fieldViews = {} } = useExtension(entity.name);
  const caption = translate(model.captionOf.get(resource) ?? entity.caption);
  const TitleView = fieldViews[entity.titleField];
  const field = TitleView ? model.field(entity, entity.titleField) : undefined;
  if (record && TitleView && field)
    return (
      <span>
        {caption} — <TitleView source={field.name} field={field} />
      </span>
    );
  return (
    <span>
      {record ? (
        <>
          {caption} — <RecordName entity={entity} record={record} />
        </>
      ) : (
        caption
      )}
    </span>
  );
}
