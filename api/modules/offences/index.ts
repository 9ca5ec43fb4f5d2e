import type { ModuleDef } from '../types.ts';
import { OFFENCE_HOOKS } from './offences.ts';
import { OFFENCE_PAYMENT_HOOKS } from './payments.ts';
import { OFFENCE_HANDLERS } from './routes.ts';

/** Offences: the inspectors' findings, their workflow to the interior ministry, and the fine payments (metadata/modules/offences.json, docs/offences.md). */
export const offencesModule: ModuleDef = {
  name: 'offences',
  hooks: { ...OFFENCE_HOOKS, ...OFFENCE_PAYMENT_HOOKS },
  handlers: OFFENCE_HANDLERS,
};
