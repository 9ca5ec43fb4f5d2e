import type { Knex } from 'knex';
import { createHash } from 'node:crypto';
import { ApiError, validationError } from '../kernel/errors.ts';

/**
 * Idempotency keys of creates (issue 30, docs/field-app.md, docs/decisions/0070): a client sends a
 * create with `Idempotency-Key: <its own id of the record>`; the key is stored with the user, the
 * entity, a hash of the body, the created row's id and the status answered, in the create's own
 * transaction (the repository's createMany claims it as its first statement). A retry with the key
 * finds it and is answered the first result; a second request racing the first waits on the unique
 * index and then finds it. A key that ends up in no committed create (a refused write) is not kept,
 * so the retry of a refused create is judged again.
 */

/** What a key may be: 8 to 100 characters of letters, digits, `_` and `-` (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

/** The header a create's key travels in, and the one a replayed answer carries (the IETF draft's names). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** How long a key is kept, in days (`ECOFOND_IDEMPOTENCY_DAYS`, default 7): a retry after it is a new create. */
export function idempotencyDays(): number {
  const n = Number(process.env.ECOFOND_IDEMPOTENCY_DAYS);
  return Number.isFinite(n) && n > 0 ? n : 7;
}

/** A create's claim of a key: whose, for which entity, and the hash of what was sent. */
export interface IdempotencyClaim {
  userId: number;
  key: string;
  entity: string;
  hash: string;
  /** set once a create has claimed it (a route's request claims a key with its first create only) */
  claimed?: boolean;
}

/** A key as stored: the row it created and the status it was answered with. */
export interface StoredKey {
  entity: string;
  body_hash: string;
  record_id: number;
  status: number;
}

/** Thrown inside a create's transaction when its key is already another committed create's: the caller answers that one. */
export class KeyTaken extends Error {
  constructor(readonly claim: IdempotencyClaim) {
    super('idempotency key taken');
  }
}

/** JSON with object keys in order, so that one body sent twice hashes the same whatever its key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

export function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex');
}

/**
 * The claim a request makes: none without the header; a 400 naming the header when it is not a
 * key; a 400 for a caller who is not signed in (a key is a user's).
 */
export function idempotencyClaim(
  header: string | undefined,
  userId: number | null,
  entity: string,
  body: unknown,
): IdempotencyClaim | null {
  if (header === undefined || header === '') return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(header)) throw validationError({ [IDEMPOTENCY_HEADER]: { key: 'errors.idempotency_key_format' } });
  if (userId === null) throw validationError({ [IDEMPOTENCY_HEADER]: { key: 'errors.idempotency_key_anonymous' } });
  return { userId, key: header, entity, hash: bodyHash(body) };
}

/** The committed key of a claim's user, if any. */
export async function findKey(db: Knex | Knex.Transaction, claim: IdempotencyClaim): Promise<StoredKey | undefined> {
  const row = await db('idempotency_keys')
    .where({ user_id: claim.userId, key: claim.key })
    .where('expires_at', '>', db.fn.now())
    .first('entity', 'body_hash', 'record_id', 'status');
  return row ? { ...row, record_id: Number(row.record_id) } : undefined;
}

/**
 * The key as the earlier create left it, or a 422 when the key was used for another body or
 * another entity: a client reused a key for a different record.
 */
export function assertSame(stored: StoredKey, claim: IdempotencyClaim): StoredKey {
  if (stored.entity !== claim.entity || stored.body_hash !== claim.hash)
    throw new ApiError(
      'unprocessable',
      'errors.idempotency_key_reused',
      {},
      { [IDEMPOTENCY_HEADER]: { key: 'errors.idempotency_key_reused' } },
    );
  return stored;
}

/**
 * Claims the key in a create's transaction, its first statement: an expired key of the user is
 * taken over; a live one (committed, or another transaction's not yet committed — the insert waits
 * for it) throws KeyTaken, which rolls the create back.
 */
export async function claimKey(trx: Knex.Transaction, claim: IdempotencyClaim): Promise<void> {
  await trx('idempotency_keys').where({ user_id: claim.userId, key: claim.key }).where('expires_at', '<=', trx.fn.now()).delete();
  const inserted = await trx.raw(
    `insert into idempotency_keys (user_id, key, entity, body_hash, expires_at)
     values (?, ?, ?, ?, now() + make_interval(days => ?))
     on conflict (user_id, key) do nothing returning id`,
    [claim.userId, claim.key, claim.entity, claim.hash, idempotencyDays()],
  );
  if (!inserted.rows.length) throw new KeyTaken(claim);
  claim.claimed = true;
}

/** Records what the claimed create made and answered, in its transaction. */
export async function settleKey(trx: Knex.Transaction, claim: IdempotencyClaim, recordId: number, status: number): Promise<void> {
  await trx('idempotency_keys').where({ user_id: claim.userId, key: claim.key }).update({ record_id: recordId, status });
}

/** Removes expired keys (the jobs worker's cleanup): answers how many. */
export async function removeExpiredKeys(knex: Knex): Promise<number> {
  let n = 0;
  for (;;) {
    // the ids returned, not delete()'s count: the embedded database's driver answers no count, and a
    // loop on `undefined < 1000` never ends (it held the embedded server's start for good)
    const gone = (await knex('idempotency_keys')
      .whereIn('id', knex('idempotency_keys').select('id').where('expires_at', '<=', knex.fn.now()).limit(1000))
      .delete()
      .returning('id')) as { id: number }[];
    n += gone.length;
    if (gone.length < 1000) return n;
  }
}
