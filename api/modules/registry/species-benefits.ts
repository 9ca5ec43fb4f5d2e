import type { Knex } from 'knex';
import type { Hook } from '../types.ts';
import { benefitsPerTree, DBH_CLASS_COUNT, type SpeciesKind } from '../../domain/ecosystem-benefits.ts';

/**
 * What one tree of a species gives a year, per trunk-diameter class (api/domain/ecosystem-benefits.ts):
 * the species' read-only `benefits` rows (`species_benefits`), which the region reports join to the
 * planting facts in SQL. Computed whenever a species is written, and for every species by the seeds.
 */
export function benefitRows(s: { code: string | null; kind: SpeciesKind }): Record<string, unknown>[] {
  return Array.from({ length: DBH_CLASS_COUNT }, (_, i) => {
    const b = benefitsPerTree({ code: s.code, kind: s.kind }, i + 1);
    return {
      dbh_class: i + 1,
      co2_stored_kg: b.co2StoredKg.toFixed(3),
      co2_sequestered_kg_year: b.co2SequesteredKgYear.toFixed(3),
      rain_intercepted_m3_year: b.rainInterceptedM3Year.toFixed(4),
    };
  });
}

/** Fills `species_benefits` for every species (the seeds: reference data, not a user's change). */
export async function refreshSpeciesBenefits(db: Knex | Knex.Transaction): Promise<void> {
  const species = (await db('tree_species').select('id', 'code', 'kind')) as { id: number; code: string | null; kind: SpeciesKind }[];
  const rows = species.flatMap((s) => benefitRows(s).map((r) => ({ species_id: s.id, ...r })));
  for (let i = 0; i < rows.length; i += 500) {
    await db('species_benefits')
      .insert(rows.slice(i, i + 500))
      .onConflict(['species_id', 'dbh_class'])
      .merge();
  }
}

export const SPECIES_HOOKS: Record<string, Hook> = {
  'species.refreshBenefits': async ({ row }) => ({
    benefits: benefitRows({ code: row.code as string | null, kind: row.kind as SpeciesKind }),
  }),
};
