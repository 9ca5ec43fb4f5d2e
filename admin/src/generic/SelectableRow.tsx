import { useMemo } from 'react';
import { DatagridBody, DatagridRow, I18nContext, useI18nProvider, type DatagridBodyProps, type DatagridRowProps } from 'react-admin';
import type { EntityMeta } from '../meta/types';
import { titleOf, useLang } from './fields';

/**
 * A list row whose selection checkbox is named after the row ("Select row «Chinor»" in the
 * language shown) rather than react-admin's one "Select this row" for every row: a screen reader
 * says which row it selects. The row's other texts are translated as before.
 */
function SelectableRow({ entity, ...props }: DatagridRowProps & { entity: EntityMeta }) {
  const provider = useI18nProvider();
  const lang = useLang();
  const title = props.record ? titleOf(entity, props.record as never, lang) : '';
  const named = useMemo(() => ({
    ...provider,
    translate: (key: string, options?: Record<string, unknown>) => (key === 'ra.action.select_row' && title
      ? provider.translate('admin.list.select_row', { title })
      : provider.translate(key, options)),
  }), [provider, title]);
  return (
    <I18nContext.Provider value={named}>
      <DatagridRow {...props} />
    </I18nContext.Provider>
  );
}

/** The body of a generic list: its rows are SelectableRow. */
export function SelectableRowsBody({ entity, ...props }: DatagridBodyProps & { entity: EntityMeta }) {
  return <DatagridBody {...props} row={<SelectableRow entity={entity} />} />;
}
