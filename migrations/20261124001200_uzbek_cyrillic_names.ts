import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';
import { latinToCyrillic, legacyLatinToCyrillic } from '../api/i18n/transliterate.ts';

/**
 * Names stored in three languages (text3 fields) whose Uzbek Cyrillic was transliterated from the
 * Latin at seed time by the earlier letter-by-letter rules (Аксиядорлик, И тоифа, Субект, Маёр)
 * are transliterated again with the rules of docs/uzbek-cyrillic.md. A uk name that differs from
 * what the earlier rules gave was written by a person and stays.
 */
export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  for (const e of h.model.entities.values()) {
    if (e.view) continue;
    const fields = Object.entries(e.fields)
      .filter(([, f]) => f.type === 'text3' && !f.computedBy)
      .map(([name]) => name);
    if (!fields.length || !(await knex.schema.hasTable(e.table))) continue;
    const present: string[] = [];
    for (const f of fields) if (await knex.schema.hasColumn(e.table, f)) present.push(f);
    if (!present.length) continue;
    const rows = await knex(e.table).select('id', ...present);
    for (const row of rows as Record<string, unknown>[]) {
      const change: Record<string, string> = {};
      for (const f of present) {
        const v = row[f] as { uz?: unknown; uk?: unknown } | null;
        if (!v || typeof v !== 'object' || typeof v.uz !== 'string' || typeof v.uk !== 'string') continue;
        const now = latinToCyrillic(v.uz);
        if (v.uk !== now && v.uk === legacyLatinToCyrillic(v.uz)) change[f] = JSON.stringify({ ...v, uk: now });
      }
      if (Object.keys(change).length) await knex(e.table).where({ id: row.id }).update(change);
    }
  }
}

export async function down(): Promise<void> {
  // the earlier spelling is not restored
}
