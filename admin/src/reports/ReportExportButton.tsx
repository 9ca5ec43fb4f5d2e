import { useState } from 'react';
import { Box, Button, CircularProgress } from '@mui/material';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { useNotify, useTranslate } from 'react-admin';
import { startExport, type Job } from '../api/jobs';
import { JobProgress } from '../generic/JobProgress';
import { errorMessage } from '../api/useFetch';
import { reportUrl } from './useReport';
import type { ParamValues } from './types';

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The report as an Excel file made by the server (`GET /api/reports/:name/export` with the same
 * parameters and the bearer token), saved as a download; it spins while the file is made (up to 120 s).
 * A report of more rows than `exports.background_rows` is made as a background job: its progress
 * bar, then its download link, show beside the button.
 */
export function ReportExportButton({ name, values, disabled }: { name: string; values: ParamValues; disabled?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<Job | null>(null);
  const run = async () => {
    setBusy(true);
    try {
      const answer = await startExport(reportUrl(name, values, true), XLSX, `${name}.xlsx`);
      if ('job' in answer) {
        setJob(answer.job);
        notify('admin.jobs.queued', { type: 'info' });
      } else notify('admin.export.done', { type: 'info', messageArgs: { file: answer.filename } });
    } catch (err) {
      const m = errorMessage(err);
      notify(m, { type: 'error', messageArgs: { _: m } });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
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
      {job && (
        <Box sx={{ ml: 1, display: 'inline-flex', alignItems: 'center' }}>
          <JobProgress job={job} />
        </Box>
      )}
    </>
  );
}
