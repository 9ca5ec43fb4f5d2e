import type { Knex } from 'knex';
import { configNumber } from './config.ts';

const FAILURES = ['wrong_password', 'unknown_user'];

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
 * Failures count since the last success or administrator's unlock, within the lock window.
 */
export async function lockState(knex: Knex, username: string, ip: string): Promise<LockState> {
  const [slowAfter, lockAfter, lockMinutes, ipLockAfter] = await Promise.all([
    configNumber(knex, 'auth.slow_after_failures'), configNumber(knex, 'auth.lock_after_failures'),
    configNumber(knex, 'auth.lock_minutes'), configNumber(knex, 'auth.ip_lock_after_failures'),
  ]);
  const windowStart = new Date(Date.now() - lockMinutes * 60_000);
  const since = (column: 'username' | 'ip', value: string) => knex('login_logs')
    .whereRaw(`lower(??) = lower(?)`, [column, value]).where('created_at', '>', windowStart)
    .where((q) => q.where('success', true).orWhere('reason', 'unlocked'))
    .max('created_at as at').first();
  const failuresOf = async (column: 'username' | 'ip', value: string) => {
    const reset = (await since(column, value))?.at as Date | null;
    const rows = await knex('login_logs').whereRaw(`lower(??) = lower(?)`, [column, value]).whereIn('reason', FAILURES)
      .where('created_at', '>', reset && reset > windowStart ? reset : windowStart).orderBy('created_at', 'desc').select('created_at');
    return rows.map((r: { created_at: Date }) => new Date(r.created_at));
  };
  const [byUser, byIp] = await Promise.all([failuresOf('username', username), failuresOf('ip', ip)]);
  const lockedBy = (list: Date[], limit: number) => (list.length >= limit ? Math.ceil((list[limit - 1].getTime() + lockMinutes * 60_000 - Date.now()) / 60_000) : 0);
  const lockedMinutes = Math.max(lockedBy(byUser, lockAfter), lockedBy(byIp, ipLockAfter), 0);
  const over = byUser.length - slowAfter + 1;
  return { failures: byUser.length, lockedMinutes, delayMs: over > 0 ? Math.min(over * 500, 3000) : 0 };
}
