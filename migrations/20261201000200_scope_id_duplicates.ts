import type { Knex } from 'knex';

/**
 * Drops the `(scope, id, id)` indexes the table builder made for a scoped entity whose default
 * sort is its id (`subjects_region_id_id_idx`, `plantings_region_id_id_idx`, …): each repeated the
 * `(scope, id)` index the same builder makes for the scope column, and cost every insert an index
 * more (api/db/entity-tables.ts no longer makes them). Found by name and definition, so an index of
 * that name with other columns is left alone; a partitioned table's index takes its partitions' with it.
 */
export async function up(knex: Knex): Promise<void> {
  const { rows } = await knex.raw(`SELECT i.relname AS name FROM pg_index x
      JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = i.relnamespace
    WHERE n.nspname = current_schema() AND NOT i.relispartition AND i.relname LIKE '%\\_id\\_idx'
      AND pg_get_indexdef(x.indexrelid) ~ '\\(\\w+, id, id\\)$'`);
  for (const { name } of rows as { name: string }[]) await knex.raw('DROP INDEX IF EXISTS ??', [name]);
}

/** Nothing to make again: the dropped indexes repeated others. */
export async function down(): Promise<void> {}
