import Router from '@koa/router';
import type { Knex } from 'knex';
import type { AppState, AppContext } from './middleware.ts';
import { authenticate } from './middleware.ts';
import { ApiError, validationError, type FieldError } from './errors.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { createSession, revokeSession } from '../auth/sessions.ts';
import { lockState } from '../auth/lockout.ts';
import { checkCode, sendCode, type CodePurpose } from '../auth/codes.ts';
import type { MetaModel } from '../meta/types.ts';
import { LANGS } from '../meta/types.ts';
import { FORMATS, normaliseFormatted } from '../meta/formats.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** A new password: at least six characters, repeated the same. */
export function passwordErrors(password: string, repeat: unknown): Record<string, FieldError> | null {
  const errors: Record<string, FieldError> = {};
  if (password.length < 6) errors.password = { key: 'validation.password_min' };
  if (repeat !== undefined && repeat !== password) errors.password_repeat = { key: 'validation.password_repeat' };
  return Object.keys(errors).length ? errors : null;
}

/**
 * `admin/auth`: login (with lockout), logout, one-time codes (send-confirm, check-code),
 * forgot-password and set-new-password, and edit-user-info for the signed-in user.
 */
export function authRoutes(knex: Knex, model: MetaModel): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/admin/auth' });
  const guard = authenticate(knex);
  const findUser = (username: string) => knex('users').whereRaw('lower(username) = lower(?)', [username]).first();

  router.post('/login', async (ctx) => {
    const body = (ctx.request.body ?? {}) as { username?: unknown; password?: unknown };
    const username = str(body.username).trim();
    const password = str(body.password);
    const errors: Record<string, FieldError> = {};
    if (!username) errors.username = { key: 'validation.username_required' };
    if (!password) errors.password = { key: 'validation.required' };
    if (Object.keys(errors).length) throw validationError(errors);

    const log = (user: { id: number } | undefined, success: boolean, reason: string | null) => knex('login_logs').insert({
      username: username.slice(0, 100), user_id: user?.id ?? null, ip: ctx.ip, user_agent: ctx.get('User-Agent').slice(0, 500), success, reason,
    });
    const lock = await lockState(knex, username, ctx.ip);
    if (lock.lockedMinutes > 0) {
      await log(undefined, false, 'locked');
      throw new ApiError('tooManyAttempts', 'errors.locked', { minutes: lock.lockedMinutes });
    }
    if (lock.delayMs) await sleep(lock.delayMs);
    const user = await findUser(username);
    const ok = await verifyPassword(password, user?.password);
    if (!user || !ok) { await log(user, false, user ? 'wrong_password' : 'unknown_user'); throw new ApiError('loginFailed'); }
    if (user.status !== 'active') { await log(user, false, 'blocked'); throw new ApiError('userBlocked'); }
    const token = await createSession(knex, user.id, { ip: ctx.ip, userAgent: ctx.get('User-Agent') });
    await log(user, true, null);
    ctx.body = { token, user: publicUser(user), actions: await userActions(knex, user.id) };
  });

  router.post('/logout', guard, async (ctx) => {
    await revokeSession(knex, ctx.state.token!);
    ctx.body = { ok: true };
  });

  /** Sends a code to the user's contact: to confirm it, or (purpose "reset") to reset a forgotten password. */
  const send = (purpose: CodePurpose) => async (ctx: AppContext) => {
    const username = str((ctx.request.body as { username?: unknown } | undefined)?.username).trim();
    if (!username && !ctx.state.principal) throw validationError({ username: { key: 'validation.username_required' } });
    const user = ctx.state.principal ? await knex('users').where({ id: ctx.state.principal.id }).first() : await findUser(username);
    // an unknown or blocked username answers like a known one, so accounts cannot be discovered
    if (!user || user.status !== 'active') { ctx.body = { sent: true }; return; }
    ctx.body = { sent: true, ...(await sendCode(knex, model, user, purpose)) };
  };
  router.post('/send-confirm', optionalAuth(knex), send('confirm'));
  router.post('/forgot-password', send('reset'));

  router.post('/check-code', optionalAuth(knex), async (ctx) => {
    const body = (ctx.request.body ?? {}) as { username?: unknown; code?: unknown; purpose?: unknown };
    const user = ctx.state.principal ? { id: ctx.state.principal.id } : await findUser(str(body.username).trim());
    if (!user) throw new ApiError('validation', 'errors.code_wrong', {}, { code: { key: 'errors.code_wrong' } });
    await checkCode(knex, user.id, body.purpose === 'reset' ? 'reset' : 'confirm', str(body.code));
    ctx.body = { confirmed: true };
  });

  /**
   * A new password: by the signed-in user (with their current password), or after forgot-password
   * (with the emailed or texted code). Every session of the user ends.
   */
  router.post('/set-new-password', optionalAuth(knex), async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const password = str(body.password);
    const errors = passwordErrors(password, body.password_repeat ?? '');
    let user: { id: number; password: string } | undefined;
    if (ctx.state.principal) {
      user = await knex('users').where({ id: ctx.state.principal.id }).first();
      const all = { ...(errors ?? {}) };
      if (!(await verifyPassword(str(body.old_password), user?.password))) all.old_password = { key: 'validation.old_password' };
      if (Object.keys(all).length) throw validationError(all);
    } else {
      if (errors) throw validationError(errors);
      user = await findUser(str(body.username).trim());
      if (!user) throw new ApiError('validation', 'errors.code_wrong', {}, { code: { key: 'errors.code_wrong' } });
      await checkCode(knex, user.id, 'reset', str(body.code));
    }
    await knex.transaction(async (trx) => {
      await trx('users').where({ id: user!.id }).update({ password: await hashPassword(password), updated_at: trx.fn.now(), version: trx.raw('version + 1') });
      await trx('sessions').where({ user_id: user!.id }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
    });
    ctx.body = { ok: true };
  });

  router.post('/edit-user-info', guard, async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const changes: Record<string, unknown> = {};
    const errors: Record<string, FieldError> = {};
    if ('fio' in body) {
      const fio = str(body.fio).trim();
      if (!fio || fio.length > 255) errors.fio = { key: fio ? 'validation.max_length' : 'validation.required', args: { limit: 255 } };
      else changes.fio = fio;
    }
    for (const [field, format] of [['email', 'email'], ['phone', 'phone']] as const) {
      if (!(field in body)) continue;
      const v = normaliseFormatted(format, str(body[field]).trim()) as string;
      if (v === '') changes[field] = null;
      else if (!new RegExp(FORMATS[format].pattern).test(v)) errors[field] = { key: FORMATS[format].message };
      else changes[field] = v;
    }
    if ('lang_code' in body) {
      if (!(LANGS as readonly unknown[]).includes(body.lang_code)) errors.lang_code = { key: 'validation.wrong_value' };
      else changes.lang_code = body.lang_code;
    }
    if ('img_resource_id' in body) {
      const id = body.img_resource_id;
      if (id !== null && !(Number.isSafeInteger(id) && (await knex('resources').where({ id }).first('id')))) errors.img_resource_id = { key: 'validation.ref_not_found' };
      else changes.img_resource_id = id;
    }
    if (Object.keys(errors).length) throw validationError(errors);
    if (Object.keys(changes).length) await knex('users').where({ id: ctx.state.principal!.id }).update({ ...changes, updated_at: knex.fn.now(), version: knex.raw('version + 1') });
    ctx.body = { user: publicUser(await knex('users').where({ id: ctx.state.principal!.id }).first()) };
  });

  return router;
}

export function publicUser(user: Record<string, unknown>) {
  const { id, username, fio, email, phone, lang_code, img_resource_id } = user;
  return { id, username, fio, email, phone, lang_code, img_resource_id };
}

/** The user's actions with their state: the highest state any of their roles gives each. */
export function userActions(knex: Knex, userId: number) {
  return knex('role_actions as ra').join('user_roles as ur', 'ur.role_id', 'ra.role_id')
    .where('ur.user_id', userId).groupBy('ra.action_id').orderBy('ra.action_id')
    .select('ra.action_id as id', knex.raw('max(ra.state)::int as state'));
}

/** Reads a bearer token when one is sent; calls without one go on as anonymous. */
function optionalAuth(knex: Knex) {
  const guard = authenticate(knex);
  return async (ctx: AppContext, next: () => Promise<unknown>) => (ctx.get('Authorization') ? guard(ctx, next) : next());
}
