import type { Knex } from 'knex';
import type { EntityMeta } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import { ApiError } from '../kernel/errors.ts';

/**
 * Nobody grants, takes away or takes over rights they do not hold. A row whose field carries
 * rights (`privilege`: the roles of a user, the actions of a role) may be changed — its fields,
 * its state, its password, its deletion — only by a caller who holds every action the row carries
 * before the change and after it. The administrator holds every action; a police-user manager
 * cannot make an administrator, reset an administrator's password or close the administrators'
 * actions.
 */

export function privilegeFields(e: EntityMeta): [string, 'roles' | 'actions'][] {
  return Object.entries(e.fields)
    .filter(([, f]) => f.privilege)
    .map(([n, f]) => [n, f.privilege!]);
}

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);

/** The actions (state 1) the given roles hold. */
export async function actionsOfRoles(db: Knex | Knex.Transaction, roleIds: number[]): Promise<number[]> {
  if (!roleIds.length) return [];
  return (await db('role_actions').whereIn('role_id', roleIds).where('state', 1).distinct('action_id').pluck('action_id')).map(Number);
}

/** 403 unless the caller holds every action the row carries before and after the change. */
export async function assertPrivileges(
  db: Knex | Knex.Transaction,
  e: EntityMeta,
  principal: Principal,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Promise<void> {
  for (const [name, kind] of privilegeFields(e)) {
    const carried = [...new Set([...ids(before?.[name]), ...ids(after?.[name])])];
    const needed = kind === 'actions' ? carried : await actionsOfRoles(db, carried);
    const missing = needed.filter((a) => !principal.actions.has(a));
    if (missing.length) throw new ApiError('forbidden', 'errors.privilege', { count: missing.length });
  }
}
