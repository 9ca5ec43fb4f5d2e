import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The rest of the greening registry: the organisations that plant and their yearly plans, the
 * governors' decisions, green areas (gardens, parks, public parks — one table, three views), model
 * green streets, residents' own gardens, tree-cutting permits and illegal felling, inspections of
 * plantings, places where residents may plant, volunteers, and the news of the public site.
 * A planting gains its executing organisation and its volunteer.
 */
const ENTITIES = [
  'planting-orgs',
  'volunteers',
  'planting-plans',
  'governor-decisions',
  'green-areas',
  'green-streets',
  'my-gardens',
  'tree-cutting-permits',
  'tree-cutting-violations',
  'planting-inspections',
  'resident-planting-areas',
  'publication-types',
  'publications',
];
const PLANTING_COLUMNS = ['org_id', 'volunteer_id'];

export async function up(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(ENTITIES);
  await h.addEntityColumns('plantings', PLANTING_COLUMNS);
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityColumns('plantings', PLANTING_COLUMNS);
  await h.dropEntityTables([...ENTITIES].reverse());
}
