import { volunteerStanding } from '../../read-models/volunteer-standing.ts';
import type { RouteHandler } from '../types.ts';

/** At most this many of a volunteer's plantings are answered, newest first. */
const MAX_PLANTINGS = 200;

export const VOLUNTEER_HANDLERS: Record<string, RouteHandler> = {
  /**
   * A volunteer's own plantings and their place in the rating (the public site's "my volunteering"):
   * the volunteer's row was read in the caller's scope and row sets (a population user reads only
   * their own), and their plantings by the system's read of the plantings (a population user holds no
   * right on plantings; the rows are theirs through the volunteer's row), these columns only.
   */
  'registry.volunteerPlantings': async (ctx, rc) => {
    const id = rc.row!.id as number;
    const plantings: Record<string, unknown>[] = await rc
      .trustedRepo('plantings')
      .scoped('read', rc.knex)
      .where({ 't.volunteer_id': id })
      .orderBy([
        { column: 't.planted_on', order: 'desc' },
        { column: 't.id', order: 'desc' },
      ])
      .limit(MAX_PLANTINGS)
      .select('t.id', 't.species_id', 't.count', 't.planted_on', 't.region_id', 't.area_id', 't.place');
    const speciesIds = [...new Set(plantings.map((p) => p.species_id).filter((x) => x != null))] as number[];
    const species = speciesIds.length
      ? ((await rc.trustedRepo('tree-species').scoped('read', rc.knex).whereIn('t.id', speciesIds).select('t.id', 't.name')) as Record<
          string,
          unknown
        >[])
      : [];
    const names = new Map<unknown, Record<string, string> | null>(
      species.map((s: Record<string, unknown>) => [s.id, s.name as Record<string, string> | null]),
    );
    ctx.body = {
      plantings: plantings.map((p) => {
        const n = names.get(p.species_id);
        return { ...p, species: n ? (n[rc.lang] ?? n.uz ?? null) : null };
      }),
      standing: await volunteerStanding(rc.knex, id),
    };
  },
};
