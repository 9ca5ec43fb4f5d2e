/**
 * Splitting a payment between the state budget, the fund and an organisation by its income type's
 * percentages (spec §9; the income-types book's budget_percent, fund_percent and
 * organisation_percent, which sum to 100).
 *
 * Rounding: largest remainder, in tiyin. Each part first gets the floor of its exact share
 * (amount × percent / 100); the one or two tiyin left over go, one each, to the parts with the
 * largest fractional remainders. Ties are broken by the fixed order budget → fund → organisation.
 * So the parts always add up to the payment exactly, each part is within one tiyin of its exact
 * share, and a 0 % part always gets 0. A negative amount (a refund or a reversal) is split as the
 * mirror image of its positive amount, so a reversal exactly undoes the original split.
 */
import { parseDecimal } from './decimal.ts';
import type { Tiyin } from './money.ts';

/** An income type's split as the income-types book stores it: percent strings, up to 2 decimals. */
export interface IncomeSplitPercents {
  budget_percent: string;
  fund_percent: string;
  /** default "0" (the book's default) */
  organisation_percent?: string | null;
}

/** A split in basis points (1 % = 100 bp); the three sum to 10 000. */
export interface SplitBasisPoints {
  budget: bigint;
  fund: bigint;
  organisation: bigint;
}

/** The three parts of a payment, in tiyin; budget + fund + organisation = the payment. */
export interface SplitParts {
  budget: Tiyin;
  fund: Tiyin;
  organisation: Tiyin;
}

/** 100 % in basis points. */
export const FULL_BASIS_POINTS = 10_000n;

/** The tie-break order of the largest-remainder rule: earlier wins a tied leftover tiyin. */
export const TIE_ORDER = ['budget', 'fund', 'organisation'] as const;

/**
 * "26" → 2600n, "74.00" → 7400n, "12.5" → 1250n basis points.
 * @throws TypeError when not a decimal string; RangeError with more than 2 decimals or outside 0–100
 */
export function percentToBasisPoints(percent: string, name = 'percent'): bigint {
  const d = parseDecimal(percent, { maxScale: 2, name });
  const bp = d.units * 10n ** BigInt(2 - d.scale);
  if (bp > FULL_BASIS_POINTS) throw new RangeError(`${name} must be between 0 and 100, got ${JSON.stringify(percent)}`);
  return bp;
}

/**
 * An income type's percentages in basis points, checked.
 * @throws RangeError when a percent is malformed or outside 0–100, or the three do not sum to 100
 */
export function parseIncomeSplit(split: IncomeSplitPercents): SplitBasisPoints {
  const bp: SplitBasisPoints = {
    budget: percentToBasisPoints(split.budget_percent, 'budget_percent'),
    fund: percentToBasisPoints(split.fund_percent, 'fund_percent'),
    organisation: percentToBasisPoints(split.organisation_percent ?? '0', 'organisation_percent'),
  };
  const sum = bp.budget + bp.fund + bp.organisation;
  if (sum !== FULL_BASIS_POINTS) {
    throw new RangeError(
      `budget, fund and organisation percents must sum to 100, got ${split.budget_percent} + ${split.fund_percent} + ${split.organisation_percent ?? '0'}`,
    );
  }
  return bp;
}

/**
 * Splits `amount` tiyin by a split in basis points with the largest-remainder rule (see the file's
 * comment). The parts sum to `amount` exactly.
 * @throws TypeError when amount is not a bigint; RangeError when the basis points are negative or do not sum to 10 000
 */
export function splitByBasisPoints(amount: Tiyin, bp: SplitBasisPoints): SplitParts {
  if (typeof amount !== 'bigint') throw new TypeError(`amount must be a bigint of tiyin, got ${typeof amount}`);
  for (const k of TIE_ORDER) {
    if (typeof bp[k] !== 'bigint' || bp[k] < 0n) throw new RangeError(`${k} basis points must be a non-negative bigint`);
  }
  if (bp.budget + bp.fund + bp.organisation !== FULL_BASIS_POINTS) {
    throw new RangeError(`basis points must sum to ${FULL_BASIS_POINTS}, got ${bp.budget + bp.fund + bp.organisation}`);
  }
  if (amount < 0n) {
    const p = splitByBasisPoints(-amount, bp);
    return { budget: -p.budget, fund: -p.fund, organisation: -p.organisation };
  }
  const parts = TIE_ORDER.map((key, order) => {
    const exact = amount * bp[key];
    return { key, order, floor: exact / FULL_BASIS_POINTS, remainder: exact % FULL_BASIS_POINTS };
  });
  let leftover = amount - parts.reduce((s, p) => s + p.floor, 0n);
  const byRemainder = [...parts].sort((a, b) => (a.remainder === b.remainder ? a.order - b.order : a.remainder > b.remainder ? -1 : 1));
  for (const p of byRemainder) {
    if (leftover === 0n) break;
    p.floor += 1n;
    leftover -= 1n;
  }
  const out: SplitParts = { budget: 0n, fund: 0n, organisation: 0n };
  for (const p of parts) out[p.key] = p.floor;
  return out;
}

/**
 * Splits a payment of `amount` tiyin by an income type's percentages: budget, fund and
 * organisation parts that add up exactly to the payment (largest remainder; ties budget → fund →
 * organisation).
 *
 * splitIncome(100n, { budget_percent: '26', fund_percent: '74' }) → { budget: 26n, fund: 74n, organisation: 0n }
 */
export function splitIncome(amount: Tiyin, split: IncomeSplitPercents): SplitParts {
  return splitByBasisPoints(amount, parseIncomeSplit(split));
}
