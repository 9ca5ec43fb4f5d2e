import { GlobalStyles } from '@mui/material';

/**
 * What a printed page of the back-office leaves out: the app bar, the menu, buttons and anything
 * marked `no-print`; cards lose their shadows and the content takes the whole sheet.
 */
export function PrintStyles() {
  return (
    <GlobalStyles
      styles={{
        '@media print': {
          'html, body, .RaLayout-root, .RaLayout-appFrame, .RaLayout-content': { background: '#fff !important' },
          '.RaAppBar-appBar, header.MuiAppBar-root, .RaSidebar-root, .RaSidebar-fixed, .MuiDrawer-root, .no-print, .RaTopToolbar-root, .RaList-actions, .MuiTablePagination-root, [data-testid="notification"]': {
            display: 'none !important',
          },
          '.RaLayout-appFrame': { marginTop: '0 !important' },
          '.RaLayout-content': { padding: '0 !important', minWidth: '0 !important' },
          '.MuiCard-root, .MuiPaper-root': { boxShadow: 'none !important' },
          '.MuiTableCell-root': { padding: '2px 6px !important' },
          'canvas': { maxWidth: '100% !important' },
        },
      }}
    />
  );
}
