import type { Hook } from '../types.ts';
import { benefitsPerTree, DBH_CLASS_COUNT, type SpeciesKind } from '../../domain/ecosystem-benefits.ts';

/**
 * What one tree of a species gives a year, per trunk-diameter class (api/domain/ecosystem-benefits.ts):
 * the species' read-only `benefits` rows (`species_benefits`), which the region reports join to the
 * planting facts in SQL. Computed whenever a species is written (the hook below), and for every species
 * by the seeds (seeds/species-benefits.ts).
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

export const SPECIES_HOOKS: Record<string, Hook> = {
  'species.refreshBenefits': async ({ row }) => ({
    benefits: benefitRows({ code: row.code as string | null, kind: row.kind as SpeciesKind }),
  }),
};
