import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import type { MetaModel } from '../meta/types.ts';
import type { AppState, AppContext } from './middleware.ts';
import { badRequest, forbidden, notFound, validationError } from './errors.ts';
import { translate } from '../meta/captions.ts';
import { Repository } from '../engine/repository.ts';
import { Workflow } from '../engine/workflow.ts';
import { hashPassword } from '../auth/password.ts';
import { passwordErrors } from './auth-routes.ts';

/**
 * `user-role-access` (the access-managing screen of a role: every action grouped by module, and
 * allowing or closing one action, a module or all) and the `users` calls (set-new-password,
 * users-change-status, get-user-roles, add-user-roles, unlock). Guarded by the action ids of the
 * access-managing route and of the roles and users entities.
 */
export function accessRoutes(model: MetaModel, knex: Knex, guard: Middleware<AppState>): Router<AppState> {
  const router = new Router<AppState>();
  const roles = model.entities.get('user-roles')!;
  const users = model.entities.get('users')!;
  const viewAccess = model.menu.flatMap((s) => s.children).find((c) => c.route.startsWith('access-managing'))?.action ?? roles.access.read;
  const changeAccess = roles.access.update!;
  const need = (ctx: AppContext, id: number | undefined) => { if (id === undefined || !ctx.state.principal!.actions.has(id)) throw forbidden(); };
  const roleId = async (raw: unknown) => {
    const id = Number(raw);
    if (!Number.isSafeInteger(id) || !(await knex('roles').where({ id }).first('id'))) throw notFound();
    return id;
  };

  router.get('/user-role-access/:roleId', guard, async (ctx) => {
    need(ctx, viewAccess);
    const id = await roleId(ctx.params.roleId);
    const lang = ctx.state.lang;
    const rows = await knex('app_actions as a').leftJoin('role_actions as ra', (j) => j.on('ra.action_id', 'a.id').andOn('ra.role_id', knex.raw('?', [id])))
      .orderBy(['a.module', 'a.id']).select('a.id', 'a.name', 'a.caption', 'a.module', 'a.kind', knex.raw('coalesce(ra.state, 0)::int as state'));
    const categories = new Map<string, { id: string; name: string; actions: unknown[] }>();
    for (const r of rows) {
      let c = categories.get(r.module);
      if (!c) {
        c = { id: r.module, name: moduleCaption(model, lang, r.module), actions: [] };
        categories.set(r.module, c);
      }
      c.actions.push({ id: r.id, name: r.name?.[lang] || r.name?.uz || translate(model, lang, r.caption), kind: r.kind, state: r.state });
    }
    const role = await knex('roles').where({ id }).first('code', 'name');
    const name = role.name?.[lang] || role.name?.uz || role.code;
    ctx.body = { role_id: id, role: { id, code: role.code, name }, categories: [...categories.values()] };
  });

  const setState = (state: 0 | 1) => async (ctx: AppContext) => {
    need(ctx, changeAccess);
    const body = (ctx.request.body ?? {}) as { role_id?: unknown; action_id?: unknown; category?: unknown; all?: unknown; state?: unknown };
    const id = await roleId(body.role_id);
    const q = knex('app_actions');
    if (body.action_id !== undefined) q.where('id', Number(body.action_id));
    else if (typeof body.category === 'string') q.where('module', body.category);
    else if (body.all !== true) throw badRequest('errors.select_rows');
    const actionIds: number[] = await q.pluck('id');
    if (!actionIds.length) throw notFound();
    await knex.transaction(async (trx) => {
      for (let i = 0; i < actionIds.length; i += 500) {
        await trx('role_actions').insert(actionIds.slice(i, i + 500).map((action_id) => ({ role_id: id, action_id, state })))
          .onConflict(['role_id', 'action_id']).merge(['state']);
      }
    });
    ctx.body = { role_id: id, state, actions: actionIds.length };
  };
  router.post('/user-role-access/set-action', guard, setState(1));
  router.post('/user-role-access/not-allow', guard, setState(0));
  router.post('/user-role-access/update-access-status', guard, async (ctx) => {
    const state = (ctx.request.body as { state?: unknown } | undefined)?.state;
    if (state !== 0 && state !== 1) throw validationError({ state: { key: 'validation.wrong_value' } });
    if ((ctx.request.body as { action_id?: unknown }).action_id === undefined) throw validationError({ action_id: { key: 'validation.required' } });
    await setState(state)(ctx as AppContext);
  });

  const usersPath = `${users.path}/:id`;
  const userRepo = (ctx: AppContext) => new Repository({ knex, model, principal: ctx.state.principal!, lang: ctx.state.lang }, users);

  router.post(`${usersPath}/set-new-password`, guard, async (ctx) => {
    const repo = userRepo(ctx);
    repo.assertCan('update');
    const id = Number(ctx.params.id);
    await repo.getOne(id, 'update');
    const body = (ctx.request.body ?? {}) as { password?: unknown; password_repeat?: unknown };
    const password = typeof body.password === 'string' ? body.password : '';
    const errors = passwordErrors(password, body.password_repeat ?? '');
    if (errors) throw validationError(errors);
    await knex.transaction(async (trx) => {
      await trx('users').where({ id }).update({ password: await hashPassword(password), version: trx.raw('version + 1'), updated_at: trx.fn.now(), updated_by: ctx.state.principal!.id });
      await trx('sessions').where({ user_id: id }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
    });
    ctx.body = { ok: true };
  });

  router.post(`${usersPath}/users-change-status`, guard, async (ctx) => {
    const status = (ctx.request.body as { status?: unknown } | undefined)?.status;
    if (status !== 'active' && status !== 'blocked') throw validationError({ status: { key: 'validation.wrong_value' } });
    ctx.body = await new Workflow(userRepo(ctx)).run(Number(ctx.params.id), status === 'blocked' ? 'block' : 'unblock', ctx.request.body as Record<string, unknown>);
  });

  router.get(`${usersPath}/get-user-roles`, guard, async (ctx) => {
    const user = await userRepo(ctx).getOne(Number(ctx.params.id));
    ctx.body = await knex('roles').whereIn('id', user.roles as number[]).orderBy('id').select('id', 'code', 'name');
  });

  router.post(`${usersPath}/add-user-roles`, guard, async (ctx) => {
    const repo = userRepo(ctx);
    const id = Number(ctx.params.id);
    const user = await repo.getOne(id, 'update');
    const ids = (ctx.request.body as { role_ids?: unknown } | undefined)?.role_ids;
    if (!Array.isArray(ids) || !ids.every((x) => Number.isSafeInteger(x))) throw validationError({ role_ids: { key: 'validation.wrong_format' } });
    ctx.body = await repo.update(id, { roles: ids }, user.version);
  });

  /** Lifts a sign-in lockout: failures before now no longer count. */
  router.post(`${usersPath}/unlock`, guard, async (ctx) => {
    const repo = userRepo(ctx);
    repo.assertCan('update');
    const user = await repo.getOne(Number(ctx.params.id), 'update');
    await knex('login_logs').insert({ username: user.username, user_id: user.id, ip: null, success: false, reason: 'unlocked' });
    ctx.body = { ok: true };
  });
  return router;
}

function moduleCaption(model: MetaModel, lang: 'uz' | 'uk' | 'ru', module: string): string {
  const section = model.menu.find((s) => s.route === `/${module}`);
  return section ? translate(model, lang, section.caption) : module;
}
