import type { Knex } from 'knex';
import { pruneRateLimits, takeRateLimit } from '../read-models/system-log.ts';

/**
 * A per-key limit of `limit` attempts in a sliding window of `windowMs`, shared by every server
 * process through PostgreSQL (the public forms' flood guard): one statement an attempt, on the
 * UNLOGGED table `rate_limits` (one row a key and window: cheap to write, no WAL, emptied by a
 * crash — a flood guard may forget). The window slides as the usual two-window estimate does: the
 * attempts of the current fixed window plus the previous window's, weighted by how much of it is
 * still within `windowMs` of now. The upsert counts an attempt only when it is allowed, and two
 * processes counting the same key at once meet on its row, so the limit holds exactly across them.
 * Nothing is kept in the connection between statements (a transaction-pooling proxy is fine).
 */
export class RateLimiter {
  private lastSweep = 0;

  constructor(
    private readonly knex: Knex,
    /** the limiter's name, prefixed to its keys (one table serves every limiter) */
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records one attempt for the key; false (and nothing recorded) when the key is over its limit. */
  async take(key: string, now = Date.now()): Promise<boolean> {
    const bucket = Math.floor(now / this.windowMs);
    // the share of the previous window still within windowMs of now, to six places
    const weight = ((bucket + 1) * this.windowMs - now) / this.windowMs;
    const k = `${this.name}:${key}`.slice(0, 300);
    const allowed = await takeRateLimit(this.knex, k, bucket, weight.toFixed(6), this.limit);
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      // windows older than the previous one count for nothing any more
      void pruneRateLimits(this.knex, this.name, bucket - 1);
    }
    return allowed;
  }
}
