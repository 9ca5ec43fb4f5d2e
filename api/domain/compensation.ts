/**
 * The compensation payment of a report (glossary: "mass of each pollutant × its norm × coefficients,
 * in base-value terms").
 *
 *   amount = round_half_up_to_tiyin( Σᵢ massᵢ × normᵢ × Πⱼ coefficientᵢⱼ × base value )
 *
 * mass is in the report's unit of mass, norm in base-value multiples per that unit, coefficients
 * are plain factors (none given = 1), the base value is the one in force for the report (see
 * base-value.ts). Everything is exact (scaled bigints); the only rounding is once, at the end, to
 * the tiyin, half away from zero (…0.005 soʻm → …0.01). Each line's own rounded amount is for
 * display only: the lines' rounded amounts may differ from the total by up to half a tiyin per line.
 */
import { addDecimal, formatDecimal, mulDecimal, parseDecimal, roundHalfUp, type Decimal } from './decimal.ts';
import type { Tiyin } from './money.ts';

/** Most decimals of a mass, a norm or a coefficient. */
export const INGREDIENT_MAX_DECIMALS = 6;

/** A report ingredient (a pollutant or a waste row). Extra fields (id, name…) are carried through. */
export interface Ingredient {
  /** decimal string, up to 6 decimals, ≥ 0 */
  mass: string;
  /** base-value multiples per unit of mass, decimal string, up to 6 decimals, ≥ 0 */
  norm: string;
  /** decimal strings, up to 6 decimals, ≥ 0; missing or empty = a single coefficient 1 */
  coefficients?: readonly string[] | null;
}

/** One ingredient's share of the payment. */
export interface CompensationLine<T extends Ingredient = Ingredient> {
  /** position in the input */
  index: number;
  ingredient: T;
  /** mass × norm × Π coefficients: base-value multiples, exact */
  multiples: string;
  /** multiples × base value: soʻm, exact (not rounded) */
  exact: string;
  /** `exact` rounded half-up to tiyin on its own, for display; not used for the total */
  amount: Tiyin;
}

/** The payment with its per-ingredient breakdown. */
export interface CompensationResult<T extends Ingredient = Ingredient> {
  /** base value used, tiyin */
  baseValue: Tiyin;
  lines: CompensationLine<T>[];
  /** Σ multiples, exact */
  totalMultiples: string;
  /** Σ multiples × base value: soʻm, exact (not rounded) */
  exactTotal: string;
  /** the payment: `exactTotal` rounded half-up to tiyin, once */
  amount: Tiyin;
}

function factor(value: string, name: string): Decimal {
  return parseDecimal(value, { maxScale: INGREDIENT_MAX_DECIMALS, name });
}

/**
 * The compensation payment for a report's ingredients at a base value (tiyin), rounded once at the
 * end to tiyin half-up, with a per-ingredient breakdown.
 * @throws TypeError when a mass, norm or coefficient is not a decimal string, or the base value not a bigint
 * @throws RangeError when one is negative or has more than 6 decimals, or the base value is not positive
 */
export function calculateCompensation<T extends Ingredient>(ingredients: readonly T[], baseValue: Tiyin): CompensationResult<T> {
  if (typeof baseValue !== 'bigint') throw new TypeError(`base value must be a bigint of tiyin, got ${typeof baseValue}`);
  if (baseValue <= 0n) throw new RangeError(`base value must be positive, got ${baseValue} tiyin`);
  const base: Decimal = { units: baseValue, scale: 2 }; // soʻm
  let totalMultiples: Decimal = { units: 0n, scale: 0 };
  const lines = ingredients.map((ingredient, index): CompensationLine<T> => {
    let multiples = mulDecimal(factor(ingredient.mass, `ingredient ${index} mass`), factor(ingredient.norm, `ingredient ${index} norm`));
    for (const [j, c] of (ingredient.coefficients ?? []).entries()) {
      multiples = mulDecimal(multiples, factor(c, `ingredient ${index} coefficient ${j}`));
    }
    totalMultiples = addDecimal(totalMultiples, multiples);
    const exact = mulDecimal(multiples, base);
    return { index, ingredient, multiples: formatDecimal(multiples), exact: formatDecimal(exact), amount: roundHalfUp(exact, 2) };
  });
  const exactTotal = mulDecimal(totalMultiples, base);
  return {
    baseValue,
    lines,
    totalMultiples: formatDecimal(totalMultiples),
    exactTotal: formatDecimal(exactTotal),
    amount: roundHalfUp(exactTotal, 2),
  };
}
