import type { Knex } from 'knex';
import type { EntityMeta } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import { SUBJECT_HOOKS } from './subjects.ts';
import { PAYMENT_HOOKS } from './payments.ts';
import { REPORT_HOOKS } from './reports.ts';
import { PENALTY_HOOKS } from './penalties.ts';
import { PLANTING_HOOKS } from './plantings.ts';
import { SPECIES_HOOKS } from './species-benefits.ts';

/** What a workflow hook receives: the transaction, the entity, the row after the move, the caller. */
export interface HookContext {
  trx: Knex.Transaction;
  entity: EntityMeta;
  row: Record<string, unknown>;
  action: string;
  from: string;
  to: string;
  /** the action's parameters, validated */
  params?: Record<string, unknown>;
  principal: Principal;
}

export type WorkflowHook = (ctx: HookContext) => Promise<void>;

/**
 * The server hooks workflow actions may name (`"hook": "group.name"`). Each runs inside the
 * action's transaction: if it throws, the action is undone. Domain arithmetic lives in pure
 * functions under api/domain; hooks only read and write what those functions need.
 */
export const HOOKS: Record<string, WorkflowHook> = {
  /** a blocked user's sessions end at once */
  'users.endSessions': async ({ trx, row }) => {
    await trx('sessions').where({ user_id: row.id }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
  },
  ...SUBJECT_HOOKS,
  ...PAYMENT_HOOKS,
  ...REPORT_HOOKS,
  ...PENALTY_HOOKS,
  ...PLANTING_HOOKS,
  ...SPECIES_HOOKS,
};
