import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { openDatabase, type Database } from '../db/connection.ts';
import { isPglite, startWalk, walkRows, type WalkSource } from './row-walk.ts';
import { needsPostgres, skipBecause } from '../../test/support/skip.ts';

/**
 * The walk the exports read from, on both databases: every row once in the query's order, in
 * batches, on a server by one cursor (its connection given back when the reader stops early), in a
 * transaction by DECLARE/FETCH, and on PGlite by ids then rows.
 */
const ROWS = 2345;

function source(knex: Knex, where?: (qb: Knex.QueryBuilder) => void): WalkSource {
  const base = () => {
    const qb = knex('walk_rows as t');
    where?.(qb);
    return qb;
  };
  return {
    rows: base()
      .select('t.id', 't.name', 't.day')
      .orderBy([
        { column: 't.name', order: 'desc' },
        { column: 't.id', order: 'asc' },
      ]),
    ids: () =>
      base()
        .select('t.id')
        .orderBy([
          { column: 't.name', order: 'desc' },
          { column: 't.id', order: 'asc' },
        ]),
    byIds: (ids) =>
      knex('walk_rows as t')
        .whereIn('t.id', ids)
        .select('t.id', 't.name', 't.day')
        .orderBy([
          { column: 't.name', order: 'desc' },
          { column: 't.id', order: 'asc' },
        ]),
  };
}

async function collect(walk: AsyncIterable<Record<string, unknown>[]>): Promise<{ ids: number[]; batches: number }> {
  const ids: number[] = [];
  let batches = 0;
  for await (const rows of walk) {
    batches++;
    ids.push(...rows.map((r) => Number(r.id)));
  }
  return { ids, batches };
}

const expected = Array.from({ length: ROWS }, (_, i) => i + 1).sort((a, b) => (b % 7) - (a % 7) || a - b);

for (const kind of ['pglite', 'postgres'] as const) {
  const url = process.env.TEST_DATABASE_URL;
  describe(`the row walk on ${kind}`, skipBecause(kind === 'postgres' && needsPostgres('the walk by one server-side cursor')), () => {
    let db: Database;
    const schema = `walk_${process.pid}`;
    beforeAll(async () => {
      db = kind === 'pglite' ? openDatabase({ dataDir: 'memory' }) : openDatabase({ url, searchPath: schema, poolMax: 2 });
      // the embedded database takes a while to start on a busy machine: wait for it before knex's pool does
      if (db.pglite) await db.pglite.waitReady;
      if (kind === 'postgres') await db.knex.raw(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await db.knex.raw('CREATE TABLE walk_rows (id bigint PRIMARY KEY, name text, day date)');
      await db.knex.raw(`INSERT INTO walk_rows SELECT g, 'n' || (g % 7), date '2024-01-01' + g FROM generate_series(1, ${ROWS}) g`);
    }, 300_000);
    afterAll(async () => {
      if (kind === 'postgres') await db.knex.raw(`DROP SCHEMA ${schema} CASCADE`);
      await db?.close();
    });

    it('reads every row once, in order, in batches', async () => {
      expect(isPglite(db.knex)).toBe(kind === 'pglite');
      const { ids, batches } = await collect(walkRows(db.knex, source(db.knex), { batch: 500 }));
      expect(ids).toEqual(expected);
      expect(batches).toBe(5);
    });

    it('reads by a cursor in a transaction', async () => {
      await db.knex.transaction(async (trx) => {
        const { ids } = await collect(walkRows(db.knex, { rows: source(trx).rows }, { trx, batch: 1000 }));
        expect(ids).toEqual(expected);
      });
    });

    it('keeps the filters, and gives the connection back when the reader stops early', async () => {
      const { ids } = await collect(
        walkRows(
          db.knex,
          source(db.knex, (qb) => qb.where('t.id', '<=', 10)),
          { batch: 3 },
        ),
      );
      expect(ids).toEqual(expected.filter((id) => id <= 10));
      for (let i = 0; i < 5; i++) {
        for await (const rows of walkRows(db.knex, source(db.knex), { batch: 100 })) {
          expect(rows).toHaveLength(100);
          break;
        }
      }
      // the pool (2 connections on the server, 1 on PGlite) still answers
      expect((await db.knex.raw('select 1 as one')).rows[0].one).toBe(1);
    });

    it('fails before answering when the query fails, and reads the first batch once', async () => {
      await expect(startWalk(db.knex, { rows: db.knex.raw('select * from no_such_table') })).rejects.toThrow(/no_such_table/);
      const walk = await startWalk(db.knex, source(db.knex), { batch: 1000 });
      expect((await collect(walk)).ids).toEqual(expected);
      const unread = await startWalk(db.knex, source(db.knex), { batch: 1000 });
      await unread.close();
      expect((await db.knex.raw('select 1 as one')).rows[0].one).toBe(1);
    });
  });
}
