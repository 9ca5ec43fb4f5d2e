import type { Knex } from 'knex';
import { applyAbility, type EntityAbility } from '../auth/ability.ts';
import type { EntityMeta } from '../meta/types.ts';

/**
 * The offences map's aggregate (`offence_cells`, kept by statement triggers: docs/offences.md): the
 * cells of one level and grouping set, in the caller's scope on offences — the ability's row
 * conditions over the cells' scope columns. Null when the caller may read no offence.
 */
export function offenceCells(
  knex: Knex,
  scope: { ability: EntityAbility; e: EntityMeta },
  level: number,
  grp: number,
): Knex.QueryBuilder | null {
  // level and grouping set as literals: constants of the code, and the planner sees them
  const q = knex('offence_cells as t').whereRaw(`t.level = ${Number(level)} AND t.grp = ${Number(grp)}`);
  return applyAbility(q, scope.ability, scope.e, 'read', 't') ? q : null;
}
