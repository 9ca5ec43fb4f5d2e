import type { Knex } from 'knex';
import type { Hook, HookContext } from '../types.ts';
import { ADMINISTRATOR, otherActiveAdministrators } from '../../read-models/rights.ts';
import { ApiError } from '../../kernel/errors.ts';
import { revokeUserSessions } from '../../auth/sessions.ts';
import { announceAuthChange } from '../../auth/session-cache.ts';

/** Whether a user's roles include the administrators'. */
async function isAdministrator(ctx: HookContext, roles: unknown): Promise<boolean> {
  const ids = Array.isArray(roles) ? roles.map(Number) : [];
  return (
    ids.length > 0 && !!(await ctx.repo('user-roles').scoped('read').whereIn('t.id', ids).where({ 't.code': ADMINISTRATOR }).first('t.id'))
  );
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
  'users.block': async (ctx) => {
    const { trx, row, principal } = ctx;
    if (row.id === principal.id) throw new ApiError('inUse', 'errors.self_block');
    if (await isAdministrator(ctx, row.roles)) await keepAnAdministrator(trx, row.id as number);
    await revokeUserSessions(trx, row.id as number);
    await announceAuthChange(trx, { u: [row.id as number] });
  },
  'users.assignRoles': async (ctx) => {
    const { trx, row, before } = ctx;
    const was = before?.status === 'active' && (await isAdministrator(ctx, before.roles));
    if (was && !(await isAdministrator(ctx, row.roles))) await keepAnAdministrator(trx, row.id as number);
    await announceAuthChange(trx, { u: [row.id as number] });
  },
  'users.beforeDelete': async (ctx) => {
    const { trx, row, principal } = ctx;
    if (row.id === principal.id) throw new ApiError('inUse', 'errors.self_delete');
    if (row.status === 'active' && (await isAdministrator(ctx, row.roles))) await keepAnAdministrator(trx, row.id as number);
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
