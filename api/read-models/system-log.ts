import type { Knex } from 'knex';

/**
 * Infrastructure tables with their own log, outside the write path by docs/decisions/0002: the
 * error log (`app_errors`, read by administrators through its entity) and the shared rate limits'
 * windows (`rate_limits`, api/http/rate-limit.ts).
 */

export interface AppError {
  request_id: string;
  user_id: number | null;
  method: string;
  path: string;
  status: number;
  message: string;
  stack: string;
}

/** Records an unexpected error (a failure to record it is not the caller's error). */
export async function logAppError(knex: Knex, row: AppError): Promise<void> {
  await knex('app_errors')
    .insert(row)
    .catch(() => undefined);
}

/**
 * Counts one attempt of a key in its window when the weighted count of the previous window
 * (`weight`, the share of it still within the limiter's span) plus this one stays within `limit`:
 * one upsert on the UNLOGGED `rate_limits` (api/http/rate-limit.ts). False when over the limit.
 */
export async function takeRateLimit(knex: Knex, key: string, bucket: number, weight: string, limit: number): Promise<boolean> {
  const { rows } = await knex.raw(
    `with prev as (select coalesce(max(n), 0) * ?::numeric as w from rate_limits where key = ? and bucket = ?)
     insert into rate_limits as r (key, bucket, n) select ?, ?, 1 from prev where prev.w + 1 <= ?
     on conflict (key, bucket) do update set n = r.n + 1 where r.n + 1 + (select w from prev) <= ?
     returning n`,
    [weight, key, bucket - 1, key, bucket, limit, limit],
  );
  return rows.length > 0;
}

/** Drops one limiter's windows older than `bucket` (they count for nothing any more). */
export async function pruneRateLimits(knex: Knex, limiter: string, bucket: number): Promise<void> {
  await knex('rate_limits')
    .where('bucket', '<', bucket)
    .where('key', 'like', `${limiter}:%`)
    .delete()
    .catch(() => undefined);
}
