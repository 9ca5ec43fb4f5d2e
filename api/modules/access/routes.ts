import type { RouteHandler, RouteContext } from '../types.ts';
import { roleActionStates } from '../../read-models/rights.ts';
import { recordUnlock } from '../../auth/lockout.ts';
import type { AppContext } from '../../http/middleware.ts';
import { badRequest, notFound, validationError } from '../../kernel/errors.ts';
import { translate } from '../../meta/captions.ts';
import { Workflow } from '../../engine/workflow.ts';
import { assertPrivileges } from '../../engine/privileges.ts';
import { passwordErrors } from '../system/auth.ts';
import type { MetaModel } from '../../meta/types.ts';

const bodyOf = (ctx: AppContext) => (ctx.request.body ?? {}) as Record<string, unknown>;

/** A role id from a request body: a positive safe integer, else a 400 naming it. */
function roleIdOf(raw: unknown): number {
  const id = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
  if (!Number.isSafeInteger(id) || (id as number) < 1)
    throw validationError({ role_id: { key: raw === undefined ? 'validation.required' : 'validation.wrong_format' } });
  return id as number;
}

function moduleCaption(model: MetaModel, lang: 'uz' | 'uk' | 'ru', module: string): string {
  const section = model.menu.find((s) => s.route === `/${module}`);
  return section ? translate(model, lang, section.caption) : module;
}

/**
 * A role's actions opened (state 1) or closed (0): one action, a module's or all. The change is a
 * write of the role's `actions` through the engine — so the caller must hold every action the role
 * has and gets, and it is audited — computed from the role as it stands locked (Repository.update
 * with a function), so that parallel grants to one role all hold.
 */
async function setState(
  ctx: AppContext,
  rc: RouteContext,
  state: 0 | 1,
  target: { action_id?: unknown; category?: unknown; all?: unknown },
): Promise<void> {
  const { knex } = rc;
  const repo = rc.repo();
  const roleId = roleIdOf(bodyOf(ctx).role_id);
  // a role the caller may not change is a 404 before the target is looked at
  await repo.getOne(roleId, 'update');
  // the actions named: the book of every action, read by the system (the role's update is the check)
  const q = rc.trustedRepo('app-actions').scoped('read', knex);
  if (target.action_id !== undefined) {
    const id = typeof target.action_id === 'string' && /^\d{1,9}$/.test(target.action_id) ? Number(target.action_id) : target.action_id;
    if (!Number.isInteger(id) || (id as number) < 1 || (id as number) > 2147483647)
      throw validationError({ action_id: { key: 'validation.wrong_format' } });
    q.where('t.id', id as number);
  } else if (typeof target.category === 'string') q.where('t.module', target.category.slice(0, 60));
  else if (target.all !== true) throw badRequest('errors.select_rows');
  const actionIds: number[] = (await q.pluck('t.id')).map(Number);
  if (!actionIds.length) throw notFound();
  // the role's actions as they stand once its row is locked: parallel grants to one role each add to the last
  await repo.update(
    roleId,
    (role) => {
      const current = new Set((role.actions as number[]).map(Number));
      for (const a of actionIds)
        if (state === 1) current.add(a);
        else current.delete(a);
      return { actions: [...current] };
    },
    undefined,
    { fields: ['actions'], action: state ? 'set-action' : 'not-allow', anyVersion: true },
  );
  ctx.body = { role_id: roleId, state, actions: actionIds.length };
}

/**
 * The access-managing screen of a role (every action grouped by module with the role's state, and
 * opening or closing actions) and the spec's users calls (set-new-password, users-change-status,
 * get-user-roles, add-user-roles, unlock). Each is declared with its right in metadata/modules/access.json.
 */
export const ACCESS_HANDLERS: Record<string, RouteHandler> = {
  'access.roleAccess': async (ctx, { knex, model, lang, row }) => {
    const id = row!.id as number;
    const rows = await roleActionStates(knex, id);
    const categories = new Map<string, { id: string; name: string; actions: unknown[] }>();
    for (const r of rows) {
      let c = categories.get(r.module);
      if (!c) {
        c = { id: r.module, name: moduleCaption(model, lang, r.module), actions: [] };
        categories.set(r.module, c);
      }
      c.actions.push({ id: r.id, name: r.name?.[lang] || r.name?.uz || translate(model, lang, r.caption), kind: r.kind, state: r.state });
    }
    const name = (row!.name as Record<string, string> | null)?.[lang] || (row!.name as Record<string, string> | null)?.uz || row!.code;
    ctx.body = { role_id: id, role: { id, code: row!.code, name }, categories: [...categories.values()] };
  },
  'access.setAction': (ctx, rc) => setState(ctx, rc, 1, bodyOf(ctx)),
  'access.notAllow': (ctx, rc) => setState(ctx, rc, 0, bodyOf(ctx)),
  'access.updateAccessStatus': async (ctx, rc) => {
    const body = bodyOf(ctx);
    if (body.state !== 0 && body.state !== 1)
      throw validationError({ state: { key: body.state === undefined ? 'validation.required' : 'validation.wrong_value' } });
    if (body.action_id === undefined) throw validationError({ action_id: { key: 'validation.required' } });
    await setState(ctx, rc, body.state, { action_id: body.action_id });
  },

  /** An administrator sets a user's password: a write of the user (audited, their sessions end). */
  'access.setUserPassword': async (ctx, rc) => {
    const body = bodyOf(ctx);
    const password = typeof body.password === 'string' ? body.password : '';
    const errors = passwordErrors(password, body.password_repeat ?? '');
    if (errors) throw validationError(errors);
    await rc.repo().update(rc.id!, { password }, undefined, { fields: ['password'], action: 'set-password', anyVersion: true });
    ctx.body = { ok: true };
  },
  'access.changeStatus': async (ctx, rc) => {
    const body = bodyOf(ctx);
    if (body.status !== 'active' && body.status !== 'blocked')
      throw validationError({ status: { key: body.status === undefined ? 'validation.required' : 'validation.wrong_value' } });
    ctx.body = await new Workflow(rc.repo()).run(rc.id!, body.status === 'blocked' ? 'block' : 'unblock', body);
  },
  'access.userRoles': async (ctx, rc) => {
    // the roles of a user the caller may read: the roles' book read with them
    ctx.body = await rc
      .trustedRepo('user-roles')
      .scoped('read', rc.knex)
      .whereIn('t.id', rc.row!.roles as number[])
      .orderBy('t.id')
      .select('t.id', 't.code', 't.name');
  },
  /** The spec's add-user-roles: the `assign-roles` workflow action of users (its own right, and nobody grants a role whose actions they lack). */
  'access.addUserRoles': async (ctx, rc) => {
    const ids = bodyOf(ctx).role_ids;
    if (!Array.isArray(ids))
      throw validationError({ role_ids: { key: ids === undefined ? 'validation.required' : 'validation.wrong_format' } });
    const result = await new Workflow(rc.repo()).run(rc.id!, 'assign-roles', { roles: ids });
    ctx.body = result;
  },
  /** Lifts a sign-in lockout: failures before now no longer count. */
  'access.unlock': async (ctx, rc) => {
    const { knex, row } = rc;
    // lifting a lock opens an account to guessing again: only for users no stronger than the caller
    await assertPrivileges(knex, rc.entity!, rc.principal!, row!, row!);
    await knex.transaction(async (trx) => {
      await recordUnlock(trx, row!);
      await rc
        .repo()
        .other(rc.entity!.name, { trx })
        .note(row!.id as number, 'unlock', { locked: false });
    });
    ctx.body = { ok: true };
  },
};
