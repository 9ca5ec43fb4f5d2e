import type { RaRecord } from 'react-admin';
import type { EntityMeta, FieldMeta, WorkflowActionMeta } from '../meta/types';

/** The inputs an action asks for, from its `params` (the server's field declarations). */
export const paramFields = (a: WorkflowActionMeta): FieldMeta[] =>
  Object.entries(a.params ?? {}).map(
    ([name, f]) =>
      ({
        ...f,
        name,
        label: f.label ?? `fields.${name}`,
        fields: undefined,
      }) as FieldMeta,
  );

/** The workflow actions the user's actions allow, but those a signing dialog offers as its "skip" (only there). */
function offered(entity: EntityMeta): WorkflowActionMeta[] {
  const actions = entity.workflow?.actions ?? [];
  const skips = new Set(actions.map((a) => a.skip).filter(Boolean));
  return actions.filter((a) => a.allowed && !skips.has(a.name));
}

/** The actions of a row's state that the user's actions allow (a signing dialog's "skip" action is offered there only). */
export function actionsFor(entity: EntityMeta, record: RaRecord | undefined): WorkflowActionMeta[] {
  const wf = entity.workflow;
  if (!record || !wf) return [];
  const state = String(record[wf.field] ?? '');
  return offered(entity).filter((a) => a.from.includes(state));
}

/** The bulk actions of an entity the user's actions allow (bulk and without a signature). */
export const bulkActions = (entity: EntityMeta): WorkflowActionMeta[] =>
  (entity.workflow?.actions ?? []).filter((a) => a.bulk && a.allowed && !a.signature);

/** The one-row actions a list offers on a selected row: allowed, not bulk, not signed, not a signing dialog's skip. */
export const rowActions = (entity: EntityMeta): WorkflowActionMeta[] => offered(entity).filter((a) => !a.bulk && !a.signature);

/** Where an action runs: one row, the selected rows, or every row of the list's filters. */
export type Target =
  | { kind: 'one'; record: RaRecord }
  | { kind: 'many'; ids: RaRecord['id'][] }
  | { kind: 'all'; filter: Record<string, unknown>; total: number };

/**
 * The values an action's dialog starts from: on one row, its parameters that are fields of the
 * entity start from the row's values (assigning roles starts from the user's roles).
 */
export function initialParams(entity: EntityMeta, action: WorkflowActionMeta, target: Target): Record<string, unknown> {
  if (target.kind !== 'one') return {};
  const out: Record<string, unknown> = {};
  for (const f of paramFields(action)) {
    if (entity.fields.some((x) => x.name === f.name && x.type === f.type) && target.record[f.name] !== undefined)
      out[f.name] = target.record[f.name];
  }
  return out;
}

/** What an action needs asked before it runs: a confirmation, parameters or a comment. */
export const needsDialog = (a: WorkflowActionMeta) => !!(a.confirm || a.comment || Object.keys(a.params ?? {}).length);
