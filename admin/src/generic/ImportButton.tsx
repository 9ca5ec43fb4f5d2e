import { type ReactNode, useCallback, useRef, useState } from 'react';
import { Box, CircularProgress } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, HttpError, useNotify } from 'react-admin';
import { LONG_TIMEOUT, request } from '../api/http';
import { errorMessage } from '../api/useFetch';
import { announceJob, isActive, type Job } from '../api/jobs';
import { JobProgress } from './JobProgress';
import { ImportErrorsDialog, importFailure, type ImportFailure } from './ImportErrors';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ImportButtonProps {
  /** where the file is posted; the server answers 202 with a job (docs/jobs.md) */
  url: string;
  /** the button's caption key */
  label: string;
  testId: string;
  /** the errors dialog's title key */
  heading: string;
  /** a field's column letter, where the file's layout is fixed (a statement's) */
  column?: (field: string) => string | undefined;
  /** a field's caption (default `fields.<name>`) */
  caption?: (field: string) => string;
  /** how a row's errors are ordered: a field's rank */
  order?: (field: string) => string;
  /** the job is done: what it answered is `job.result` */
  onDone: (job: Job) => void;
  disabled?: boolean;
  /**
   * A preview before the write: the file is posted to `url` first (a job whose result is what the
   * import would do, nothing kept); `render` shows that result with its confirm and cancel; confirmed,
   * the same file is posted to `confirmUrl(result)` (the import refuses it if it would write
   * otherwise); cancelled, nothing is sent.
   */
  preview?: {
    url: string;
    confirmUrl: (result: Record<string, unknown>) => string;
    render: (result: Record<string, unknown>, confirm: () => void, cancel: () => void) => ReactNode;
  };
}

/**
 * An import from an .xlsx as a background job (docs/jobs.md): the chosen file is posted, the
 * server checks what it can at once (the right, the file's size and header — a 400 or 403 shown
 * here) and answers 202 with the job, whose progress bar (percent, cancel) shows beside the button
 * and in the app bar's list. When it ends: done → `onDone`; failed with row errors → the errors
 * dialog (row, field, message; the first hundred and their count); failed otherwise → its message.
 * The statement's import (screens/StackImport.tsx) and every importable entity's list
 * (EntityImportButton.tsx) use it.
 */
export function ImportButton({ url, label, testId, heading, column, caption, order, onDone, disabled, preview }: ImportButtonProps) {
  const notify = useNotify();
  const picker = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<Job | null>(null);
  const [failure, setFailure] = useState<ImportFailure | null>(null);
  // the file being previewed (kept to be sent again when confirmed), and the preview's result once shown
  const previewed = useRef<File | null>(null);
  const [shown, setShown] = useState<Record<string, unknown> | null>(null);
  const fail = useCallback(
    (message: string, body?: Parameters<typeof importFailure>[1]) => {
      const f = importFailure(message, body, order);
      if (f) setFailure(f);
      else notify(message, { type: 'error', messageArgs: { _: message } });
    },
    [notify, order],
  );

  const send = async (file: File | undefined, to?: string) => {
    if (picker.current) picker.current.value = '';
    if (!file) return;
    // a chosen file is previewed first when there is a preview; a confirmed one goes to `to`
    previewed.current = !to && preview ? file : null;
    setBusy(true);
    setJob(null);
    try {
      const res = await request(to ?? (preview ? preview.url : url), {
        method: 'POST',
        body: file,
        timeout: LONG_TIMEOUT,
        headers: { 'Content-Type': XLSX },
      });
      const queued = (await res.json()) as Job;
      setJob(queued);
      announceJob(queued);
    } catch (err) {
      fail(errorMessage(err), err instanceof HttpError ? err.body : undefined);
    } finally {
      setBusy(false);
    }
  };

  const end = useCallback(
    (j: Job) => {
      // the job as it ended (JobProgress follows its own copy): the button is free again
      setJob(j);
      if (j.state === 'done' && previewed.current) setShown((j.result ?? {}) as Record<string, unknown>);
      else if (j.state === 'done') onDone(j);
      else if (j.state === 'failed') fail(j.error?.message ?? '', j.error ?? undefined);
    },
    [onDone, fail],
  );
  const confirm = () => {
    const file = previewed.current;
    const result = shown;
    setShown(null);
    if (file && result && preview) void send(file, preview.confirmUrl(result));
  };
  const cancel = () => {
    previewed.current = null;
    setShown(null);
    setJob(null);
  };

  const running = !!job && isActive(job);
  return (
    <>
      <Button
        label={label}
        onClick={() => picker.current?.click()}
        disabled={disabled || busy || running}
        aria-busy={busy || running}
        data-testid={testId}
      >
        {busy ? <CircularProgress size={16} /> : <UploadFileIcon />}
      </Button>
      <input
        ref={picker}
        type="file"
        hidden
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        onChange={(e) => void send(e.target.files?.[0])}
        data-testid={`${testId}-file`}
      />
      {job && (
        <Box sx={{ ml: 1, display: 'inline-flex', alignItems: 'center' }}>
          <JobProgress job={job} onEnd={end} />
        </Box>
      )}
      {shown && preview?.render(shown, confirm, cancel)}
      {failure && (
        <ImportErrorsDialog heading={heading} failure={failure} column={column} caption={caption} onClose={() => setFailure(null)} />
      )}
    </>
  );
}
