import type { Knex } from 'knex';

/**
 * Who made or changed a row — every table's `created_by` and `updated_by`, an audit row's and a
 * flow row's `user_id` — is a record of the past, no longer a foreign key to `users`:
 * - deleting an account rewrote every row its owner had touched (`ON DELETE SET NULL`), in every
 *   table and outside the write path — rows changed with no audit row, and the audit trail itself
 *   losing who acted; the id now stays, and the name is shown while the account exists;
 * - none of these columns is indexed, so that delete scanned each table whole (the national
 *   registry's 20 000 000 trees among them);
 * - every insert checked the two keys a row: 0.7 s of the 5.8 s the database takes to insert
 *   100 000 payments, 0.3 s of the audit rows' 1.8 s (docs/performance.md).
 * The engine fills these columns itself (never from a payload), so what they hold is an id the
 * caller had. A partitioned table's keys are dropped on the table (its partitions' go with them).
 */
const ACTOR_KEYS = `SELECT c.conname AS name, r.relname AS tbl, a.attname AS col FROM pg_constraint c
    JOIN pg_class r ON r.oid = c.conrelid JOIN pg_namespace n ON n.oid = r.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
  WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass AND c.conparentid = 0 AND n.nspname = current_schema()
    AND array_length(c.conkey, 1) = 1
    AND (a.attname IN ('created_by', 'updated_by') OR (r.relname IN ('audit_log', 'flows') AND a.attname = 'user_id'))`;

export async function up(knex: Knex): Promise<void> {
  const { rows } = await knex.raw(ACTOR_KEYS);
  for (const { name, tbl } of rows as { name: string; tbl: string }[]) await knex.raw('ALTER TABLE ?? DROP CONSTRAINT ??', [tbl, name]);
}

/** The keys again, on every table that has the columns (an id of an account deleted since is emptied first). */
export async function down(knex: Knex): Promise<void> {
  const { rows } = await knex.raw(`SELECT r.relname AS tbl, a.attname AS col FROM pg_attribute a
      JOIN pg_class r ON r.oid = a.attrelid JOIN pg_namespace n ON n.oid = r.relnamespace
    WHERE n.nspname = current_schema() AND r.relkind IN ('r', 'p') AND NOT r.relispartition AND a.attnum > 0 AND NOT a.attisdropped
      AND (a.attname IN ('created_by', 'updated_by') OR (r.relname IN ('audit_log', 'flows') AND a.attname = 'user_id'))
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conrelid = r.oid AND c.contype = 'f' AND c.conkey[1] = a.attnum)`);
  for (const { tbl, col } of rows as { tbl: string; col: string }[]) {
    await knex.raw('UPDATE ?? SET ?? = NULL WHERE ?? IS NOT NULL AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = ??.??)', [
      tbl,
      col,
      col,
      tbl,
      col,
    ]);
    await knex.raw('ALTER TABLE ?? ADD CONSTRAINT ?? FOREIGN KEY (??) REFERENCES users (id) ON DELETE SET NULL', [
      tbl,
      `${tbl}_${col}_foreign`,
      col,
    ]);
  }
}
