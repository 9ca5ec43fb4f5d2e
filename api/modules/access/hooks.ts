import type { Knex } from 'knex';
import type { Hook } from '../types.ts';
import { ApiError } from '../../kernel/errors.ts';
import { revokeUserSessions } from '../../auth/sessions.ts';
import { announceAuthChange } from '../../auth/session-cache.ts';

/** Active users holding the administrators' role, but the one named. */
async function otherActiveAdministrators(trx: Knex.Transaction, except?: number): Promise<number> {
  const q = trx('users as u')
    .join('user_roles as ur', 'ur.user_id', 'u.id')
    .join('roles as r', 'r.id', 'ur.role_id')
    .where({ 'r.code': 'administrator', 'u.status': 'active' });
  if (except !== undefined) q.whereNot('u.id', except);
  const [{ n }] = await q.countDistinct<{ n: number }[]>({ n: 'u.id' });
  return Number(n);
}

const ADMIN = 'administrator';

/** Whether a user's roles include the administrators'. */
async function isAdministrator(trx: Knex.Transaction, roles: unknown): Promise<boolean> {
  const ids = Array.isArray(roles) ? roles.map(Number) : [];
  return ids.length > 0 && !!(await trx('roles').whereIn('id', ids).where({ code: ADMIN }).first('id'));
}

/** The system keeps an active administrator: the last one is not blocked, demoted or deleted. */
async function keepAnAdministrator(trx: Knex.Transaction, userId: number): Promise<void> {
  if ((await otherActiveAdministrators(trx, userId)) === 0) throw new ApiError('inUse', 'errors.last_admin');
}

/**
 * Users: nobody blocks or deletes themselves; the last active administrator stays one; a blocked
 * user's sessions end at once, and so do a user's sessions when their password is set anew. Any
 * change of a user (status, roles, scope, name, language, password) or their deletion makes every
 * server process forget the user's cached sessions when it commits (docs/sessions.md); so does a
 * change of a role's actions, the role's deletion, or a session row's deletion.
 */
export const USER_HOOKS: Record<string, Hook> = {
  'users.block': async ({ trx, row, principal }) => {
    if (row.id === principal.id) throw new ApiError('inUse', 'errors.self_block');
    if (await isAdministrator(trx, row.roles)) await keepAnAdministrator(trx, row.id as number);
    await revokeUserSessions(trx, row.id as number);
    await announceAuthChange(trx, { u: [row.id as number] });
  },
  'users.assignRoles': async ({ trx, row, before }) => {
    const was = before?.status === 'active' && (await isAdministrator(trx, before.roles));
    if (was && !(await isAdministrator(trx, row.roles))) await keepAnAdministrator(trx, row.id as number);
    await announceAuthChange(trx, { u: [row.id as number] });
  },
  'users.beforeDelete': async ({ trx, row, principal }) => {
    if (row.id === principal.id) throw new ApiError('inUse', 'errors.self_delete');
    if (row.status === 'active' && (await isAdministrator(trx, row.roles))) await keepAnAdministrator(trx, row.id as number);
    await announceAuthChange(trx, { u: [row.id as number] });
  },
  'users.afterWrite': async ({ trx, row, before, changed }) => {
    if (changed.has('password')) await revokeUserSessions(trx, row.id as number);
    // a new user has no session yet
    if (before) await announceAuthChange(trx, { u: [row.id as number] });
  },
  'roles.afterWrite': async ({ trx, row, before }) => {
    if (before) await announceAuthChange(trx, { r: [row.id as number] });
  },
  'roles.beforeDelete': async ({ trx, row }) => {
    await announceAuthChange(trx, { r: [row.id as number] });
  },
  'sessions.beforeDelete': async ({ trx, row }) => {
    await announceAuthChange(trx, { s: [row.id as number] });
  },
};
