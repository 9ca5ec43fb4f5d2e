import { plantingsAggregateOf } from '../../migrations/20261122000700_registry.ts';
import { factsOf } from '../../migrations/20261122000900_planting_facts.ts';
import { YEAR_FACTS_FROM_FACTS } from '../../migrations/20261130000300_planting_year_facts.ts';

type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * The plantings' aggregates (planting_cells, planting_stats, planting_facts, planting_year_facts) built afresh from the
 * whole table, set-wise, by the statements their triggers run on a transition table
 * (migrations 20261122000700_registry and 20261122000900_planting_facts), run here on `plantings`
 * itself: after a bulk load with those triggers off, once over 20 million rows instead of an upsert
 * per chunk into two million cells.
 */
export async function rebuildPlantingAggregates(q: Query): Promise<void> {
  await q('truncate planting_cells, planting_stats, planting_facts, planting_year_facts');
  // the cells first: the facts' statement adds the irrigated trees to them
  for (const sql of [...plantingsAggregateOf('plantings', ''), ...factsOf('plantings', ''), YEAR_FACTS_FROM_FACTS]) await q(sql);
}

/** Each aggregate against a count from its base table. */
export const CHECKS: [string, string, string][] = [
  ['trees: planting_stats', `select sum(trees) as v from planting_stats`, `select sum(count) as v from plantings`],
  ['plantings: planting_stats', `select sum(plantings) as v from planting_stats`, `select count(*) as v from plantings`],
  ['trees: planting_cells level 1', `select sum(trees) as v from planting_cells where level = 1`, `select sum(count) as v from plantings`],
  ['trees: planting_cells level 3', `select sum(trees) as v from planting_cells where level = 3`, `select sum(count) as v from plantings`],
  [
    'irrigated trees: planting_cells level 2',
    `select sum(irrigated) as v from planting_cells where level = 2`,
    `select sum(count) as v from plantings where irrigation`,
  ],
  ['trees: planting_facts', `select sum(trees) as v from planting_facts`, `select sum(count) as v from plantings`],
  [
    'irrigated trees: planting_year_facts',
    `select sum(trees) as v from planting_year_facts where irrigation`,
    `select sum(count) as v from plantings where irrigation`,
  ],
  [
    'offences with a place: offence_cells level 0',
    `select sum(n) as v from offence_cells where level = 0 and grp = 0`,
    `select count(*) as v from offences where location is not null`,
  ],
  [
    'paid: fund_ledger_months',
    `select sum(amount) as v from fund_ledger_months where kind = 'paid'`,
    `select sum(amount) as v from payments where status = 'confirmed' and subject_id is not null`,
  ],
  [
    'accrued: fund_ledger_months',
    `select sum(amount) as v from fund_ledger_months where kind = 'accrued'`,
    `select sum(amount) as v from subject_reports where status = 'accepted' and amount is not null`,
  ],
  [
    'splits: fund_split_months',
    `select sum(amount) as v from fund_split_months`,
    `select sum(s.budget + s.fund + s.organisation) as v from payment_splits s join payments p on p.id = s.parent_id where p.status = 'confirmed'`,
  ],
];

/** Runs the checks, printing each; the number that failed. */
export async function checkAggregates(q: Query, log: (s: string) => void): Promise<number> {
  let failed = 0;
  for (const [what, a, b] of CHECKS) {
    const [x, y] = [String((await q(a))[0].v), String((await q(b))[0].v)];
    if (x !== y) failed++;
    log(`  check ${what}: ${x} ${x === y ? '=' : '≠'} ${y} from the rows${x === y ? '' : '  ← MISMATCH'}`);
  }
  return failed;
}
