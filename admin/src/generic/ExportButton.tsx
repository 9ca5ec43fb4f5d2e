import { useState, type ReactElement } from 'react';
import { Box, CircularProgress } from '@mui/material';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import MapIcon from '@mui/icons-material/Map';
import { Button, useDataProvider, useListContext, useNotify, useResourceContext } from 'react-admin';
import type { EcofondDataProvider, ExportFormat } from '../api/dataProvider';
import type { EntityMeta } from '../meta/types';
import type { Job } from '../api/jobs';
import { JobProgress } from './JobProgress';

/** Whether the server exports the entity's list as GeoJSON: it has a point or polygon field (api/engine/geojson.ts). */
export const hasGeoJson = (entity: EntityMeta): boolean => entity.fields.some((f) => f.type === 'point' || f.type === 'polygon');

const LOOK: Record<ExportFormat, { label: string; icon: ReactElement; testId: string }> = {
  xlsx: { label: 'admin.export.button', icon: <FileDownloadIcon />, testId: 'export-xlsx' },
  geojson: { label: 'admin.export.geojson', icon: <MapIcon />, testId: 'export-geojson' },
};

/**
 * An export of the list as filtered and sorted now, made by the server (GET path/export for Excel,
 * path/export.geojson for GeoJSON) and saved as a download, with the filter the route or page
 * applies. The button spins while the file is prepared (up to 120 s); a list larger than the
 * setting `exports.background_rows` is prepared as a background job instead, whose progress bar
 * and then download link show beside the button (and in the app bar's "my exports").
 */
export function ExportButton({ permanentFilter, format = 'xlsx' }: { permanentFilter?: Record<string, unknown>; format?: ExportFormat }) {
  const { filterValues, sort, total } = useListContext();
  const resource = useResourceContext();
  const dataProvider = useDataProvider<EcofondDataProvider>();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<Job | null>(null);

  const run = async () => {
    if (!resource) return;
    setBusy(true);
    try {
      const answer = await dataProvider.exportList(resource, { filter: { ...filterValues, ...permanentFilter }, sort, format });
      if ('job' in answer) {
        setJob(answer.job);
        notify('admin.jobs.queued', { type: 'info' });
      } else notify('admin.export.done', { type: 'info', messageArgs: { file: answer.filename } });
    } catch (err) {
      const message = err instanceof Error ? err.message : 'ra.notification.http_error';
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setBusy(false);
    }
  };

  const look = LOOK[format];
  return (
    <>
      <Button
        label={busy ? 'admin.export.running' : look.label}
        onClick={() => void run()}
        disabled={busy || total === 0}
        aria-busy={busy}
        data-testid={look.testId}
      >
        {busy ? <CircularProgress size={16} /> : look.icon}
      </Button>
      {job && (
        <Box sx={{ ml: 1, display: 'inline-flex', alignItems: 'center' }}>
          <JobProgress job={job} />
        </Box>
      )}
    </>
  );
}
