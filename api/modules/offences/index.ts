import type { ModuleDef } from '../types.ts';
import { OFFENCE_HOOKS } from './offences.ts';
import { OFFENCE_PAYMENT_HOOKS } from './payments.ts';
import { OFFENCE_HANDLERS } from './routes.ts';
import { PEOPLE_FACT_HOOKS } from './people-facts.ts';

/** Offences: the inspectors' findings, their workflow to the interior ministry, the fine payments and the people facts that may become offences (metadata/modules/offences.json, docs/offences.md). */
export const offencesModule: ModuleDef = {
  name: 'offences',
  hooks: { ...OFFENCE_HOOKS, ...OFFENCE_PAYMENT_HOOKS, ...PEOPLE_FACT_HOOKS },
  handlers: OFFENCE_HANDLERS,
};
