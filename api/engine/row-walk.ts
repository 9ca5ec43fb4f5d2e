import type { Knex } from 'knex';
import Cursor from 'pg-cursor';
import type { PoolClient } from 'pg';

/**
 * Reads a query's rows batch by batch in its order, without OFFSET pages and without holding them
 * all: what the exports stream from.
 *
 * - On a PostgreSQL server: one server-side cursor (pg-cursor, a portal of the one statement) on a
 *   connection of its own, read `batch` rows at a time; one snapshot, one plan, one sort.
 * - In a transaction (a caller's unit of work, either database): `DECLARE … NO SCROLL CURSOR` and
 *   `FETCH` in that transaction.
 * - On embedded PGlite (one connection for everything): the ordered ids first (8 bytes a row),
 *   then the rows `batch` ids at a time, so other requests are served between batches rather
 *   than waiting behind a cursor held for the whole download.
 *
 * A consumer that stops early (`break`, or the reader went away) closes the cursor and gives the
 * connection back.
 */
export interface WalkSource {
  /** the query: its select list, filters and ORDER BY (ties broken by t.id) */
  rows: Knex.QueryBuilder | Knex.Raw;
  /**
   * for the id walk on PGlite: the same query answering `t.id` only, and the query's rows for a
   * set of ids (the same order); without them PGlite falls back to a cursor in a transaction
   */
  ids?: () => Knex.QueryBuilder;
  byIds?: (ids: number[]) => Knex.QueryBuilder;
}

export const WALK_BATCH = 2000;

export interface WalkOptions {
  trx?: Knex.Transaction;
  batch?: number;
  /**
   * settings for the walk's own transaction (`SET LOCAL`), e.g. `jit = off` for a report's query
   * (api/reports/run.ts says why); a walk given settings always reads in a transaction
   */
  settings?: readonly string[];
}

export async function* walkRows(knex: Knex, src: WalkSource, opts: WalkOptions = {}): AsyncGenerator<Record<string, unknown>[]> {
  const batch = opts.batch ?? WALK_BATCH;
  const settings = opts.settings ?? [];
  if (opts.trx) {
    yield* fetchInTransaction(opts.trx, src.rows, batch, settings);
    return;
  }
  if (isPglite(knex)) {
    if (src.ids && src.byIds && !settings.length) {
      yield* walkByIds(src.ids, src.byIds, batch);
      return;
    }
    const trx = await knex.transaction();
    try {
      yield* fetchInTransaction(trx, src.rows, batch, settings);
      await trx.commit();
    } finally {
      if (!trx.isCompleted()) await trx.rollback().catch(() => undefined);
    }
    return;
  }
  yield* cursorRows(knex, src.rows, batch, settings);
}

/** True for the embedded database (knex-pglite's client). */
export function isPglite(knex: Knex): boolean {
  return 'pglite' in (knex.client as object);
}

async function* cursorRows(
  knex: Knex,
  query: Knex.QueryBuilder | Knex.Raw,
  batch: number,
  settings: readonly string[],
): AsyncGenerator<Record<string, unknown>[]> {
  const { sql, bindings } = query.toSQL().toNative();
  const client = knex.client as { acquireConnection(): Promise<PoolClient>; releaseConnection(c: PoolClient): Promise<void> };
  const conn = await client.acquireConnection();
  let cursor: Cursor | null = null;
  let failed = false;
  let ahead: Promise<unknown[]> | null = null;
  let inTransaction = false;
  try {
    if (settings.length) {
      await conn.query('BEGIN');
      inTransaction = true;
      for (const s of settings) await conn.query(`SET LOCAL ${s}`);
    }
    cursor = conn.query(new Cursor(sql, bindings as unknown[]));
    // the next batch is asked for before this one is handed on: the database reads while the
    // consumer writes
    const read = (c: Cursor): Promise<unknown[]> => {
      const p = c.read(batch);
      p.catch(() => undefined); // awaited below; a rejection while the consumer writes is not unhandled
      return p;
    };
    ahead = read(cursor);
    for (;;) {
      const rows = (await ahead) as unknown[];
      ahead = null;
      if (!rows.length) break;
      if (rows.length === batch) ahead = read(cursor);
      yield rows as Record<string, unknown>[];
      if (rows.length < batch) break;
    }
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    if (ahead)
      await ahead.catch(() => {
        failed = true;
      });
    // a cursor left open keeps the connection busy: close it, or drop the connection when that fails
    if (cursor)
      await cursor.close().catch(() => {
        failed = true;
      });
    if (inTransaction)
      await conn.query(failed ? 'ROLLBACK' : 'COMMIT').catch(() => {
        failed = true;
      });
    if (failed) (conn as unknown as { __knex__disposed?: unknown }).__knex__disposed = 'export cursor failed';
    await client.releaseConnection(conn);
  }
}

async function* fetchInTransaction(
  trx: Knex.Transaction,
  query: Knex.QueryBuilder | Knex.Raw,
  batch: number,
  settings: readonly string[] = [],
): AsyncGenerator<Record<string, unknown>[]> {
  const { sql, bindings } = query.toSQL();
  const name = `walk_${Math.random().toString(36).slice(2, 10)}`;
  for (const s of settings) await trx.raw(`SET LOCAL ${s}`);
  // plan for reading every row, not the first tenth (the default for cursors)
  await trx.raw('SET LOCAL cursor_tuple_fraction = 1.0');
  await trx.raw(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, bindings as Knex.RawBinding[]);
  try {
    for (;;) {
      const res = await trx.raw(`FETCH FORWARD ${batch} FROM ${name}`);
      const rows = (res.rows ?? res) as Record<string, unknown>[];
      if (!rows.length) break;
      yield rows;
      if (rows.length < batch) break;
    }
  } finally {
    if (!trx.isCompleted()) await trx.raw(`CLOSE ${name}`).catch(() => undefined);
  }
}

async function* walkByIds(
  ids: () => Knex.QueryBuilder,
  byIds: (ids: number[]) => Knex.QueryBuilder,
  batch: number,
): AsyncGenerator<Record<string, unknown>[]> {
  const all = Float64Array.from((await ids()).map((r: { id: number }) => Number(r.id)));
  for (let i = 0; i < all.length; i += batch) {
    const slice = Array.from(all.subarray(i, i + batch));
    const rows = (await byIds(slice)) as Record<string, unknown>[];
    if (rows.length) yield rows;
  }
}

/** A walk begun: iterate it once, or `close()` it when it will not be read. */
export interface StartedWalk extends AsyncIterable<Record<string, unknown>[]> {
  close(): Promise<void>;
}

/**
 * Starts a walk and reads its first batch before answering, so that a query that fails does so
 * before a response has begun (a proper error status rather than a broken download).
 */
export async function startWalk(knex: Knex, src: WalkSource, opts: WalkOptions = {}): Promise<StartedWalk> {
  const walk = walkRows(knex, src, opts);
  const first = await walk.next();
  let pending = first.done ? null : first.value;
  const close = async () => {
    await walk.return(undefined);
  };
  return {
    close,
    async *[Symbol.asyncIterator]() {
      try {
        if (pending) {
          const rows = pending;
          pending = null;
          yield rows;
        }
        for (;;) {
          const next = await walk.next();
          if (next.done) return;
          yield next.value;
        }
      } finally {
        await close();
      }
    },
  };
}
