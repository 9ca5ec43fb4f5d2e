import type { Knex } from 'knex';
import type { Principal } from './ability.ts';

/** The channel a write tells every server process on that sessions or rights changed (docs/sessions.md). */
export const AUTH_CHANNEL = 'ecofond_auth';

/**
 * What changed: sessions by id (a sign-out, a session row deleted), users by id (blocked, a new
 * password, their roles, scope, name or language, deleted), roles by id (their actions, deleted),
 * or everything (a listener that lost its connection and may have missed some).
 */
export interface AuthChange {
  s?: number[];
  u?: number[];
  r?: number[];
  all?: true;
}

/** A signed-in caller as the API sees them. */
export type SessionPrincipal = Principal & { sessionId: number; lang_code: string };

interface Entry {
  principal: SessionPrincipal;
  roles: number[];
  /** when the session ends unless it is used again (ms) */
  expiresAt: number;
  /** when the session was last marked used in the database (ms) */
  lastSeenAt: number;
  /** when the entry was read from the database (ms) */
  readAt: number;
}

/**
 * An entry is read again from the database after this long whatever happens: the session's
 * last-seen mark (and its extension) is written then, and a notification lost with a dropped
 * listener cannot keep a stale entry past it.
 */
export const ENTRY_MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * The sessions one process has looked up, by token hash, with the caller's actions — so a signed-in
 * request costs no query of its own. An entry never outlives its session's expiry nor
 * ENTRY_MAX_AGE_MS, and goes at once when a write announces a change of its session, user or roles
 * (`announceAuthChange`): locally when the write is made and again when it commits, and in every
 * other process through NOTIFY on AUTH_CHANNEL. A lookup that started before an invalidation does
 * not store what it read (the generation moved), so a row read just before a commit is never kept.
 *
 * The caller's action ids are kept once per distinct set: every user of the same roles shares one
 * `actions` Set, so what is built from it (their abilities, api/auth/ability.ts) is built once.
 */
export class SessionCache {
  private entries = new Map<string, Entry>();
  private actionSets = new Map<string, Set<number>>();
  /** moves on every invalidation */
  generation = 0;
  /** while the process's listener is away, notifications may be missed: nothing is served or kept */
  suspended = false;
  hits = 0;
  misses = 0;

  get size(): number {
    return this.entries.size;
  }

  /** The cached principal of a token hash, or undefined when it must be read from the database. */
  get(hash: string, now = Date.now()): { principal: SessionPrincipal; lastSeenAt: number } | undefined {
    const e = this.suspended ? undefined : this.entries.get(hash);
    if (!e) {
      this.misses++;
      return undefined;
    }
    if (now >= e.expiresAt || now - e.readAt >= ENTRY_MAX_AGE_MS) {
      this.entries.delete(hash);
      this.misses++;
      return undefined;
    }
    this.hits++;
    return { principal: e.principal, lastSeenAt: e.lastSeenAt };
  }

  /** Keeps what a lookup read, unless an invalidation came since it started (`generation` then). */
  set(hash: string, generation: number, e: Omit<Entry, 'readAt'>, now = Date.now()): void {
    if (generation !== this.generation || this.suspended) return;
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(hash)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { ...e, readAt: now });
  }

  /** The one shared Set of these action ids. */
  actionSet(ids: number[]): Set<number> {
    const sorted = [...new Set(ids)].sort((a, b) => a - b);
    const key = sorted.join(',');
    let s = this.actionSets.get(key);
    if (!s) {
      if (this.actionSets.size >= 1000) this.actionSets.clear();
      s = new Set(sorted);
      this.actionSets.set(key, s);
    }
    return s;
  }

  /** Drops the entries a change concerns. */
  apply(change: AuthChange): void {
    this.generation++;
    if (change.all) {
      this.entries.clear();
      return;
    }
    const s = new Set(change.s ?? []);
    const u = new Set(change.u ?? []);
    const r = new Set(change.r ?? []);
    for (const [hash, e] of this.entries) {
      if (s.has(e.principal.sessionId) || u.has(e.principal.id) || e.roles.some((x) => r.has(x))) this.entries.delete(hash);
    }
  }

  /** A notification's payload (AUTH_CHANNEL); anything unreadable drops everything. */
  applyPayload(payload: string | undefined): void {
    let change: AuthChange;
    try {
      change = JSON.parse(payload ?? '') as AuthChange;
    } catch {
      change = { all: true };
    }
    this.apply(change && typeof change === 'object' ? change : { all: true });
  }

  clear(): void {
    this.apply({ all: true });
  }

  /** The listener is away (true) or back (false): either way what is kept may have missed a change. */
  suspend(away: boolean): void {
    this.suspended = away;
    this.clear();
  }
}

/** The caches of this process, one per database connection pool (a transaction finds its pool's). */
const caches = new WeakMap<object, SessionCache>();
const poolKey = (db: Knex | Knex.Transaction): object => (db as unknown as { client: { config: object } }).client.config;

/** The session cache of a database (its knex, or a transaction of it). */
export function sessionCacheOf(db: Knex | Knex.Transaction): SessionCache {
  const key = poolKey(db);
  let c = caches.get(key);
  if (!c) caches.set(key, (c = new SessionCache()));
  return c;
}

/**
 * Tells every process that sessions, users or roles changed: NOTIFY on AUTH_CHANNEL in the write's
 * transaction (PostgreSQL delivers it when the transaction commits, never when it rolls back), and
 * this process's cache at once and again when the transaction commits — so the change holds from
 * the very next request, through any process.
 */
export async function announceAuthChange(db: Knex | Knex.Transaction, change: AuthChange): Promise<void> {
  if (!change.all && !change.s?.length && !change.u?.length && !change.r?.length) return;
  await db.raw('select pg_notify(?, ?)', [AUTH_CHANNEL, JSON.stringify(change)]);
  const cache = caches.get(poolKey(db));
  if (!cache) return;
  cache.apply(change);
  const done = (db as { executionPromise?: Promise<unknown> }).executionPromise;
  done?.then(
    () => cache.apply(change),
    () => cache.apply(change),
  );
}
