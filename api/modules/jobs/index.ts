import type { ModuleDef } from '../types.ts';
import { JOB_HANDLERS } from './routes.ts';

/** Background jobs: one's own jobs, their progress, cancelling and their files (metadata/modules/jobs.json, docs/jobs.md). */
export const jobsModule: ModuleDef = {
  name: 'jobs',
  handlers: JOB_HANDLERS,
};
