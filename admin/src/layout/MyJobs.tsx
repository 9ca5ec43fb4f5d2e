import { useCallback, useEffect, useState } from 'react';
import { Badge, Box, Divider, IconButton, List, ListItem, Popover, Tooltip, Typography } from '@mui/material';
import CloudDownloadIcon from '@mui/icons-material/CloudDownload';
import { useTranslate } from 'react-admin';
import { isActive, listJobs, onJobQueued, type Job } from '../api/jobs';
import { JobProgress } from '../generic/JobProgress';

/** How often the app bar asks how many of one's jobs are still running (ms); open, the panel follows each one itself. */
export const JOBS_POLL_MS = 15_000;

/**
 * The app bar's "my exports" (docs/jobs.md): how many of one's background jobs are queued or
 * running, and a panel with the latest of them — each with its progress bar and cancel button
 * while it runs, its download link when done (kept a day), or why it failed.
 */
export function MyJobs() {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [jobs, setJobs] = useState<Job[] | null>(null);
  const [active, setActive] = useState(0);

  const refresh = useCallback(async () => {
    try {
      const page = await listJobs(10);
      setJobs(page.data);
      setActive(page.active);
    } catch {
      /* the next poll tries again */
    }
  }, []);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), JOBS_POLL_MS);
    const off = onJobQueued(() => void refresh());
    return () => {
      clearInterval(timer);
      off();
    };
  }, [refresh]);

  const changed = useCallback(
    (j: Job) => {
      setJobs((all) => all?.map((x) => (x.id === j.id ? j : x)) ?? all);
      if (!isActive(j)) void refresh();
    },
    [refresh],
  );

  const title = translate('admin.jobs.title');
  return (
    <>
      <Tooltip title={title}>
        <IconButton
          color="inherit"
          onClick={(e) => {
            setAnchor(e.currentTarget);
            void refresh();
          }}
          // the badge's number is part of the button's name (what is seen is what is announced)
          aria-label={active > 0 ? translate('admin.jobs.title_count', { n: active }) : title}
          data-testid="my-jobs"
        >
          <Badge badgeContent={active} color="secondary" data-testid="my-jobs-count" data-count={active}>
            <CloudDownloadIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ width: 380, maxWidth: '100vw' }} data-testid="my-jobs-panel">
          <Typography variant="subtitle1" sx={{ px: 2, py: 1, fontWeight: 700 }} component="h2">
            {title}
          </Typography>
          <Divider />
          {jobs && !jobs.length && (
            <Typography variant="body2" sx={{ p: 2 }}>
              {translate('admin.jobs.empty')}
            </Typography>
          )}
          <List dense disablePadding>
            {(jobs ?? []).map((j) => (
              <ListItem key={j.id} divider data-testid="my-job">
                <JobProgress job={j} compact onChange={changed} />
              </ListItem>
            ))}
          </List>
          <Typography variant="caption" sx={{ display: 'block', px: 2, py: 1, color: 'text.secondary' }}>
            {translate('admin.jobs.kept')}
          </Typography>
        </Box>
      </Popover>
    </>
  );
}
