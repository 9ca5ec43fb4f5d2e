import type { Knex } from 'knex';
import { DBH_CLASS } from './20261122000900_planting_facts.ts';
import { aggregateTriggersSql, dropAggregateTriggersSql } from '../api/db/statement-triggers.ts';

/**
 * The public statistics' facts: `planting_facts` without the month and the executing organisation
 * (plantings and trees by year, region, species, source, diameter class and irrigation), for the
 * public reports and the map's irrigated region layer, which group by none of those two. At 20 M
 * plantings `planting_facts` holds 1.16 M rows and a public report summing a year of it took
 * 0.6–2.8 s; these facts hold 34 000 (docs/performance.md, bench/map at 20 M). Kept by the same
 * kind of statement triggers on `plantings`, with the diameter class of the facts' migration.
 */
export const yearFactsOf = (rows: string, sign: '' | '-'): string => `
  INSERT INTO planting_year_facts AS f (year, region_id, species_id, source, dbh_class, irrigation, plantings, trees, confirmed, area_ha)
    SELECT extract(year FROM x.planted_on)::int, x.region_id, x.species_id, x.source, ${DBH_CLASS('x')}, x.irrigation,
           ${sign}count(*), ${sign}sum(x.count), ${sign}sum(coalesce(x.confirmed_count, 0)), ${sign}sum(coalesce(x.area_ha, 0))
      FROM ${rows} x GROUP BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (year, region_id, species_id, source, dbh_class, irrigation) DO UPDATE SET
    plantings = f.plantings + excluded.plantings, trees = f.trees + excluded.trees,
    confirmed = f.confirmed + excluded.confirmed, area_ha = f.area_ha + excluded.area_ha`;

/** The year facts built afresh from the month facts (what the registry holds already: the migration, bench/national). */
export const YEAR_FACTS_FROM_FACTS = `
  INSERT INTO planting_year_facts (year, region_id, species_id, source, dbh_class, irrigation, plantings, trees, confirmed, area_ha)
    SELECT year, region_id, species_id, source, dbh_class, irrigation, sum(plantings), sum(trees), sum(confirmed), sum(area_ha)
      FROM planting_facts GROUP BY 1, 2, 3, 4, 5, 6`;

export async function up(knex: Knex): Promise<void> {
  for (const sql of [
    `CREATE TABLE planting_year_facts (
      year integer NOT NULL, region_id bigint NOT NULL, species_id bigint NOT NULL, source varchar(20) NOT NULL,
      dbh_class smallint NOT NULL, irrigation boolean NOT NULL,
      plantings bigint NOT NULL, trees bigint NOT NULL, confirmed bigint NOT NULL, area_ha numeric(18, 4) NOT NULL,
      PRIMARY KEY (year, region_id, species_id, source, dbh_class, irrigation))`,
    'CREATE INDEX planting_year_facts_region ON planting_year_facts (region_id, year)',
    'CREATE INDEX planting_year_facts_emptied ON planting_year_facts (year) WHERE plantings = 0',
    ...aggregateTriggersSql('plantings', 'plantings_year_facts', (rows, sign) => [yearFactsOf(rows, sign)], [
      'DELETE FROM planting_year_facts WHERE plantings = 0',
    ]),
    YEAR_FACTS_FROM_FACTS,
  ])
    await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  for (const sql of [...dropAggregateTriggersSql('plantings', 'plantings_year_facts'), 'DROP TABLE IF EXISTS planting_year_facts'])
    await knex.raw(sql);
}
