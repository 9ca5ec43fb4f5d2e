import type { Knex } from 'knex';
import type { SpeciesKind } from '../api/domain/ecosystem-benefits.ts';
import { benefitRows } from '../api/modules/registry/species-benefits.ts';

/** Fills `species_benefits` for every species (the seeds: reference data, not a user's change, written as the
 * seeds write every book; a species written later gets its rows from its hook, through the engine). */
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
