import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * Data for review belongs in a field, not in the name users read: income types gain
 * `needs_review`, and the rows seeded with a "(review)" marker in a name (the spec's codes without
 * a meaning) get the flag and lose the marker, in every language.
 */
const MARKER = /\s*\(review\)/gi;

export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.addEntityColumns('income-types', ['needs_review']);
  const table = h.model.entities.get('income-types')!.table;
  const rows = await knex(table).select('id', 'name').whereRaw('name::text ilike ?', ['%(review)%']);
  for (const row of rows as { id: number; name: Record<string, string | null> }[]) {
    const name = Object.fromEntries(Object.entries(row.name).map(([lang, v]) => [lang, typeof v === 'string' ? v.replace(MARKER, '') : v]));
    await knex(table)
      .where({ id: row.id })
      .update({ name: JSON.stringify(name), needs_review: true });
  }
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityColumns('income-types', ['needs_review']);
}
