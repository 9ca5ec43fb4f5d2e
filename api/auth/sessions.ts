import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Principal } from './ability.ts';
import { ApiError } from '../kernel/errors.ts';
import { configNumber } from './config.ts';
import { announceAuthChange, type SessionCache, type SessionPrincipal } from './session-cache.ts';

const TOUCH_EVERY_MS = 60 * 1000;
const ttlMs = async (knex: Knex) => (await configNumber(knex, 'auth.session_minutes')) * 60 * 1000;

/** Tokens are 32 random bytes; only their SHA-256 is stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: tokenHash(token) };
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(knex: Knex, userId: number, meta: { ip?: string; userAgent?: string }): Promise<string> {
  const { token, hash } = newToken();
  await knex('sessions').insert({
    token_hash: hash,
    user_id: userId,
    ip: meta.ip ?? null,
    user_agent: (meta.userAgent ?? '').slice(0, 500),
    expires_at: new Date(Date.now() + (await ttlMs(knex))),
  });
  return token;
}

/** Ends a session (sign-out); every process forgets it at once. */
export async function revokeSession(knex: Knex, token: string): Promise<void> {
  await knex.transaction(async (trx) => {
    const ids = await trx('sessions')
      .where({ token_hash: tokenHash(token) })
      .whereNull('revoked_at')
      .update({ revoked_at: trx.fn.now() }, ['id']);
    await announceAuthChange(trx, { s: ids.map((r: { id: number }) => r.id) });
  });
}

/** The user's allowed action ids (state 1 in any of their roles). */
export const ACTIONS_SQL = `coalesce((select array_agg(distinct ra.action_id) from user_roles ur
  join role_actions ra on ra.role_id = ur.role_id and ra.state = 1 where ur.user_id = u.id), '{}') as actions`;

/** The user's role ids (any state of their actions): a change of one of these roles drops their cached session. */
const ROLES_SQL = `coalesce((select array_agg(ur.role_id) from user_roles ur where ur.user_id = u.id), '{}') as roles`;

/**
 * The caller of a bearer token. One query finds the session, its user, the user's actions and
 * roles; with a `cache` (the API's, api/auth/session-cache.ts) what it found is kept for the next
 * requests of the session, so they cost no query — until a write announces a change of the
 * session, the user or their roles (at once, in every process), the session expires, or
 * ENTRY_MAX_AGE_MS passes. Expired sessions answer "Sessiya vaqti tugadi"; a session is extended on
 * use (at most once a minute, so reads do not all write).
 */
export async function principalForToken(knex: Knex, token: string, cache?: SessionCache): Promise<SessionPrincipal> {
  const hash = tokenHash(token);
  const now = Date.now();
  const hit = cache?.get(hash, now);
  if (hit) return hit.principal;
  const generation = cache?.generation ?? 0;
  const row = await knex
    .raw(
      `select s.id as session_id, s.expires_at, s.last_seen_at, u.id, u.username, u.status, u.lang_code,
            u.region_id, u.branch_id, u.subject_id, ${ACTIONS_SQL}${cache ? `, ${ROLES_SQL}` : ''}
       from sessions s join users u on u.id = s.user_id
      where s.token_hash = ? and s.revoked_at is null`,
      [hash],
    )
    .then((r: { rows: Record<string, unknown>[] }) => r.rows[0]);
  if (!row) throw new ApiError('unauthorized');
  let expiresAt = new Date(row.expires_at as string).getTime();
  let lastSeenAt = new Date(row.last_seen_at as string).getTime();
  if (expiresAt <= now) throw new ApiError('sessionExpired');
  if (row.status !== 'active') throw new ApiError('userBlocked');
  if (now - lastSeenAt > TOUCH_EVERY_MS) {
    lastSeenAt = now;
    expiresAt = now + (await ttlMs(knex));
    await knex('sessions')
      .where({ id: row.session_id })
      .update({ last_seen_at: new Date(lastSeenAt), expires_at: new Date(expiresAt) });
  }
  const actions = (row.actions as number[]).map(Number);
  const principal: SessionPrincipal = {
    sessionId: row.session_id as number,
    id: row.id as number,
    username: row.username as string,
    lang_code: row.lang_code as string,
    actions: cache ? cache.actionSet(actions) : new Set(actions),
    region_id: (row.region_id as number | null) ?? null,
    branch_id: (row.branch_id as number | null) ?? null,
    subject_id: (row.subject_id as number | null) ?? null,
  };
  cache?.set(hash, generation, { principal, roles: (row.roles as number[]).map(Number), expiresAt, lastSeenAt }, now);
  return principal;
}

/** Ends every open session of a user (blocked, or given a new password); every process forgets them when the write commits. */
export async function revokeUserSessions(db: Knex | Knex.Transaction, userId: number, except?: number): Promise<void> {
  const q = db('sessions').where({ user_id: userId }).whereNull('revoked_at');
  if (except !== undefined) q.whereNot('id', except);
  const ids = await q.update({ revoked_at: db.fn.now() }, ['id']);
  await announceAuthChange(db, { s: ids.map((r: { id: number }) => r.id) });
}

/**
 * A user's principal as it stands now, without a session (a background job runs as the user who
 * asked for it, with the rights and scope they hold when it runs): a user who is gone or blocked
 * is refused like their session would be.
 */
export async function principalForUser(db: Knex | Knex.Transaction, userId: number): Promise<Principal & { lang_code: string }> {
  const row = await db
    .raw(
      `select u.id, u.username, u.status, u.lang_code, u.region_id, u.branch_id, u.subject_id, ${ACTIONS_SQL} from users u where u.id = ?`,
      [userId],
    )
    .then((r: { rows: Record<string, unknown>[] }) => r.rows[0]);
  if (!row) throw new ApiError('unauthorized');
  if (row.status !== 'active') throw new ApiError('userBlocked');
  return {
    id: row.id as number,
    username: row.username as string,
    lang_code: row.lang_code as string,
    actions: new Set((row.actions as number[]).map(Number)),
    region_id: (row.region_id as number | null) ?? null,
    branch_id: (row.branch_id as number | null) ?? null,
    subject_id: (row.subject_id as number | null) ?? null,
  };
}
