import { useCallback } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import type { Job } from '../api/jobs';
import type { EntityMeta } from '../meta/types';
import { formatNumber } from './format';
import { ImportButton } from './ImportButton';

/**
 * "Import (.xlsx)" on the list of an entity whose metadata allows it (`"import": true`), for whoever
 * may create its rows: a file laid out as the list's export (POST <path>/import); the list refreshed when done.
 */
export function EntityImportButton({ entity }: { entity: EntityMeta }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const label = useCallback(
    (name: string) => {
      const f = entity.fields.find((x) => x.name === name);
      return f ? translate(f.label) : name;
    },
    [entity, translate],
  );
  const done = useCallback(
    (j: Job) => {
      notify('admin.import.entity_done', { type: 'success', messageArgs: { imported: formatNumber(Number(j.result?.imported ?? 0), 0) } });
      refresh();
    },
    [notify, refresh],
  );
  if (!entity.import || !entity.can.create) return null;
  return (
    <ImportButton
      url={`${entity.path}/import`}
      label="admin.import.entity_button"
      testId="import-xlsx"
      heading="admin.import.file_errors_title"
      caption={label}
      onDone={done}
    />
  );
}
