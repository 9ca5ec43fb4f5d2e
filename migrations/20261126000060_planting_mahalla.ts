import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The registry's addresses offer the mahallas too (issue 12: "offered to the registry's
 * addresses"): a planting may name its mahalla, one of its district's (`within`), and the list
 * filters by it (an index, as every filtered column has).
 */
export async function up(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.addEntityColumns('plantings', ['mahalla_id']);
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityColumns('plantings', ['mahalla_id']);
}
