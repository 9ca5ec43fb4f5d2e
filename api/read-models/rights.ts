import type { Knex } from 'knex';

/**
 * A user's rights as their roles give them (role_actions through user_roles): an aggregate over two
 * join tables that are no entity of their own, read for the user named and no other.
 */

/** The user's actions with their state: the highest state any of their roles gives each. */
export function userActions(knex: Knex | Knex.Transaction, userId: number) {
  return knex('role_actions as ra')
    .join('user_roles as ur', 'ur.role_id', 'ra.role_id')
    .where('ur.user_id', userId)
    .groupBy('ra.action_id')
    .orderBy('ra.action_id')
    .select('ra.action_id as id', knex.raw('max(ra.state)::int as state'));
}

/** Whether a user holds every one of these action ids through their roles (state 1). */
export async function holdsActions(knex: Knex | Knex.Transaction, userId: number, ids: number[]): Promise<boolean> {
  const held = await knex('role_actions as ra')
    .join('user_roles as ur', 'ur.role_id', 'ra.role_id')
    .where('ur.user_id', userId)
    .where('ra.state', 1)
    .whereIn('ra.action_id', ids)
    .distinct('ra.action_id')
    .pluck('ra.action_id');
  return held.length === new Set(ids).size;
}

/** The administrators' role's code. */
export const ADMINISTRATOR = 'administrator';

/** Active users holding the administrators' role, but the one named: how many (the system keeps one). */
export async function otherActiveAdministrators(knex: Knex | Knex.Transaction, except?: number): Promise<number> {
  const q = knex('users as u')
    .join('user_roles as ur', 'ur.user_id', 'u.id')
    .join('roles as r', 'r.id', 'ur.role_id')
    .where({ 'r.code': ADMINISTRATOR, 'u.status': 'active' });
  if (except !== undefined) q.whereNot('u.id', except);
  const [{ n }] = await q.countDistinct<{ n: number }[]>({ n: 'u.id' });
  return Number(n);
}

/** Every action with a role's state of it (0 when the role does not hold it), by module: the role's access screen. */
export function roleActionStates(knex: Knex, roleId: number) {
  return knex('app_actions as a')
    .leftJoin('role_actions as ra', (j) => j.on('ra.action_id', 'a.id').andOn('ra.role_id', knex.raw('?', [roleId])))
    .orderBy(['a.module', 'a.id'])
    .select('a.id', 'a.name', 'a.caption', 'a.module', 'a.kind', knex.raw('coalesce(ra.state, 0)::int as state'));
}
