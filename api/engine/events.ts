import type { Knex } from 'knex';
import type { EntityMeta, MetaModel, NotifyMeta } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';

/**
 * A row's workflow move, told inside the move's transaction after the row's update, its hook and
 * its after-check, once a row (a bulk move tells each row in turn): a listener may write in `trx`
 * (the notifications module queues the action's `notify` there, so a notification exists exactly
 * when the move commits), and what it throws rolls the move back.
 */
export interface WorkflowMoved {
  trx: Knex.Transaction;
  model: MetaModel;
  entity: EntityMeta;
  /** the workflow action's name */
  action: string;
  /** the action's `notify`, when it declares one */
  notify?: NotifyMeta;
  /** the row as it now stands (its derived fields and its new state included) */
  row: Record<string, unknown>;
  /** the move's parameters, its comment and the action's name */
  extra: Record<string, unknown>;
  principal: Principal;
}

/** The engine's events and what each carries (api/kernel/events.ts). */
export interface EngineEvents {
  'workflow.moved': WorkflowMoved;
}
