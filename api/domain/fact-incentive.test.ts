import { describe, expect, it } from 'vitest';
import { DEFAULT_INCENTIVE_RULE, incentiveAmount, incentiveRuleOr, parseIncentiveRule } from './fact-incentive.ts';

describe("the informant's incentive", () => {
  it('is a share of the fine rounded half up to the tiyin', () => {
    const ten = parseIncentiveRule('10%');
    expect(incentiveAmount(ten, 309000000n)).toBe(30900000n);
    // 309 000.05 × 10 % = 30 900.005 → 30 900.01
    expect(incentiveAmount(ten, 30900005n)).toBe(3090001n);
    // 30 900.04 × 10 % = 3 090.004 → 3 090.00
    expect(incentiveAmount(ten, 3090004n)).toBe(309000n);
    const odd = parseIncentiveRule(' 12.5 % ');
    expect(odd.text).toBe('12.5%');
    // 1.01 × 12.5 % = 0.12625 → 0.13
    expect(incentiveAmount(odd, 101n)).toBe(13n);
    expect(incentiveAmount(parseIncentiveRule('0%'), 101n)).toBe(0n);
    expect(incentiveAmount(parseIncentiveRule('100%'), 101n)).toBe(101n);
  });

  it('or a fixed amount in soʻm', () => {
    const fixed = parseIncentiveRule('375000');
    expect(fixed).toMatchObject({ kind: 'amount', amount: 37500000n });
    expect(incentiveAmount(fixed, 1n)).toBe(37500000n);
    expect(incentiveAmount(parseIncentiveRule('375000.50'), 1n)).toBe(37500050n);
  });

  it('refuses what is not a rule, and the setting falls back to the default then', () => {
    for (const bad of ['', 'ten', '101%', '-5%', '-1', '1.005', '10%%', '1e3', '0.00001%'])
      expect(() => parseIncentiveRule(bad), bad).toThrow();
    expect(incentiveRuleOr('abc').text).toBe(DEFAULT_INCENTIVE_RULE);
    expect(incentiveRuleOr(undefined).text).toBe(DEFAULT_INCENTIVE_RULE);
    expect(incentiveRuleOr('15%').text).toBe('15%');
  });
});
