import type { Knex } from 'knex';
import { configNumber } from './config.ts';

/** Reasons of login_logs rows that count as failed attempts; `pending` is an attempt being checked. */
const FAILURES = ['wrong_password', 'unknown_user', 'pending'];

export interface LockState {
  /** failed attempts counted now */
  failures: number;
  /** minutes until sign-in is allowed again; 0 when it is */
  lockedMinutes: number;
  /** milliseconds to wait before answering, to slow guessing down */
  delayMs: number;
}

/**
 * Repeated failed sign-ins for one username, or from one address, first slow down (a growing
 * delay after `auth.slow_after_failures`) and then lock for `auth.lock_minutes` (after
 * `auth.lock_after_failures` for a username, `auth.ip_lock_after_failures` for an address).
 * Failures count since the last success or administrator's unlock, within the lock window; an
 * attempt still being checked counts as a failure until it is known.
 */
export async function lockState(db: Knex | Knex.Transaction, username: string, ip: string, config?: LockConfig): Promise<LockState> {
  const { slowAfter, lockAfter, lockMinutes, ipLockAfter } = config ?? (await lockConfig(db as Knex));
  const windowStart = new Date(Date.now() - lockMinutes * 60_000);
  const since = (column: 'username' | 'ip', value: string) =>
    db('login_logs')
      .whereRaw(`lower(??) = lower(?)`, [column, value])
      .where('created_at', '>', windowStart)
      .where((q) => q.where('success', true).orWhere('reason', 'unlocked'))
      .max('created_at as at')
      .first();
  const failuresOf = async (column: 'username' | 'ip', value: string) => {
    const reset = (await since(column, value))?.at as Date | null;
    const rows = await db('login_logs')
      .whereRaw(`lower(??) = lower(?)`, [column, value])
      .whereIn('reason', FAILURES)
      .where('created_at', '>', reset && reset > windowStart ? reset : windowStart)
      .orderBy('created_at', 'desc')
      .select('created_at');
    return rows.map((r: { created_at: Date }) => new Date(r.created_at));
  };
  const byUser = await failuresOf('username', username);
  const byIp = await failuresOf('ip', ip);
  const lockedBy = (list: Date[], limit: number) =>
    list.length >= limit ? Math.ceil((list[limit - 1].getTime() + lockMinutes * 60_000 - Date.now()) / 60_000) : 0;
  const lockedMinutes = Math.max(lockedBy(byUser, lockAfter), lockedBy(byIp, ipLockAfter), 0);
  const over = byUser.length - slowAfter + 1;
  return { failures: byUser.length, lockedMinutes, delayMs: over > 0 ? Math.min(over * 500, 3000) : 0 };
}

export interface LockConfig {
  slowAfter: number;
  lockAfter: number;
  lockMinutes: number;
  ipLockAfter: number;
}

/** The lock's settings (cached settings, read outside any transaction). */
export async function lockConfig(knex: Knex): Promise<LockConfig> {
  const [slowAfter, lockAfter, lockMinutes, ipLockAfter] = await Promise.all([
    configNumber(knex, 'auth.slow_after_failures'),
    configNumber(knex, 'auth.lock_after_failures'),
    configNumber(knex, 'auth.lock_minutes'),
    configNumber(knex, 'auth.ip_lock_after_failures'),
  ]);
  return { slowAfter, lockAfter, lockMinutes, ipLockAfter };
}

export interface Attempt extends LockState {
  /** the login_logs row of this attempt (reason `pending` until `endAttempt`), or of its refusal */
  logId: number;
}

/**
 * Starts a sign-in attempt: under a lock on the username and on the address (so parallel attempts
 * are counted one after another, in every server process), reads the lock state and, unless
 * locked, records the attempt as pending — it counts as a failure until the password is checked.
 */
export async function beginAttempt(knex: Knex, o: { username: string; ip: string; userAgent: string }): Promise<Attempt> {
  const config = await lockConfig(knex);
  return knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?)), pg_advisory_xact_lock(hashtext(?))', [
      `login-user:${o.username.toLowerCase()}`,
      `login-ip:${o.ip}`,
    ]);
    const state = await lockState(trx, o.username, o.ip, config);
    const [row] = await trx('login_logs')
      .insert({
        username: o.username.slice(0, 100),
        ip: o.ip,
        user_agent: o.userAgent.slice(0, 500),
        success: false,
        reason: state.lockedMinutes > 0 ? 'locked' : 'pending',
      })
      .returning('id');
    return { ...state, logId: row.id };
  });
}

/** Records how an attempt ended: `success`, or the reason it failed. */
export async function endAttempt(
  knex: Knex,
  logId: number,
  userId: number | null,
  outcome: 'success' | 'wrong_password' | 'unknown_user' | 'blocked',
): Promise<void> {
  await knex('login_logs')
    .where({ id: logId })
    .update({ user_id: userId, success: outcome === 'success', reason: outcome === 'success' ? null : outcome });
}

/**
 * An administrator lifts a user's lockout: failures before now no longer count (the `unlocked` row
 * the count starts after). The lockout's own bookkeeping, like each attempt's row: a log outside
 * the write path (docs/decisions/0083); the user's `unlock` note is the audit of it.
 */
export async function recordUnlock(db: Knex | Knex.Transaction, user: { id?: unknown; username?: unknown }): Promise<void> {
  await db('login_logs').insert({ username: user.username, user_id: user.id, ip: null, success: false, reason: 'unlocked' });
}
