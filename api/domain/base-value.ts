/**
 * The base calculation value (bazaviy hisoblash miqdori, BHM; "min oklad") in force on a date.
 * It changes by decree; each row of the min-oklads book says from which date an amount applies,
 * and it applies until the next row's start date. Every calculation uses the value in force on its
 * own date (the offence date, the report period's date…), never "the current" value.
 */
import { assertIsoDate } from './dates.ts';
import { parseTiyin, type Tiyin } from './money.ts';

/** A row of the min-oklads book: from `start_date` on, the base value is `amount` soʻm. */
export interface BaseValueRow {
  start_date: string;
  /** soʻm as a numeric string, e.g. "412000.00" */
  amount: string;
}

/** The row in force on a date, with its amount in tiyin. */
export interface BaseValueInForce {
  start_date: string;
  amount: Tiyin;
}

/**
 * The base value in force on `date`: the row with the latest start_date on or before it (rows may
 * come in any order). The start date itself is included: on '2025-08-01' the row starting that day
 * applies.
 * @throws RangeError when there are no rows, a row is malformed (bad date, amount ≤ 0), two rows
 * start on the same date, or `date` precedes every row
 */
export function baseValueOn(rows: readonly BaseValueRow[], date: string): BaseValueInForce {
  assertIsoDate(date, 'date');
  if (rows.length === 0) throw new RangeError('no base value rows (min-oklads book is empty)');
  let best: BaseValueInForce | undefined;
  let earliest: string | undefined;
  const seen = new Set<string>();
  for (const [i, row] of rows.entries()) {
    assertIsoDate(row.start_date, `base value row ${i} start_date`);
    const amount = parseTiyin(row.amount, { name: `base value row ${i} amount`, allowNegative: false });
    if (amount <= 0n) throw new RangeError(`base value row ${i} amount must be positive, got ${JSON.stringify(row.amount)}`);
    if (seen.has(row.start_date)) throw new RangeError(`two base value rows start on ${row.start_date}`);
    seen.add(row.start_date);
    if (earliest === undefined || row.start_date < earliest) earliest = row.start_date;
    if (row.start_date <= date && (best === undefined || row.start_date > best.start_date)) {
      best = { start_date: row.start_date, amount };
    }
  }
  if (!best) {
    throw new RangeError(`no base value in force on ${date}: the earliest row starts on ${earliest}`);
  }
  return best;
}
