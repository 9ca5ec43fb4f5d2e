import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The offences map's aggregates (docs/offences.md, "Offences map"): `offence_cells` counts the
 * offences that have a place, with their summed coordinates (a cluster's weighted centre), per
 * level of the grid (0: a region; 1–4: cells of 1/2°, 1/8°, 1/32°, 1/128°, api/map/grid.ts
 * OFFENCE_GRID — a test checks the two agree) and per the dimensions a filtered viewport must
 * count exactly: region, state, sent to the ministry (the police's row set), and — in the
 * grouping sets that keep them — offence type and month. Grouping sets (`grp`): 0 without type
 * and month, 1 with the type, 2 with the month, 3 with both; levels 0–2 keep all four, the fine
 * levels 3–4 (where a cell holds few offences, so a set with the month is nearly one row an
 * offence) only 0 and 3 (OFFENCE_CELL_SETS). A viewport reads the smallest set its filters need.
 * Rows of a set that lacks a dimension hold 0 in it (an offence without a type is type 0 in sets
 * 1 and 3).
 *
 * The key leads with a tile of 32 × 32 cells (`tile`, see cellTile), so a viewport reads its few
 * tiles' ranges of the primary key and not a strip of the whole country; then the month, so a
 * period reads only its months. The columns are named as the offences' own, so the engine's row
 * scope (region, `mvd_sent`) and the list's filters apply to the aggregates as they are. Kept by
 * statement-level triggers with transition tables: a batch costs one grouped upsert (in key order,
 * so concurrent writers lock rows in the same order), an update counts only rows whose place,
 * region, state, type or date moved, and the rows a statement empties are deleted through a
 * partial index.
 *
 * Also the offences list's index by region and state gets its order right (date and id both
 * descending, as the list sorts), and covering indexes serve what the map counts from the
 * offences themselves (a period's part months — by date, or a region's by region and date — and
 * an inspector's own); the region's one replaces the scope's plain `(region_id, offence_date, id)`.
 */
const LEVELS = '(0, NULL::float8), (1, 0.5), (2, 0.125), (3, 0.03125), (4, 0.0078125)';
export const OFFENCE_MAP_LEVELS = [
  [1, 0.5],
  [2, 0.125],
  [3, 0.03125],
  [4, 0.0078125],
] as const;
/** The grouping sets each level keeps (api/modules/offences/map.ts reads by them). */
export const OFFENCE_CELL_SETS: Record<number, readonly number[]> = {
  0: [0, 1, 2, 3],
  1: [0, 1, 2, 3],
  2: [0, 1, 2, 3],
  3: [0, 3],
  4: [0, 3],
};
const KEY = 'level, grp, tile, month, cx, cy, region_id, status, mvd_sent, offence_type_id';
/** a cell's tile: 32 × 32 cells (arithmetic shifts: floor for negative numbers too), as api/modules/offences/map.ts cellTile */
const TILE = '(cx >> 5) * 8192 + (cy >> 5)';
const MAP_COLUMNS = ['location', 'region_id', 'status', 'mvd_sent', 'offence_type_id', 'offence_date'];

/** The grouped upsert of signed rows `(s, location, region_id, status, mvd_sent, offence_type_id, offence_date)`. */
const upsert = (rows: string) => `
  INSERT INTO offence_cells AS c (${KEY}, n, lng_sum, lat_sum)
  SELECT level, (1 - GROUPING(offence_type_id)) + 2 * (1 - GROUPING(month)), ${TILE}, coalesce(month, 0), cx, cy, region_id, status, mvd_sent,
         coalesce(offence_type_id, 0), sum(s), sum(s * lng), sum(s * lat)
    FROM (SELECT l.level, x.s, x.location[0] AS lng, x.location[1] AS lat,
                 CASE WHEN l.size IS NULL THEN 0 ELSE floor(x.location[0] / l.size)::int END AS cx,
                 CASE WHEN l.size IS NULL THEN 0 ELSE floor(x.location[1] / l.size)::int END AS cy,
                 coalesce(x.region_id, 0) AS region_id, coalesce(x.status, '') AS status, coalesce(x.mvd_sent, false) AS mvd_sent,
                 coalesce(x.offence_type_id, 0) AS offence_type_id,
                 coalesce((extract(year FROM x.offence_date) * 100 + extract(month FROM x.offence_date))::int, 0) AS month
            FROM (${rows}) x CROSS JOIN (VALUES ${LEVELS}) AS l(level, size)
           WHERE x.location IS NOT NULL) d
   GROUP BY GROUPING SETS (
     (level, cx, cy, region_id, status, mvd_sent),
     (level, cx, cy, region_id, status, mvd_sent, offence_type_id),
     (level, cx, cy, region_id, status, mvd_sent, month),
     (level, cx, cy, region_id, status, mvd_sent, offence_type_id, month))
  HAVING level < 3 OR GROUPING(offence_type_id) = GROUPING(month)
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
  ON CONFLICT (${KEY}) DO UPDATE SET n = c.n + excluded.n, lng_sum = c.lng_sum + excluded.lng_sum, lat_sum = c.lat_sum + excluded.lat_sum`;

/** The rows of a table (`old_rows` as o, `new_rows` as n, or the offences themselves), signed: −1 to take out, 1 to add. */
const signed = (alias: 'o' | 'n' | 'offences', s: 1 | -1, where = '') =>
  `SELECT ${s} AS s, ${MAP_COLUMNS.map((c) => `${alias}.${c}`).join(', ')} FROM ${{ o: 'old_rows', n: 'new_rows', offences: 'offences' }[alias]} ${alias} ${where}`;
/** An update's rows whose place, region, state, type or date changed: the others' aggregates stay as they are. */
const changed = (other: 'old_rows' | 'new_rows', self: 'o' | 'n') => {
  const x = self === 'o' ? 'n2' : 'o2';
  const cols = (a: string) =>
    `${a}.location[0], ${a}.location[1], ${a}.region_id, ${a}.status, ${a}.mvd_sent, ${a}.offence_type_id, ${a}.offence_date`;
  return `JOIN ${other} ${x} ON ${x}.id = ${self}.id WHERE (${cols(self)}) IS DISTINCT FROM (${cols(x)})`;
};

export async function up(knex: Knex, _h: MigrationHelpers): Promise<void> {
  for (const sql of [
    `CREATE TABLE offence_cells (
      level smallint NOT NULL, grp smallint NOT NULL, tile integer NOT NULL, month integer NOT NULL, cx integer NOT NULL, cy integer NOT NULL,
      region_id bigint NOT NULL, status varchar(20) NOT NULL, mvd_sent boolean NOT NULL, offence_type_id bigint NOT NULL,
      n bigint NOT NULL, lng_sum double precision NOT NULL, lat_sum double precision NOT NULL,
      PRIMARY KEY (${KEY}))`,
    // each trigger ends by deleting the rows it emptied: through this (normally empty) partial index that is a lookup
    'CREATE INDEX offence_cells_emptied ON offence_cells (level) WHERE n = 0',
    `CREATE FUNCTION offences_map_cells() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${upsert(signed('n', 1))};
      ELSIF TG_OP = 'DELETE' THEN ${upsert(signed('o', -1))};
      ELSE ${upsert(`${signed('o', -1, changed('new_rows', 'o'))} UNION ALL ${signed('n', 1, changed('old_rows', 'n'))}`)};
      END IF;
      DELETE FROM offence_cells WHERE n = 0;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER offences_map_cells_insert AFTER INSERT ON offences REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION offences_map_cells()`,
    `CREATE TRIGGER offences_map_cells_update AFTER UPDATE ON offences REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION offences_map_cells()`,
    `CREATE TRIGGER offences_map_cells_delete AFTER DELETE ON offences REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION offences_map_cells()`,
    // what the registry holds already
    upsert(signed('offences', 1)),
    // the list filtered by region and state, newest first, is ordered by date and id both descending:
    // the index of 20261124000310 had id ascending, so each page sorted its day's rows again
    'CREATE INDEX offences_region_status_date_id_idx ON offences (region_id, status, offence_date DESC, id DESC)',
    'DROP INDEX IF EXISTS offences_region_status_date_idx',
    // what the map counts from the offences themselves, read from indexes alone: the days of a month a
    // period takes in part, and an inspector's own offences (api/modules/offences/map.ts fromRows)
    'CREATE INDEX offences_map_date_idx ON offences (offence_date) INCLUDE (location, region_id, status, mvd_sent, offence_type_id)',
    `CREATE INDEX offences_map_inspector_idx ON offences (inspector_id, offence_date) INCLUDE (location, region_id, status, mvd_sent, offence_type_id)
      WHERE inspector_id IS NOT NULL`,
    // and a region's (its staff, the police, a region filter): the scope's index by date, covering the same
    'CREATE INDEX offences_map_region_date_idx ON offences (region_id, offence_date, id) INCLUDE (location, status, mvd_sent, offence_type_id)',
    'DROP INDEX IF EXISTS offences_region_id_offence_date_idx',
  ])
    await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  for (const sql of [
    'DROP TRIGGER IF EXISTS offences_map_cells_insert ON offences',
    'DROP TRIGGER IF EXISTS offences_map_cells_update ON offences',
    'DROP TRIGGER IF EXISTS offences_map_cells_delete ON offences',
    'DROP FUNCTION IF EXISTS offences_map_cells()',
    'DROP TABLE IF EXISTS offence_cells',
    'DROP INDEX IF EXISTS offences_map_date_idx',
    'DROP INDEX IF EXISTS offences_map_inspector_idx',
    'CREATE INDEX IF NOT EXISTS offences_region_id_offence_date_idx ON offences (region_id, offence_date, id)',
    'DROP INDEX IF EXISTS offences_map_region_date_idx',
    'CREATE INDEX IF NOT EXISTS offences_region_status_date_idx ON offences (region_id, status, offence_date DESC, id)',
    'DROP INDEX IF EXISTS offences_region_status_date_id_idx',
  ])
    await knex.raw(sql);
}
