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

/** Drops one limiter's windows older than `bucket` (they count for nothing any more). */
export async function pruneRateLimits(knex: Knex, limiter: string, bucket: number): Promise<void> {
  await knex('rate_limits')
    .where('bucket', '<', bucket)
    .where('key', 'like', `${limiter}:%`)
    .delete()
    .catch(() => undefined);
}
