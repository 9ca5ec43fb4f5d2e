import { useMemo } from 'react';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { DatagridBody, DatagridRow, useRecordContext, useTranslate, type DatagridBodyProps, type DatagridRowProps } from 'react-admin';
import type { EntityMeta } from '../meta/types';
import { titleOf } from './titleOf';
import { useLang } from './useLang';
import { withDefaultProps } from './withDefaultProps';

/**
 * A list row whose selection checkbox is named after the row ("«Chinor» qatorini tanlash" in the
 * language shown): react-admin gives every row the same "Select this row", and on the checkbox's
 * wrapper rather than on the input a screen reader announces. The name reaches the input through
 * the row's own theme defaults for MUI's Checkbox (the row passes it no input props of its own).
 */
function SelectableRow({ entity, ...props }: DatagridRowProps & { entity: EntityMeta }) {
  const translate = useTranslate();
  const lang = useLang();
  const record = useRecordContext(props);
  const title = record ? titleOf(entity, record, lang) : '';
  const label = title ? translate('admin.action.select_row', { title }) : '';
  const theme = useMemo(
    () => (outer: Theme) => withDefaultProps(outer, { MuiCheckbox: { slotProps: { input: { 'aria-label': label } } } }),
    [label],
  );
  if (!label) return <DatagridRow {...props} />;
  return (
    <ThemeProvider theme={theme}>
      <DatagridRow {...props} />
    </ThemeProvider>
  );
}

/** The body of a generic list: its rows are SelectableRow. */
export function SelectableRowsBody({ entity, ...props }: DatagridBodyProps & { entity: EntityMeta }) {
  return <DatagridBody {...props} row={<SelectableRow entity={entity} />} />;
}
