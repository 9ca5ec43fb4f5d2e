import { useEffect, useRef, useState } from 'react';
import { Box, Button, LinearProgress, Link, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { announceJob, cancelJob, downloadJob, getJob, isActive, isImport, JOB_POLL_MS, type Job } from '../api/jobs';
import { errorMessage } from '../api/useFetch';

/**
 * A background job followed to its end (docs/jobs.md): a progress bar while it is queued or runs
 * (determinate when its total is known, its rows — or an import's percent — in words for screen
 * readers), a cancel button, then a link that downloads its file — or why it failed, or that it was
 * cancelled. The exports' buttons, the app bar's list and the imports' buttons (ImportButton.tsx)
 * all show a job with it; `onEnd` hears once that the job ended (done, failed or cancelled).
 */
export function JobProgress({
  job: first,
  compact,
  onChange,
  onEnd,
}: {
  job: Job;
  compact?: boolean;
  onChange?: (job: Job) => void;
  onEnd?: (job: Job) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [job, setJob] = useState<Job>(first);
  useEffect(() => setJob(first), [first]);
  const active = isActive(job);
  // the end told once, whichever way it came (a poll, the cancel's answer)
  const ended = useRef<number | null>(null);
  useEffect(() => {
    if (active || !onEnd || ended.current === job.id) return;
    ended.current = job.id;
    onEnd(job);
  }, [active, job, onEnd]);

  useEffect(() => {
    if (!active) return undefined;
    let stop = false;
    const timer = setInterval(() => {
      getJob(job.id).then(
        (j) => {
          if (stop) return;
          setJob(j);
          onChange?.(j);
          // ended: the app bar's count follows (unless this is the app bar's own list, which refreshes itself)
          if (!isActive(j) && !onChange) announceJob(j);
        },
        () => undefined,
      );
    }, JOB_POLL_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [active, job.id, onChange]);

  const { done, total } = job.progress;
  const percent = total ? Math.min(100, Math.round((done * 100) / total)) : undefined;
  const rows = isImport(job)
    ? translate('admin.jobs.percent', { percent: percent ?? 0 })
    : total
      ? translate('admin.jobs.rows_of', { done: done.toLocaleString('ru-RU'), total: total.toLocaleString('ru-RU') })
      : translate('admin.jobs.rows', { done: done.toLocaleString('ru-RU') });
  const state = translate(`admin.jobs.state.${job.state}`);

  const cancel = async () => {
    try {
      const j = await cancelJob(job.id);
      setJob(j);
      onChange?.(j);
    } catch (err) {
      const m = errorMessage(err);
      notify(m, { type: 'error', messageArgs: { _: m } });
    }
  };
  const download = async () => {
    try {
      const name = await downloadJob(job);
      notify('admin.export.done', { type: 'info', messageArgs: { file: name } });
    } catch (err) {
      const m = errorMessage(err);
      notify(m, { type: 'error', messageArgs: { _: m } });
    }
  };

  return (
    <Box data-testid="job-progress" data-job={job.id} data-state={job.state} sx={{ minWidth: compact ? 220 : 260, maxWidth: 360 }}>
      {!compact ? null : (
        <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap title={job.title}>
          {job.title}
        </Typography>
      )}
      {active && (
        <LinearProgress
          variant={percent === undefined || job.state === 'queued' ? 'indeterminate' : 'determinate'}
          value={percent ?? 0}
          aria-label={translate('admin.jobs.progress', { title: job.title })}
          aria-valuetext={`${state}: ${rows}`}
          data-testid="job-bar"
          sx={{ my: 0.5 }}
        />
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="caption" role="status" aria-live="polite">
          {active || job.state === 'cancelled' || (job.state === 'done' && isImport(job))
            ? `${state} · ${rows}`
            : job.state === 'failed'
              ? `${state}: ${job.error?.message ?? ''}`
              : null}
        </Typography>
        {active && !job.cancel_requested && (
          <Button size="small" onClick={() => void cancel()} data-testid="job-cancel">
            {translate('admin.jobs.cancel')}
          </Button>
        )}
        {job.state === 'done' && job.file && (
          <Link component="button" type="button" variant="body2" onClick={() => void download()} data-testid="job-download">
            {translate('admin.jobs.download', { file: job.file.name })}
          </Link>
        )}
      </Box>
    </Box>
  );
}
