import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The one write path's trail and the files' readers:
 * - an audit row names the workflow action or the route's change besides its operation, and the
 *   trail is listed by time and by user (the admins' audit screen) and by row (a record's history);
 * - every column that holds file ids is indexed, so "who may read this file" (a row that holds it,
 *   in the caller's scope) is an index lookup per entity, never a scan of the registry.
 */
const FILE_TYPES = ['file', 'image', 'files'];

async function fileIndexes(knex: Knex, h: MigrationHelpers, drop: boolean): Promise<void> {
  for (const e of h.model.entities.values()) {
    if (e.view) continue;
    const tables: [string, string, string][] = [];
    for (const [name, f] of Object.entries(e.fields)) {
      if (FILE_TYPES.includes(f.type)) tables.push([e.table, name, f.type]);
      if (f.type === 'children')
        for (const [cn, cf] of Object.entries(f.fields ?? {})) if (FILE_TYPES.includes(cf.type)) tables.push([f.table!, cn, cf.type]);
    }
    for (const [table, col, type] of tables) {
      if (!(await knex.schema.hasColumn(table, col))) continue;
      const idx = `${table}_${col}_idx`;
      if (drop) await knex.raw('DROP INDEX IF EXISTS ??', [idx]);
      else if (type === 'files') await knex.raw('CREATE INDEX IF NOT EXISTS ?? ON ?? USING gin (??)', [idx, table, col]);
      else await knex.raw('CREATE INDEX IF NOT EXISTS ?? ON ?? (??) WHERE ?? IS NOT NULL', [idx, table, col, col]);
    }
  }
}

export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await knex.schema.alterTable('audit_log', (t) => {
    t.string('action', 60).nullable();
    t.index(['created_at'], 'audit_log_created_idx');
    t.index(['user_id', 'created_at'], 'audit_log_user_idx');
  });
  await fileIndexes(knex, h, false);
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await fileIndexes(knex, h, true);
  await knex.schema.alterTable('audit_log', (t) => {
    t.dropIndex(['user_id', 'created_at'], 'audit_log_user_idx');
    t.dropIndex(['created_at'], 'audit_log_created_idx');
    t.dropColumn('action');
  });
}
