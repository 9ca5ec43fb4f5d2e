import { filenameOf, LONG_TIMEOUT, request, requestBlob, requestJson } from './http';
import { saveBlob } from './files';

/** A background job as `GET /api/jobs/:id` answers it (docs/jobs.md). */
export interface Job {
  id: number;
  kind: string;
  title: string;
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  progress: { done: number; total: number | null };
  cancel_requested: boolean;
  file: { name: string; mime: string; size: number } | null;
  /** what the kind answered: an import's counts (`imported`, a statement's `attached`, `total_amount`) */
  result?: Record<string, unknown> | null;
  /** why it failed, in the reader's language; an import's row errors (the first hundred) with `error_count` and `error_rows` as the synchronous 400 answers them */
  error: {
    code: number;
    message: string;
    errors?: Record<string, string>;
    count?: number;
    error_count?: number;
    error_rows?: number;
  } | null;
  created_at: string;
  finished_at: string | null;
  expires_at: string | null;
}

/** How often a job in progress is asked about (ms). */
export const JOB_POLL_MS = 1000;

export const isActive = (j: Job): boolean => j.state === 'queued' || j.state === 'running';

/** An import's progress is a percent (docs/jobs.md: `progress(done, 100)`), an export's a count of rows. */
export const isImport = (j: Job): boolean => j.kind.endsWith('-import');

export const getJob = (id: number) => requestJson<Job>(`/api/jobs/${id}`);
export const cancelJob = (id: number) => requestJson<Job>(`/api/jobs/${id}/cancel`, { method: 'POST' });
export const listJobs = (perPage = 20) => requestJson<{ data: Job[]; total: number; active: number }>(`/api/jobs?perPage=${perPage}`);

/** Saves a finished job's file as a download (the token goes in the header: a plain link could not carry it). */
export async function downloadJob(job: Job): Promise<string> {
  const { res, blob } = await requestBlob(`/api/jobs/${job.id}/file`, { timeout: LONG_TIMEOUT, headers: { Accept: '*/*' } });
  const name = filenameOf(res, job.file?.name ?? `export-${job.id}`);
  saveBlob(blob, name);
  return name;
}

const listeners = new Set<(job: Job) => void>();
/** The app bar's "my exports" hears at once of a job queued on this page, and of one followed here that ends. */
export function onJobQueued(fn: (job: Job) => void): () => void {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}
export function announceJob(job: Job): void {
  for (const l of listeners) l(job);
}

/**
 * An export: `GET url` streams the file (saved as a download) or, for a large list or report,
 * answers 202 with a background job (docs/exports.md), which is announced and returned.
 */
export async function startExport(url: string, accept: string, fallbackName: string): Promise<{ filename: string } | { job: Job }> {
  const res = await request(url, { timeout: LONG_TIMEOUT, headers: { Accept: accept } });
  if (res.status === 202) {
    const job = (await res.json()) as Job;
    announceJob(job);
    return { job };
  }
  const filename = filenameOf(res, fallbackName);
  saveBlob(await res.blob(), filename);
  return { filename };
}
