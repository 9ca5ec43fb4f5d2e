import type { Knex } from 'knex';

/** The tables the modules' rules read through a repository, by entity, for the demo seeds (which run before any model is bound). */
const TABLES: Record<string, string> = {
  fine: 'fine',
  'min-oklads': 'min_oklads',
  payments: 'payments',
  subject: 'subjects',
  'subject-report-yearly': 'subject_reports',
};

/** The child tables (`children` fields) those rules read with their parent, by entity and field. */
const CHILD_TABLES: Record<string, Record<string, string>> = {
  'subject-report-yearly': { ingredients: 'subject_report_ingredients' },
};

/**
 * A module rule's reads (`repo(entity).scoped('read')`, `scopedChildren('read', field)`, a hook's
 * `ctx.repo`) answered in a seed's transaction: the demo data computed by the same rules the
 * engine's writes run.
 */
export const entityReads =
  (trx: Knex | Knex.Transaction) =>
  (
    entity: string,
  ): { scoped(op?: string): Knex.QueryBuilder; scopedChildren(op: string, field: string, alias?: string): Knex.QueryBuilder } => {
    const table = TABLES[entity];
    if (!table) throw new Error(`seeds/entity-reads.ts: no table for "${entity}"`);
    return {
      scoped: () => trx(`${table} as t`),
      scopedChildren: (_op, field, alias = 'c') => {
        const child = CHILD_TABLES[entity]?.[field];
        if (!child) throw new Error(`seeds/entity-reads.ts: no child table for "${entity}.${field}"`);
        return trx(`${table} as t`).join(`${child} as ${alias}`, `${alias}.parent_id`, 't.id');
      },
    };
  };
