import type { Knex } from 'knex';

/** A volunteer's place among all volunteers: by trees planted, all time (the volunteers-rating report's order). */
export interface VolunteerStanding {
  /** 1 for the most trees; volunteers with equal trees share a place (SQL rank) */
  rank: number | null;
  /** volunteers with at least one planting */
  of: number;
  plantings: number;
  trees: number;
}

/**
 * The standing of one volunteer in the public rating (metadata/reports/ecofund-plantings/volunteers-rating.json,
 * period "all"): an aggregate over every volunteer's plantings, the same figures the public report shows
 * for everyone, so it names no other row. The caller has read the volunteer's own row through the read path.
 */
export async function volunteerStanding(db: Knex | Knex.Transaction, volunteerId: number): Promise<VolunteerStanding> {
  const { rows } = await db.raw(
    `WITH totals AS (
       SELECT p.volunteer_id, count(*) AS plantings, sum(p.count) AS trees
       FROM plantings p WHERE p.volunteer_id IS NOT NULL GROUP BY p.volunteer_id),
     ranked AS (SELECT t.*, rank() OVER (ORDER BY t.trees DESC) AS rank, count(*) OVER () AS n FROM totals t)
     SELECT (SELECT count(*) FROM totals) AS n, r.rank, r.plantings, r.trees
     FROM (SELECT 1) one LEFT JOIN ranked r ON r.volunteer_id = ?`,
    [volunteerId],
  );
  const r = rows[0] ?? {};
  return {
    rank: r.rank == null ? null : Number(r.rank),
    of: Number(r.n ?? 0),
    plantings: Number(r.plantings ?? 0),
    trees: Number(r.trees ?? 0),
  };
}
