import { useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { useNotify, useTranslate } from 'react-admin';
import { filenameOf, LONG_TIMEOUT, requestBlob } from '../api/http';
import { saveBlob } from '../api/files';
import { errorMessage } from '../api/useFetch';
import { reportUrl } from './useReport';
import type { ParamValues } from './types';

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The report as an Excel file made by the server (`GET /api/reports/:name/export` with the same
 * parameters and the bearer token), saved as a download; it spins while the file is made (up to 120 s).
 */
export function ReportExportButton({ name, values, disabled }: { name: string; values: ParamValues; disabled?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { res, blob } = await requestBlob(reportUrl(name, values, true), { timeout: LONG_TIMEOUT, headers: { Accept: XLSX } });
      const filename = filenameOf(res, `${name}.xlsx`);
      saveBlob(blob, filename);
      notify('admin.export.done', { type: 'info', messageArgs: { file: filename } });
    } catch (err) {
      const m = errorMessage(err);
      notify(m, { type: 'error', messageArgs: { _: m } });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="outlined"
      size="small"
      onClick={() => void run()}
      disabled={busy || disabled}
      aria-busy={busy}
      startIcon={busy ? <CircularProgress size={16} /> : <FileDownloadIcon />}
      data-testid="report-export"
    >
      {translate(busy ? 'admin.export.running' : 'admin.export.button')}
    </Button>
  );
}
