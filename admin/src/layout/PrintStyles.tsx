import { GlobalStyles } from '@mui/material';

/**
 * What a printed page of the back-office leaves out: the app bar, the menu, buttons and anything
 * marked `no-print`; cards lose their shadows and the content takes the whole sheet; tables take
 * the sheet's width instead of scrolling (a report screen turns its sheet to landscape where its
 * table is wide: ReportPageSize).
 */
export function PrintStyles() {
  return (
    <GlobalStyles
      styles={{
        '@media print': {
          'html, body, .RaLayout-root, .RaLayout-appFrame, .RaLayout-content': { background: '#fff !important' },
          '.RaAppBar-appBar, header.MuiAppBar-root, .RaSidebar-root, .RaSidebar-fixed, .MuiDrawer-root, .no-print, .RaTopToolbar-root, .RaList-actions, .MuiTablePagination-root, [data-testid="notification"]':
            {
              display: 'none !important',
            },
          '.RaLayout-appFrame': { marginTop: '0 !important' },
          '.RaLayout-content': { padding: '0 !important', minWidth: '0 !important' },
          '.MuiCard-root, .MuiPaper-root': { boxShadow: 'none !important' },
          '.MuiTableCell-root': { padding: '2px 6px !important' },
          // on paper nothing scrolls: a table takes the sheet's width and its text cells wrap
          'div:has(> table)': { overflow: 'visible !important' },
          table: { width: '100% !important' },
          '.MuiTableCell-root:not(.num)': { minWidth: '0 !important', whiteSpace: 'normal !important', overflowWrap: 'break-word' },
          '.MuiTableCell-root.num': { fontSize: '0.8rem' },
          canvas: { maxWidth: '100% !important' },
        },
      }}
    />
  );
}
