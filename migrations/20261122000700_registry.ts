import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The greening registry: tree species, plantings (a passport is a planting of one tree), plantings
 * sent by the public for moderation, and trees over 100 years old; and the aggregates the map and
 * the statistics read — cells at three grid sizes and counts by region, year and species — kept
 * up to date by statement-level triggers, so a batch insert updates them once.
 */
const ENTITIES = ['tree-species', 'plantings', 'public-plantings', 'hundred-yo-trees'];
const LEVELS = '(1, 0.1), (2, 0.02), (3, 0.004)';

/**
 * The map cells and the statistics of a set of plantings (`rows`: a transition table, or
 * `plantings` itself to build them afresh, as bench/national does after a bulk load), added to or
 * (sign '-') taken out of the aggregates: what the triggers below run.
 */
export const plantingsAggregateOf = (rows: string, sign: '' | '-'): [string, string] => [
  `
        INSERT INTO planting_cells AS c (level, cx, cy, trees, lng_sum, lat_sum)
          SELECT l.level, floor(x.location[0] / l.size)::int, floor(x.location[1] / l.size)::int,
                 ${sign}sum(x.count), ${sign}sum(x.location[0] * x.count), ${sign}sum(x.location[1] * x.count)
            FROM ${rows} x CROSS JOIN (VALUES ${LEVELS}) AS l(level, size) GROUP BY 1, 2, 3
          ON CONFLICT (level, cx, cy) DO UPDATE SET trees = c.trees + excluded.trees,
             lng_sum = c.lng_sum + excluded.lng_sum, lat_sum = c.lat_sum + excluded.lat_sum`,
  `
        INSERT INTO planting_stats AS s (region_id, year, species_id, source, plantings, trees)
          SELECT x.region_id, extract(year FROM x.planted_on)::int, x.species_id, x.source, ${sign}count(*), ${sign}sum(x.count)
            FROM ${rows} x GROUP BY 1, 2, 3, 4
          ON CONFLICT (region_id, year, species_id, source) DO UPDATE SET plantings = s.plantings + excluded.plantings, trees = s.trees + excluded.trees`,
];

export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(ENTITIES);
  for (const sql of [
    `CREATE TABLE planting_cells (
      level smallint NOT NULL, cx integer NOT NULL, cy integer NOT NULL,
      trees bigint NOT NULL, lng_sum double precision NOT NULL, lat_sum double precision NOT NULL,
      PRIMARY KEY (level, cx, cy))`,
    `CREATE TABLE planting_stats (
      region_id bigint NOT NULL, year integer NOT NULL, species_id bigint NOT NULL, source varchar(20) NOT NULL,
      plantings bigint NOT NULL, trees bigint NOT NULL,
      PRIMARY KEY (region_id, year, species_id, source))`,
    `CREATE INDEX planting_stats_year ON planting_stats (year, region_id)`,
    `CREATE FUNCTION plantings_aggregate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN
        ${plantingsAggregateOf('old_rows', '-').join(';\n')};
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        ${plantingsAggregateOf('new_rows', '').join(';\n')};
      END IF;
      DELETE FROM planting_cells WHERE trees = 0;
      DELETE FROM planting_stats WHERE plantings = 0;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER plantings_aggregate_insert AFTER INSERT ON plantings REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION plantings_aggregate()`,
    `CREATE TRIGGER plantings_aggregate_update AFTER UPDATE ON plantings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION plantings_aggregate()`,
    `CREATE TRIGGER plantings_aggregate_delete AFTER DELETE ON plantings REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION plantings_aggregate()`,
  ])
    await knex.raw(sql);
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  for (const sql of [
    'DROP TRIGGER IF EXISTS plantings_aggregate_insert ON plantings',
    'DROP TRIGGER IF EXISTS plantings_aggregate_update ON plantings',
    'DROP TRIGGER IF EXISTS plantings_aggregate_delete ON plantings',
    'DROP FUNCTION IF EXISTS plantings_aggregate()',
    'DROP TABLE IF EXISTS planting_cells',
    'DROP TABLE IF EXISTS planting_stats',
  ])
    await knex.raw(sql);
  await h.dropEntityTables([...ENTITIES].reverse());
}
