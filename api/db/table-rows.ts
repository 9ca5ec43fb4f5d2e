import type { Knex } from 'knex';

/**
 * How many rows a table holds by the planner's statistics (`pg_class.reltuples`, summed over a
 * partitioned table's partitions): no scan, kept a minute per connection pool (`pool`; asked on
 * `db`, which may be a transaction of it). 0 for a table never
 * analysed (reltuples −1) or unknown. The lists ask it to know whether a table is big enough for
 * its estimate to be worth asking before counting (api/engine/repository.ts `list`).
 */
const TTL_MS = 60_000;
const kept = new WeakMap<Knex, Map<string, { rows: number; at: number; pending?: Promise<number> }>>();

export async function tableRows(db: Knex | Knex.Transaction, table: string, pool: Knex = db): Promise<number> {
  let byTable = kept.get(pool);
  if (!byTable) kept.set(pool, (byTable = new Map()));
  const hit = byTable.get(table);
  const now = Date.now();
  if (hit && now - hit.at < TTL_MS) return hit.pending ?? hit.rows;
  const entry = { rows: hit?.rows ?? 0, at: now, pending: undefined as Promise<number> | undefined };
  entry.pending = db
    .raw(
      `SELECT coalesce(sum(greatest(c.reltuples, 0)), 0)::float8 AS n FROM pg_class c
      WHERE (c.oid = to_regclass(?) AND c.relkind = 'r') OR c.oid IN (SELECT relid FROM pg_partition_tree(to_regclass(?)) WHERE isleaf)`,
      [table, table],
    )
    .then(
      (r: { rows: { n: number }[] }) => {
        entry.rows = Number(r.rows[0]?.n ?? 0);
        entry.pending = undefined;
        return entry.rows;
      },
      () => {
        entry.pending = undefined;
        return entry.rows;
      },
    );
  byTable.set(table, entry);
  return entry.pending;
}

/** Forgets what was kept for a pool (after an ANALYZE that should be seen at once: tests). */
export function forgetTableRows(pool: Knex): void {
  kept.delete(pool);
}
