/**
 * The informant's incentive for a people fact whose offence's fine is paid (docs/offences.md,
 * "People facts"): the setting `fund.fact_incentive` says either a share of the fine ("10%",
 * "12.5 %") or a fixed amount in soʻm ("375000", "375000.00"). Exact: the share is computed on
 * tiyin and rounded half up to the tiyin once.
 */
import { divRoundHalfUp, parseDecimal, pow10, type Decimal } from './decimal.ts';
import { parseTiyin, type Tiyin } from './money.ts';

/** The setting's default: a tenth of the fine (to be set by the fund). */
export const DEFAULT_INCENTIVE_RULE = '10%';

export type IncentiveRule = { kind: 'share'; percent: Decimal; text: string } | { kind: 'amount'; amount: Tiyin; text: string };

/**
 * "10%" → a share of 10 %; "375000" or "375000.50" → a fixed 375 000 soʻm (50 tiyin). A share is
 * 0–100 % with at most 4 decimals; an amount is not negative, with at most 2 decimals.
 * @throws TypeError / RangeError for anything else
 */
export function parseIncentiveRule(text: string): IncentiveRule {
  if (typeof text !== 'string') throw new TypeError('the incentive rule must be a string');
  const s = text.trim();
  const share = /^(.*?)\s*%$/.exec(s);
  if (share) {
    const percent = parseDecimal(share[1], { maxScale: 4, name: 'incentive share' });
    if (percent.units > 100n * pow10(percent.scale)) throw new RangeError(`incentive share above 100 %: ${JSON.stringify(text)}`);
    return { kind: 'share', percent, text: `${share[1]}%` };
  }
  const amount = parseTiyin(s, { name: 'incentive amount', allowNegative: false });
  return { kind: 'amount', amount, text: s };
}

/** The rule the setting says, or the default when it says nothing or nothing readable. */
export function incentiveRuleOr(text: string | null | undefined): IncentiveRule {
  if (text && text.trim()) {
    try {
      return parseIncentiveRule(text);
    } catch {
      /* an unreadable setting: the default applies */
    }
  }
  return parseIncentiveRule(DEFAULT_INCENTIVE_RULE);
}

/**
 * The incentive for a paid fine: the share of the fine rounded half up to the tiyin, or the fixed
 * amount.
 *   incentiveAmount(parseIncentiveRule('10%'), 3090000_05n) = 30900001n   (309 000.005 → 309 000.01)
 */
export function incentiveAmount(rule: IncentiveRule, fine: Tiyin): Tiyin {
  if (rule.kind === 'amount') return rule.amount;
  if (fine < 0n) throw new RangeError('a fine is not negative');
  return divRoundHalfUp(fine * rule.percent.units, 100n * pow10(rule.percent.scale));
}
