import Router from '@koa/router';
import type { Knex } from 'knex';
import type { AppState } from './middleware.ts';
import { authenticate } from './middleware.ts';
import { ApiError, validationError } from './errors.ts';
import { verifyPassword } from '../auth/password.ts';
import { createSession, revokeSession } from '../auth/sessions.ts';

/** `admin/auth`: login returns a bearer token, the user and their actions; logout ends the session. */
export function authRoutes(knex: Knex): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/admin/auth' });

  router.post('/login', async (ctx) => {
    const body = (ctx.request.body ?? {}) as { username?: unknown; password?: unknown };
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const errors: Record<string, { key: string }> = {};
    if (!username) errors.username = { key: 'validation.username_required' };
    if (!password) errors.password = { key: 'validation.required' };
    if (Object.keys(errors).length) throw validationError(errors);

    const user = await knex('users').whereRaw('lower(username) = lower(?)', [username]).first();
    const ok = await verifyPassword(password, user?.password);
    const log = (success: boolean, reason: string | null) => knex('login_logs').insert({
      username: username.slice(0, 100), user_id: user?.id ?? null, ip: ctx.ip, user_agent: ctx.get('User-Agent').slice(0, 500), success, reason,
    });
    if (!user || !ok) { await log(false, user ? 'wrong_password' : 'unknown_user'); throw new ApiError('loginFailed'); }
    if (user.status !== 'active') { await log(false, 'blocked'); throw new ApiError('userBlocked'); }
    const token = await createSession(knex, user.id, { ip: ctx.ip, userAgent: ctx.get('User-Agent') });
    await log(true, null);
    const actions = await knex('role_actions as ra').join('user_roles as ur', 'ur.role_id', 'ra.role_id')
      .where('ur.user_id', user.id).groupBy('ra.action_id').orderBy('ra.action_id')
      .select('ra.action_id as id', knex.raw('max(ra.state)::int as state'));
    ctx.body = {
      token,
      user: {
        id: user.id, username: user.username, fio: user.fio, email: user.email, phone: user.phone,
        lang_code: user.lang_code, img_resource_id: user.img_resource_id,
      },
      actions,
    };
  });

  router.post('/logout', authenticate(knex), async (ctx) => {
    await revokeSession(knex, ctx.state.token!);
    ctx.body = { ok: true };
  });

  return router;
}
