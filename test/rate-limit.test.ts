import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import knexFactory, { type Knex } from 'knex';
import { RateLimiter } from '../api/http/rate-limit.ts';
import type { Database } from '../api/db/connection.ts';
import { testDatabase } from './support/db.ts';
import { needsPostgres, skipBecause } from './support/skip.ts';

/**
 * The shared per-key limit of the public forms (api/http/rate-limit.ts, the UNLOGGED `rate_limits`):
 * attempts made at the same moment on as many connections — as many requests, through any number
 * of processes — meet on the key's row, so exactly the limit gets through, never "check, then count".
 */
describe(
  'the rate limiter under parallel attempts',
  skipBecause(needsPostgres('a burst on as many connections as attempts; embedded PGlite has one')),
  () => {
    let db: Database;
    let wide: Knex;
    beforeAll(async () => {
      db = await testDatabase();
      // a pool as wide as the burst: every attempt on a connection of its own, all at once
      wide = knexFactory({ client: 'pg', connection: db.url!, pool: { min: 0, max: 15 } });
    });
    afterAll(async () => {
      await wide?.destroy();
      await db?.close();
    });

    it('15 attempts at once with a limit of 3: exactly 3 are let through, a new key and a counted one alike', async () => {
      const limiter = new RateLimiter(wide, 'burst', 3, 3600_000);
      const now = Date.now();
      const first = await Promise.all(Array.from({ length: 15 }, () => limiter.take('203.0.113.9', now)));
      expect(first.filter(Boolean)).toHaveLength(3);
      // a key already counted once, then 15 at once: 2 more
      const other = new RateLimiter(wide, 'burst2', 3, 3600_000);
      expect(await other.take('203.0.113.9', now)).toBe(true);
      const second = await Promise.all(Array.from({ length: 15 }, () => other.take('203.0.113.9', now)));
      expect(second.filter(Boolean)).toHaveLength(2);
      expect(Number((await wide('rate_limits').where({ key: 'burst:203.0.113.9' }).first('n')).n)).toBe(3);
    });
  },
);
