import type { Knex } from 'knex';

/** The tables the modules' rules read through a repository, by entity, for the demo seeds (which run before any model is bound). */
const TABLES: Record<string, string> = {
  fine: 'fine',
  'min-oklads': 'min_oklads',
  payments: 'payments',
  subject: 'subjects',
  'subject-report-yearly': 'subject_reports',
};

/**
 * A module rule's reads (`repo(entity).scoped('read')`, a hook's `ctx.repo`) answered in a seed's
 * transaction: the demo data computed by the same rules the engine's writes run.
 */
export const entityReads =
  (trx: Knex | Knex.Transaction) =>
  (entity: string): { scoped(op?: string): Knex.QueryBuilder } => {
    const table = TABLES[entity];
    if (!table) throw new Error(`seeds/entity-reads.ts: no table for "${entity}"`);
    return { scoped: () => trx(`${table} as t`) };
  };
