import type { Hook } from '../types.ts';

/**
 * An approved public planting joins the registry (source "public"): a planting is created through
 * the engine (validated, audited, counted by the aggregates' triggers), and the public planting
 * keeps its id. The resident's name stays the planting's `responsible`, which the public never reads.
 */
export const PLANTING_HOOKS: Record<string, Hook> = {
  'plantings.approvePublic': async ({ row, repo }) => {
    const planting = await repo('plantings').create(
      {
        species_id: row.species_id,
        count: row.count,
        planted_on: row.planted_on,
        region_id: row.region_id,
        location: row.location,
        place_type: 'other',
        responsible: `${row.first_name} ${row.last_name}`.slice(0, 255),
        source: 'public',
        images: row.photo ? [row.photo] : null,
      },
      { fields: ['source'], action: 'approve-public' },
    );
    return { planting_id: planting.id };
  },
};
