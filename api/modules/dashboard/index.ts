import type { ModuleDef } from '../types.ts';
import { DASHBOARD_HANDLERS } from './dashboard.ts';

/** The back-office's start page: one's own queues and a few figures of one's scope (metadata/modules/dashboard.json, docs/dashboard.md). */
export const dashboardModule: ModuleDef = {
  name: 'dashboard',
  handlers: DASHBOARD_HANDLERS,
};
