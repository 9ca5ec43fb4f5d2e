import type { Knex } from 'knex';
import type { WorkflowHook } from './index.ts';
import { benefitsPerTree, DBH_CLASS_COUNT, type SpeciesKind } from '../domain/ecosystem-benefits.ts';

/**
 * `species_benefits` holds, per species and trunk-diameter class, what one tree gives a year
 * (api/domain/ecosystem-benefits.ts), so the region reports join it to the planting facts in SQL.
 * Refreshed for every species by the seeds and for one species whenever it is written.
 */
export async function refreshSpeciesBenefits(db: Knex | Knex.Transaction, speciesIds?: number[]): Promise<void> {
  const q = db('tree_species').select('id', 'code', 'kind');
  if (speciesIds) q.whereIn('id', speciesIds);
  const species = (await q) as { id: number; code: string | null; kind: SpeciesKind }[];
  const rows = species.flatMap((s) => Array.from({ length: DBH_CLASS_COUNT }, (_, i) => {
    const b = benefitsPerTree({ code: s.code, kind: s.kind }, i + 1);
    return {
      species_id: s.id, dbh_class: i + 1,
      co2_stored_kg: b.co2StoredKg.toFixed(3), co2_sequestered_kg_year: b.co2SequesteredKgYear.toFixed(3), rain_intercepted_m3_year: b.rainInterceptedM3Year.toFixed(4),
    };
  }));
  for (let i = 0; i < rows.length; i += 500) {
    await db('species_benefits').insert(rows.slice(i, i + 500)).onConflict(['species_id', 'dbh_class']).merge();
  }
}

export const SPECIES_HOOKS: Record<string, WorkflowHook> = {
  'species.refreshBenefits': async ({ trx, row }) => { await refreshSpeciesBenefits(trx, [row.id as number]); },
};
