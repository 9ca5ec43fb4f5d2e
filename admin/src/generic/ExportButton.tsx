import { useState } from 'react';
import { CircularProgress } from '@mui/material';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Button, useDataProvider, useListContext, useNotify, useResourceContext } from 'react-admin';
import type { EcofondDataProvider } from '../api/dataProvider';

/**
 * Excel export of the list as filtered and sorted now, made by the server (GET path/export) and
 * saved as a download, with the filter the route or page applies. The button spins while the file
 * is prepared (up to 120 s).
 */
export function ExportXlsxButton({ permanentFilter }: { permanentFilter?: Record<string, unknown> }) {
  const { filterValues, sort, total } = useListContext();
  const resource = useResourceContext();
  const dataProvider = useDataProvider<EcofondDataProvider>();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);

  const run = async () => {
    if (!resource) return;
    setBusy(true);
    try {
      const { filename } = await dataProvider.exportXlsx(resource, { filter: { ...filterValues, ...permanentFilter }, sort });
      notify('admin.export.done', { type: 'info', messageArgs: { file: filename } });
    } catch (err) {
      const message = err instanceof Error ? err.message : 'ra.notification.http_error';
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      label={busy ? 'admin.export.running' : 'admin.export.button'}
      onClick={() => void run()}
      disabled={busy || total === 0}
      aria-busy={busy}
      data-testid="export-xlsx"
    >
      {busy ? <CircularProgress size={16} /> : <FileDownloadIcon />}
    </Button>
  );
}
