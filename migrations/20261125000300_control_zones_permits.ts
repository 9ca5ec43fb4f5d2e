import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * Control zones (a folder tree, the fields each folder defines, the zones with their outlines and
 * the values inspectors fill in) and the permits the fund's inspection gives (docs/control-zones.md).
 */
const ENTITIES = ['control-zones-folders', 'control-zone-fields', 'control-zone', 'control-zone-field-values', 'given-permits'];

export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(ENTITIES);
  // a field's code names its value in a zone's form: one per folder
  await knex.raw('CREATE UNIQUE INDEX IF NOT EXISTS control_zone_fields_code_unique ON control_zone_fields (folder_id, code)');
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityTables(ENTITIES);
}
