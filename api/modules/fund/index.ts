import type { ModuleDef } from '../types.ts';
import { FUND_HANDLERS } from './routes.ts';
import { PAYMENT_HOOKS } from './payments.ts';
import { REPORT_HOOKS } from './reports.ts';
import { PENALTY_HOOKS } from './penalties.ts';
import { SUBJECT_HOOKS } from './subjects.ts';
import { FUND_JOBS } from './statement-job.ts';

/** The fund: subjects, statements and payments, compensation reports, acts, protocols and penya (metadata/modules/fund.json). */
export const fundModule: ModuleDef = {
  name: 'fund',
  hooks: { ...SUBJECT_HOOKS, ...PAYMENT_HOOKS, ...REPORT_HOOKS, ...PENALTY_HOOKS },
  handlers: FUND_HANDLERS,
  jobs: FUND_JOBS,
};
