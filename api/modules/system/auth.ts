import type { Knex } from 'knex';
import type { RouteHandler } from '../types.ts';
import type { AppContext } from '../../http/middleware.ts';
import type { MetaModel } from '../../meta/types.ts';
import type { Principal } from '../../auth/ability.ts';
import { ApiError, validationError, type FieldError } from '../../kernel/errors.ts';
import { verifyPassword } from '../../auth/password.ts';
import { createSession, revokeSession } from '../../auth/sessions.ts';
import { beginAttempt, endAttempt } from '../../auth/lockout.ts';
import { checkCode as checkOneTimeCode, sendCode, type CodePurpose } from '../../auth/codes.ts';
import { notify } from '../../notify/queue.ts';
import { repositoryOf, type Repository } from '../../engine/repository.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { configNumber, type ConfigKey } from '../../auth/config.ts';
import { readableFiles } from '../../engine/files.ts';
import { accountByName, ownAccountRow } from '../../read-models/accounts.ts';
import { userActions } from '../../read-models/rights.ts';
import { assertDeliverable } from './delivery.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const bodyOf = (ctx: AppContext) => (ctx.request.body ?? {}) as Record<string, unknown>;

/** A new password: at least six characters, repeated the same. */
export function passwordErrors(password: string, repeat: unknown): Record<string, FieldError> | null {
  const errors: Record<string, FieldError> = {};
  if (password.length < 6) errors.password = { key: 'validation.password_min' };
  if (repeat !== undefined && repeat !== password) errors.password_repeat = { key: 'validation.password_repeat' };
  return Object.keys(errors).length ? errors : null;
}

const findUser = accountByName;

/**
 * The user's own account written through the engine's one path (validated by the users entity's
 * metadata, audited, the password hook ending other sessions): the user acts on themselves, so
 * their rights over users are not asked.
 */
export function ownAccount(knex: Knex, model: MetaModel, userId: number, username: string, lang: 'uz' | 'uk' | 'ru'): Repository {
  const self: Principal = { id: userId, username, actions: new Set(), region_id: null, branch_id: null, subject_id: null };
  return repositoryOf({ knex, model, principal: self, lang, trusted: true }, 'users');
}

export function publicUser(user: Record<string, unknown>) {
  const { id, username, fio, email, phone, lang_code, img_resource_id } = user;
  return { id, username, fio, email, phone, lang_code, img_resource_id };
}

/**
 * `POST admin/auth/login`: attempts for a username (and from an address) are counted one after
 * another even when sent in parallel — each is recorded before its password is checked — so a
 * burst of wrong passwords meets the lock after `auth.lock_after_failures` of them.
 */
const login: RouteHandler = async (ctx, { knex }) => {
  const body = bodyOf(ctx);
  const username = str(body.username).trim();
  const password = str(body.password);
  const errors: Record<string, FieldError> = {};
  if (!username) errors.username = { key: 'validation.username_required' };
  else if (username.length > 100) errors.username = { key: 'validation.max_length', args: { limit: 100 } };
  if (!password) errors.password = { key: 'validation.required' };
  else if (password.length > 200) errors.password = { key: 'validation.max_length', args: { limit: 200 } };
  if (Object.keys(errors).length) throw validationError(errors);
  const attempt = await beginAttempt(knex, { username, ip: ctx.ip, userAgent: ctx.get('User-Agent') });
  if (attempt.lockedMinutes > 0) throw new ApiError('tooManyAttempts', 'errors.locked', { minutes: attempt.lockedMinutes });
  if (attempt.delayMs) await sleep(attempt.delayMs);
  const user = await findUser(knex, username);
  const ok = await verifyPassword(password, user?.password);
  if (!user || !ok) {
    await endAttempt(knex, attempt.logId, user?.id ?? null, user ? 'wrong_password' : 'unknown_user');
    throw new ApiError('loginFailed');
  }
  if (user.status !== 'active') {
    await endAttempt(knex, attempt.logId, user.id, 'blocked');
    throw new ApiError('userBlocked');
  }
  const token = await createSession(knex, user.id, { ip: ctx.ip, userAgent: ctx.get('User-Agent') });
  await endAttempt(knex, attempt.logId, user.id, 'success');
  ctx.body = { token, user: publicUser(user), actions: await userActions(knex, user.id) };
};

/** A session for a user who proved themselves another way than a password, recorded in the sign-in log like a login. */
export async function signInWithoutPassword(
  ctx: AppContext,
  knex: Knex,
  user: { id: number; username: string; status: string },
): Promise<Record<string, unknown>> {
  const attempt = await beginAttempt(knex, { username: user.username, ip: ctx.ip, userAgent: ctx.get('User-Agent') });
  if (attempt.lockedMinutes > 0) throw new ApiError('tooManyAttempts', 'errors.locked', { minutes: attempt.lockedMinutes });
  if (user.status !== 'active') {
    await endAttempt(knex, attempt.logId, user.id, 'blocked');
    throw new ApiError('userBlocked');
  }
  const token = await createSession(knex, user.id, { ip: ctx.ip, userAgent: ctx.get('User-Agent') });
  await endAttempt(knex, attempt.logId, user.id, 'success');
  const row = (await ownAccountRow(knex, { id: user.id }))!;
  return { token, user: publicUser(row), actions: await userActions(knex, user.id) };
}

const logout: RouteHandler = async (ctx, { knex }) => {
  await revokeSession(knex, ctx.state.token!);
  ctx.body = { ok: true };
};

/** The anonymous code requests' limiters (the `rate_limits` table, shared by every server process), by name and limit. */
const codeLimiters = new WeakMap<Knex, Map<string, RateLimiter>>();
async function codeLimiter(knex: Knex, name: string, key: ConfigKey): Promise<RateLimiter> {
  const limit = Math.max(1, await configNumber(knex, key));
  let byName = codeLimiters.get(knex);
  if (!byName) codeLimiters.set(knex, (byName = new Map()));
  const id = `${name}:${limit}`;
  let l = byName.get(id);
  if (!l) byName.set(id, (l = new RateLimiter(knex, name, limit, 3600_000)));
  return l;
}

/**
 * An anonymous request for a code (forgot-password, or a confirmation by name) is counted per client
 * address (`auth.code_requests_per_address`) and per account name as given, case folded
 * (`auth.code_requests_per_account`), each an hour; beyond either, a 429 — the same for every name,
 * known or not, so the limit tells no accounts apart.
 */
export async function limitCodeRequests(knex: Knex, ip: string, username: string): Promise<void> {
  const byAddress = await codeLimiter(knex, 'code-request-ip', 'auth.code_requests_per_address');
  const byAccount = await codeLimiter(knex, 'code-request-user', 'auth.code_requests_per_account');
  if (!(await byAddress.take(ip)) || !(await byAccount.take(username.toLowerCase())))
    throw new ApiError('tooManyAttempts', 'errors.code_requests_too_many');
}

/**
 * Sends a code: to the signed-in user (to confirm their contact: they are told where it went), or
 * — anonymously, to reset a forgotten password — to the named user; the anonymous answer is the
 * same whether the name is known, has a contact or not, and whether a code was sent this time;
 * anonymous requests are limited per address and per name (limitCodeRequests).
 */
const send =
  (purpose: CodePurpose): RouteHandler =>
  async (ctx, { knex, model, principal }) => {
    if (principal && purpose === 'confirm') {
      const user = (await ownAccountRow(knex, principal))!;
      assertDeliverable(user?.email ? 'email' : user?.phone ? 'sms' : undefined);
      const sent = await sendCode(knex, model, user, purpose, notify);
      ctx.body = { sent: true, ...(sent ?? {}) };
      return;
    }
    const username = str(bodyOf(ctx).username).trim();
    if (!username) throw validationError({ username: { key: 'validation.username_required' } });
    if (username.length > 100) throw validationError({ username: { key: 'validation.max_length', args: { limit: 100 } } });
    assertDeliverable();
    await limitCodeRequests(knex, ctx.ip, username);
    const user = await findUser(knex, username);
    if (user && user.status === 'active' && (user.email || user.phone)) await sendCode(knex, model, user, purpose, notify);
    ctx.body = { sent: true };
  };

const checkCode: RouteHandler = async (ctx, { knex, principal }) => {
  const body = bodyOf(ctx);
  const user = principal ? await ownAccountRow(knex, principal) : await findUser(knex, str(body.username).trim().slice(0, 100));
  if (!user) throw new ApiError('validation', 'errors.code_wrong', {}, { code: { key: 'errors.code_wrong' } });
  const purpose = body.purpose === 'reset' ? 'reset' : 'confirm';
  await checkOneTimeCode(knex, user.id, purpose, str(body.code).slice(0, 20));
  // sign-in by code: an anonymous caller's right confirmation code (send-confirm by name) opens a session
  ctx.body =
    !principal && purpose === 'confirm' ? { confirmed: true, ...(await signInWithoutPassword(ctx, knex, user)) } : { confirmed: true };
};

/**
 * A new password: by the signed-in user (with their current password), or after forgot-password
 * (with the e-mailed or texted code). Written through the engine (audited); every session of the
 * user ends.
 */
const setNewPassword: RouteHandler = async (ctx, { knex, model, principal, lang }) => {
  const body = bodyOf(ctx);
  const password = str(body.password);
  const errors = passwordErrors(password, body.password_repeat ?? '');
  let user: { id: number; username: string; password: string } | undefined;
  if (principal) {
    user = await ownAccountRow(knex, principal);
    const all = { ...(errors ?? {}) };
    if (!(await verifyPassword(str(body.old_password), user?.password))) all.old_password = { key: 'validation.old_password' };
    if (Object.keys(all).length) throw validationError(all);
  } else {
    if (errors) throw validationError(errors);
    user = await findUser(knex, str(body.username).trim().slice(0, 100));
    if (!user) throw new ApiError('validation', 'errors.code_wrong', {}, { code: { key: 'errors.code_wrong' } });
    await checkOneTimeCode(knex, user.id, 'reset', str(body.code).slice(0, 20));
  }
  await ownAccount(knex, model, user!.id, user!.username, lang).update(user!.id, { password }, undefined, {
    fields: ['password'],
    action: principal ? 'change-password' : 'reset-password',
    anyVersion: true,
  });
  ctx.body = { ok: true };
};

/** The signed-in user's own name, contacts, language and photo, validated as the users entity says. */
const editUserInfo: RouteHandler = async (ctx, { knex, model, principal, lang }) => {
  const body = bodyOf(ctx);
  const fields = ['fio', 'email', 'phone', 'lang_code', 'img_resource_id'];
  if ('fio' in body && !str(body.fio).trim()) throw validationError({ fio: { key: 'validation.required' } });
  const changes = Object.fromEntries(fields.filter((f) => f in body).map((f) => [f, body[f]]));
  const account = ownAccount(knex, model, principal!.id, principal!.username, lang);
  // the account's own write is trusted, so the photo is checked here as the engine checks a file: one the caller may read, or the one it has
  const photo = changes.img_resource_id;
  if (
    Number.isSafeInteger(photo) &&
    Number((await account.getOne(principal!.id)).img_resource_id) !== photo &&
    !(await readableFiles(knex, model, principal!, [photo as number], lang)).has(photo as number)
  )
    throw validationError({ img_resource_id: { key: 'validation.file_not_found' } });
  const user = Object.keys(changes).length
    ? await account.update(principal!.id, changes, undefined, { fields, action: 'edit-user-info', anyVersion: true })
    : (await ownAccountRow(knex, principal!))!;
  ctx.body = { user: publicUser(user) };
};

const setLang: RouteHandler = async (ctx, { knex, model, principal, lang }) => {
  const value = bodyOf(ctx).lang;
  if (value !== 'uz' && value !== 'uk' && value !== 'ru') throw validationError({ lang: { key: 'validation.wrong_value' } });
  await ownAccount(knex, model, principal!.id, principal!.username, lang).update(principal!.id, { lang_code: value }, undefined, {
    fields: ['lang_code'],
    action: 'setlang',
    anyVersion: true,
  });
  ctx.body = { lang: value };
};

export const AUTH_HANDLERS: Record<string, RouteHandler> = {
  'system.login': login,
  'system.logout': logout,
  'system.sendConfirm': send('confirm'),
  'system.forgotPassword': send('reset'),
  'system.checkCode': checkCode,
  'system.setNewPassword': setNewPassword,
  'system.editUserInfo': editUserInfo,
  'system.setLang': setLang,
};
