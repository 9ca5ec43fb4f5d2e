import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The facts the staff and public reports read, so no report sums the registry row by row:
 * plantings and trees by year, month, region, species, source, executing organisation, trunk
 * diameter class and irrigation; and the irrigated trees of each map cell (the irrigation layer).
 * Kept by statement-level triggers beside those of the registry migration (they run after them:
 * trigger order is by name), so a batch insert updates each once.
 *
 * The diameter classes are those of the benefit tables (api/domain/ecosystem-benefits.ts,
 * DBH_CLASS_UPPER_CM; a test checks the two agree): DBH = circumference / π; no circumference is
 * a sapling, class 1.
 */
export const DBH_CLASS_BOUNDS_CM = [7.62, 15.24, 30.48, 45.72, 60.96, 76.2, 91.44, 106.68];
export const DBH_CLASS = (alias: string) =>
  `CASE WHEN ${alias}.circumference_cm IS NULL OR ${alias}.circumference_cm <= 0 THEN 1
        ELSE 1 + width_bucket(${alias}.circumference_cm / pi(), ARRAY[${DBH_CLASS_BOUNDS_CM.join(', ')}]::float8[]) END`;
const LEVELS = '(1, 0.1), (2, 0.02), (3, 0.004)';

/** The facts of a set of plantings (a transition table, or `plantings` itself to build them afresh, as bench/national does), added or taken out. */
export const factsOf = (rows: string, sign: '' | '-'): [string, string] => [
  `
  INSERT INTO planting_facts AS f (year, month, region_id, species_id, source, org_id, dbh_class, irrigation, plantings, trees, confirmed, area_ha)
    SELECT extract(year FROM x.planted_on)::int, extract(month FROM x.planted_on)::int, x.region_id, x.species_id, x.source,
           coalesce(x.org_id, 0), ${DBH_CLASS('x')}, x.irrigation,
           ${sign}count(*), ${sign}sum(x.count), ${sign}sum(coalesce(x.confirmed_count, 0)), ${sign}sum(coalesce(x.area_ha, 0))
      FROM ${rows} x GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT (year, month, region_id, species_id, source, org_id, dbh_class, irrigation) DO UPDATE SET
    plantings = f.plantings + excluded.plantings, trees = f.trees + excluded.trees,
    confirmed = f.confirmed + excluded.confirmed, area_ha = f.area_ha + excluded.area_ha`,
  `
  UPDATE planting_cells c SET irrigated = c.irrigated + d.trees
    FROM (SELECT l.level, floor(x.location[0] / l.size)::int AS cx, floor(x.location[1] / l.size)::int AS cy, ${sign}sum(x.count) AS trees
            FROM ${rows} x CROSS JOIN (VALUES ${LEVELS}) AS l(level, size) WHERE x.irrigation GROUP BY 1, 2, 3) d
   WHERE c.level = d.level AND c.cx = d.cx AND c.cy = d.cy`,
];

export async function up(knex: Knex, _h: MigrationHelpers): Promise<void> {
  for (const sql of [
    `CREATE TABLE planting_facts (
      year integer NOT NULL, month smallint NOT NULL, region_id bigint NOT NULL, species_id bigint NOT NULL,
      source varchar(20) NOT NULL, org_id bigint NOT NULL DEFAULT 0, dbh_class smallint NOT NULL, irrigation boolean NOT NULL,
      plantings bigint NOT NULL, trees bigint NOT NULL, confirmed bigint NOT NULL, area_ha numeric(18, 4) NOT NULL,
      PRIMARY KEY (year, month, region_id, species_id, source, org_id, dbh_class, irrigation))`,
    'CREATE INDEX planting_facts_region ON planting_facts (region_id, year)',
    'CREATE INDEX planting_facts_org ON planting_facts (org_id, year) WHERE org_id <> 0',
    'ALTER TABLE planting_cells ADD COLUMN irrigated bigint NOT NULL DEFAULT 0',
    // each trigger ends by deleting the rows it emptied: through these (normally empty) partial
    // indexes that is a lookup, not a scan of every cell on each insert
    'CREATE INDEX planting_cells_emptied ON planting_cells (level) WHERE trees = 0',
    'CREATE INDEX planting_stats_emptied ON planting_stats (year) WHERE plantings = 0',
    'CREATE INDEX planting_facts_emptied ON planting_facts (year) WHERE plantings = 0',
    `CREATE INDEX plantings_volunteer_idx ON plantings (volunteer_id, planted_on) WHERE volunteer_id IS NOT NULL`,
    `CREATE FUNCTION plantings_facts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN ${factsOf('old_rows', '-').join(';')};
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN ${factsOf('new_rows', '').join(';')};
      END IF;
      DELETE FROM planting_facts WHERE plantings = 0;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER plantings_facts_insert AFTER INSERT ON plantings REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION plantings_facts()`,
    `CREATE TRIGGER plantings_facts_update AFTER UPDATE ON plantings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION plantings_facts()`,
    `CREATE TRIGGER plantings_facts_delete AFTER DELETE ON plantings REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION plantings_facts()`,
    // what the registry holds already
    ...factsOf('plantings', ''),
    // per species and diameter class, what one tree gives (filled by the seeds from api/domain/ecosystem-benefits.ts)
    `CREATE TABLE species_benefits (
      species_id bigint NOT NULL REFERENCES tree_species(id) ON DELETE CASCADE, dbh_class smallint NOT NULL,
      co2_stored_kg numeric(14, 3) NOT NULL, co2_sequestered_kg_year numeric(14, 3) NOT NULL, rain_intercepted_m3_year numeric(14, 4) NOT NULL,
      PRIMARY KEY (species_id, dbh_class))`,
  ])
    await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  for (const sql of [
    'DROP TRIGGER IF EXISTS plantings_facts_insert ON plantings',
    'DROP TRIGGER IF EXISTS plantings_facts_update ON plantings',
    'DROP TRIGGER IF EXISTS plantings_facts_delete ON plantings',
    'DROP FUNCTION IF EXISTS plantings_facts()',
    'DROP INDEX IF EXISTS plantings_volunteer_idx',
    'DROP INDEX IF EXISTS planting_cells_emptied',
    'DROP INDEX IF EXISTS planting_stats_emptied',
    'DROP TABLE IF EXISTS species_benefits',
    'DROP TABLE IF EXISTS planting_facts',
    'ALTER TABLE planting_cells DROP COLUMN IF EXISTS irrigated',
  ])
    await knex.raw(sql);
}
