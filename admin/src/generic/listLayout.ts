import type { SxProps, Theme } from '@mui/material';

/**
 * How a list's table fits a working screen (1280–1400 px): captions and text wrap rather than
 * widen the table (numbers, dates and phones keep to one line: their spans say so), long words
 * break where they must, cells are padded narrowly, the row's opener and delete are icons named after the row
 * (RowButtons: a column of "DELETE" words would cost a wide list its last column at 1280 px), and
 * the row's buttons stay in view at the right edge even when a very wide table scrolls inside its card.
 */
export const DATAGRID_SX: SxProps<Theme> = {
  // on a working screen a cell's word longer than its column breaks where it must ('anywhere' lets
  // the table's layout narrow the column below the word; 'break-word' would widen the table past its
  // card instead). On a phone the table scrolls sideways whatever its columns do (the list names the
  // columns off-screen): there a word stays whole ("Oq akatsiya", not "akatsi" over "ya") and its
  // column is as wide as it needs. A caption's words stay whole
  '& .RaDatagrid-headerCell': { fontWeight: 600, whiteSpace: 'normal', verticalAlign: 'bottom', lineHeight: 1.3 },
  '& th, & td': { px: 1 },
  '& td': { maxWidth: 360, overflowWrap: { xs: 'break-word', sm: 'anywhere' }, lineHeight: 1.35 },
  // the buttons of a row (the last cell, as the header's last cell), pinned to the right edge
  '& .RaDatagrid-row > td:last-of-type, & .RaDatagrid-headerRow > th:last-of-type': {
    position: 'sticky',
    right: 0,
    bgcolor: 'background.paper',
    whiteSpace: 'nowrap',
    width: '1%',
  },
};
