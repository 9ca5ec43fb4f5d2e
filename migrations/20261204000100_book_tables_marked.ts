import type { Knex } from 'knex';

/**
 * A reference book's table carries a mark, its comment `ecofond:book:<name>`, set when the book
 * makes it (api/engine/books.ts): the only table a book's edits may alter freely and its removal
 * may drop. Books stored before the mark get it here, on a table that is plainly theirs: it exists,
 * has no comment, no entity of the metadata files uses it, and every column it has is a field of
 * the book or one the engine gives every table. A system table a book once took (its own columns
 * beside the book's) stays unmarked, so removing that book leaves it be.
 */
const ENGINE_COLUMNS = ['id', 'version', 'created_at', 'updated_at', 'created_by', 'updated_by', 'deleted_at'];

export async function up(
  knex: Knex,
  h?: {
    model: {
      entities: Map<string, { book?: boolean; table: string; fields: Record<string, { table?: string; through?: { table: string } }> }>;
    };
  },
): Promise<void> {
  if (!(await knex.schema.hasTable('meta_books'))) return;
  const files = new Set<string>();
  for (const e of h?.model.entities.values() ?? []) {
    if (e.book) continue;
    files.add(e.table);
    for (const f of Object.values(e.fields)) {
      if (f.table) files.add(f.table);
      if (f.through) files.add(f.through.table);
    }
  }
  const books = await knex('meta_books').select('name', 'definition');
  for (const b of books as { name: string; definition: { table?: string; fields?: Record<string, unknown> } | null }[]) {
    const table = b.definition?.table ?? b.name.replace(/-/g, '_');
    if (files.has(table)) continue;
    const { rows } = await knex.raw(
      `SELECT c.oid, obj_description(c.oid, 'pg_class') AS mark,
        array(SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS cols
      FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ? AND c.relkind IN ('r', 'p')`,
      [table],
    );
    const t = rows[0] as { mark: string | null; cols: string[] } | undefined;
    if (!t || t.mark !== null) continue;
    const own = new Set([...Object.keys(b.definition?.fields ?? {}), ...ENGINE_COLUMNS]);
    if (!t.cols.every((c) => own.has(c))) continue;
    // COMMENT takes no bound parameter: the name is the book's, of [a-z0-9-], quoted all the same
    await knex.raw(`COMMENT ON TABLE ?? IS '${`ecofond:book:${b.name}`.replace(/'/g, "''")}'`, [table]);
  }
}

export async function down(): Promise<void> {
  // the marks are comments: harmless to keep
}
