import { describe, expect, it } from 'vitest';
import {
  FULL_BASIS_POINTS,
  parseIncomeSplit,
  percentToBasisPoints,
  splitByBasisPoints,
  splitIncome,
  type IncomeSplitPercents,
  type SplitBasisPoints,
  type SplitParts,
} from './income-split.ts';
import { parseTiyin } from './money.ts';

const t = (s: string) => parseTiyin(s);
const split = (budget: string, fund: string, organisation = '0'): IncomeSplitPercents => ({
  budget_percent: budget,
  fund_percent: fund,
  organisation_percent: organisation,
});
const parts = (budget: bigint, fund: bigint, organisation: bigint): SplitParts => ({ budget, fund, organisation });

// The spec's splits (§9), as the income-types book would hold them.
const COMPENSATION = split('26', '74'); // also tree felling 3422225 and fines
const PERMIT = split('60', '0', '40'); // also lawsuits
const RED_BOOK = split('88', '12'); // 12 % to the fund, the rest to the budget
const QUOTA_100 = split('0', '100');
const QUOTA_80 = split('20', '80');
const QUOTA_70 = split('30.00', '70.00');
const QUOTA_40 = split('60', '40');
const QUOTA_32 = split('68', '32');
const OTHER = split('0', '100.00', '0.00');

describe('percentages', () => {
  it('become exact basis points', () => {
    expect(percentToBasisPoints('26')).toBe(2600n);
    expect(percentToBasisPoints('74.00')).toBe(7400n);
    expect(percentToBasisPoints('12.5')).toBe(1250n);
    expect(percentToBasisPoints('0.01')).toBe(1n);
    expect(percentToBasisPoints('100')).toBe(10_000n);
    expect(parseIncomeSplit(COMPENSATION)).toEqual({ budget: 2600n, fund: 7400n, organisation: 0n });
    expect(parseIncomeSplit({ budget_percent: '26', fund_percent: '74' })).toEqual({ budget: 2600n, fund: 7400n, organisation: 0n });
    expect(parseIncomeSplit({ budget_percent: '26', fund_percent: '74', organisation_percent: null }).organisation).toBe(0n);
  });

  it('are checked', () => {
    expect(() => percentToBasisPoints('12.555')).toThrow(RangeError);
    expect(() => percentToBasisPoints('100.01')).toThrow(RangeError);
    expect(() => percentToBasisPoints('-1')).toThrow(RangeError);
    expect(() => percentToBasisPoints('12%')).toThrow(TypeError);
    expect(() => parseIncomeSplit(split('26', '73.99'))).toThrow(
      new RangeError('budget, fund and organisation percents must sum to 100, got 26 + 73.99 + 0'),
    );
    expect(() => parseIncomeSplit(split('60', '40', '40'))).toThrow(RangeError);
    expect(() => splitByBasisPoints(100n, { budget: 5000n, fund: 5001n, organisation: -1n })).toThrow(RangeError);
    expect(() => splitByBasisPoints(100n, { budget: 5000n, fund: 4000n, organisation: 0n })).toThrow(RangeError);
    expect(() => splitIncome(100 as unknown as bigint, COMPENSATION)).toThrow(TypeError);
  });
});

describe('splitting a payment (largest remainder)', () => {
  it('26 % budget / 74 % fund: compensation, tree felling, fines', () => {
    expect(splitIncome(t('1.00'), COMPENSATION)).toEqual(parts(26n, 74n, 0n));
    // 0.01: exact 0.0026 / 0.0074 → floors 0 / 0, remainders 2600 / 7400 → the tiyin goes to the fund
    expect(splitIncome(t('0.01'), COMPENSATION)).toEqual(parts(0n, 1n, 0n));
    // 0.03: exact 0.78 / 2.22 tiyin → floors 0 / 2, remainders 7800 / 2200 → the budget gets the leftover
    expect(splitIncome(t('0.03'), COMPENSATION)).toEqual(parts(1n, 2n, 0n));
    // 100.01 = 10 001 tiyin: exact 2600.26 / 7400.74 → 2600 / 7401
    expect(splitIncome(t('100.01'), COMPENSATION)).toEqual(parts(2600n, 7401n, 0n));
    // 999 999 999 999.99 = 99 999 999 999 999 tiyin:
    //   budget 25 999 999 999 999.74 → 25 999 999 999 999 (rem 7400), fund 73 999 999 999 999.26 → … (rem 2600)
    //   one tiyin left → budget: 260 000 000 000.00 + 739 999 999 999.99 soʻm
    expect(splitIncome(t('999999999999.99'), COMPENSATION)).toEqual(parts(t('260000000000.00'), t('739999999999.99'), 0n));
    expect(splitIncome(0n, COMPENSATION)).toEqual(parts(0n, 0n, 0n));
  });

  it('60 % budget / 40 % organisation: permits, lawsuits', () => {
    expect(splitIncome(t('0.01'), PERMIT)).toEqual(parts(1n, 0n, 0n)); // remainders 6000 / 4000
    expect(splitIncome(t('0.03'), PERMIT)).toEqual(parts(2n, 0n, 1n)); // 1.8 / 1.2 → 1+1 / 1
    expect(splitIncome(t('0.05'), PERMIT)).toEqual(parts(3n, 0n, 2n)); // exact
    // 99 999 999 999 999 tiyin: budget …999.4 (rem 4000), organisation …999.6 (rem 6000) → organisation rounds up
    expect(splitIncome(t('999999999999.99'), PERMIT)).toEqual(parts(t('599999999999.99'), 0n, t('400000000000.00')));
  });

  it('Red Book: 12 % to the fund, 88 % to the budget', () => {
    expect(splitIncome(t('0.01'), RED_BOOK)).toEqual(parts(1n, 0n, 0n));
    // 0.03: budget 2.64 (rem 6400), fund 0.36 (rem 3600) → budget 3, fund 0
    expect(splitIncome(t('0.03'), RED_BOOK)).toEqual(parts(3n, 0n, 0n));
    // 0.09: budget 7.92 (rem 9200), fund 1.08 (rem 800) → 8 / 1
    expect(splitIncome(t('0.09'), RED_BOOK)).toEqual(parts(8n, 1n, 0n));
    // 1 234.56 = 123 456 tiyin: budget 108 641.28 (rem 2800), fund 14 814.72 (rem 7200) → 108 641 / 14 815
    expect(splitIncome(t('1234.56'), RED_BOOK)).toEqual(parts(108_641n, 14_815n, 0n));
  });

  it('quota income: 100, 80, 70, 40 or 32 % to the fund, the rest to the budget', () => {
    expect(splitIncome(t('0.03'), QUOTA_100)).toEqual(parts(0n, 3n, 0n));
    expect(splitIncome(t('0.01'), QUOTA_80)).toEqual(parts(0n, 1n, 0n));
    expect(splitIncome(t('0.03'), QUOTA_80)).toEqual(parts(1n, 2n, 0n)); // 0.6 (rem 6000) / 2.4 (rem 4000)
    expect(splitIncome(t('0.03'), QUOTA_70)).toEqual(parts(1n, 2n, 0n)); // 0.9 / 2.1
    expect(splitIncome(t('0.03'), QUOTA_40)).toEqual(parts(2n, 1n, 0n)); // 1.8 / 1.2
    expect(splitIncome(t('0.01'), QUOTA_32)).toEqual(parts(1n, 0n, 0n)); // rem 6800 / 3200
    expect(splitIncome(t('0.03'), QUOTA_32)).toEqual(parts(2n, 1n, 0n)); // 2.04 (rem 400) / 0.96 (rem 9600)
    expect(splitIncome(t('1.00'), QUOTA_32)).toEqual(parts(68n, 32n, 0n));
    expect(splitIncome(t('333.33'), QUOTA_70)).toEqual(parts(t('100.00'), t('233.33'), 0n)); // 9999.9 / 23333.1
  });

  it('other income: 100 % to the fund', () => {
    expect(splitIncome(t('999999999999.99'), OTHER)).toEqual(parts(0n, t('999999999999.99'), 0n));
    expect(splitIncome(t('0.01'), OTHER)).toEqual(parts(0n, 1n, 0n));
  });

  it('breaks ties in the order budget → fund → organisation', () => {
    expect(splitIncome(t('0.01'), split('50', '50'))).toEqual(parts(1n, 0n, 0n));
    expect(splitIncome(t('0.01'), split('50', '0', '50'))).toEqual(parts(1n, 0n, 0n));
    expect(splitIncome(t('0.01'), split('0', '50', '50'))).toEqual(parts(0n, 1n, 0n));
    expect(splitIncome(t('0.03'), split('0', '50', '50'))).toEqual(parts(0n, 2n, 1n)); // 1.5 / 1.5
    // 33.33 / 33.33 / 33.34 of 0.02: remainders 6666 / 6666 / 6668 → organisation, then budget (tie with fund)
    expect(splitIncome(t('0.02'), split('33.33', '33.33', '33.34'))).toEqual(parts(1n, 0n, 1n));
    expect(splitIncome(t('0.01'), split('12.5', '37.5', '50'))).toEqual(parts(0n, 0n, 1n));
  });

  it('splits a negative amount as the mirror of its positive amount', () => {
    expect(splitIncome(t('-0.03'), COMPENSATION)).toEqual(parts(-1n, -2n, 0n));
    expect(splitIncome(t('-0.01'), split('50', '50'))).toEqual(parts(-1n, 0n, 0n));
  });
});

describe('property: every split adds up exactly', () => {
  // Deterministic pseudo-random numbers (mulberry32), so a failure is reproducible.
  function rng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let x = a;
      x = Math.imul(x ^ (x >>> 15), x | 1);
      x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
  }
  const random = rng(20250801);
  const int = (n: number) => Math.floor(random() * n);

  function randomAmount(): bigint {
    switch (int(4)) {
      case 0:
        return BigInt(int(1000)); // up to 9.99 soʻm
      case 1:
        return BigInt(int(1_000_000_000)); // up to ~10 million soʻm
      case 2:
        return BigInt(int(1_000_000)) * 1_000_000_000n + BigInt(int(1_000_000_000)); // up to ~10^13 soʻm
      default:
        return 99_999_999_999_999n - BigInt(int(1000)); // near 999 999 999 999.99
    }
  }
  function randomSplit(): SplitBasisPoints {
    const a = BigInt(int(10_001));
    const b = BigInt(int(Number(FULL_BASIS_POINTS - a) + 1));
    const keys = [a, b, FULL_BASIS_POINTS - a - b];
    if (int(3) === 0) keys.reverse();
    return { budget: keys[0], fund: keys[1], organisation: keys[2] };
  }
  const specSplits = [COMPENSATION, PERMIT, RED_BOOK, QUOTA_100, QUOTA_80, QUOTA_70, QUOTA_40, QUOTA_32, OTHER].map(parseIncomeSplit);

  it('sum, closeness, zero shares and the largest-remainder choice hold for 10 000 cases', () => {
    const keys = ['budget', 'fund', 'organisation'] as const;
    for (let i = 0; i < 10_000; i++) {
      const amount = randomAmount();
      const bp = i % 2 === 0 ? specSplits[i % specSplits.length] : randomSplit();
      const p = splitByBasisPoints(amount, bp);
      const context = `${amount} by ${bp.budget}/${bp.fund}/${bp.organisation}`;
      expect(p.budget + p.fund + p.organisation, context).toBe(amount);
      const extra: Record<string, bigint> = {};
      for (const k of keys) {
        const exact = amount * bp[k]; // in 1/10 000 tiyin
        const floor = exact / FULL_BASIS_POINTS;
        extra[k] = p[k] - floor;
        expect(extra[k] === 0n || extra[k] === 1n, `${context}: ${k} is floor or floor + 1`).toBe(true);
        if (bp[k] === 0n) expect(p[k], `${context}: a 0 % share is 0`).toBe(0n);
        if (exact % FULL_BASIS_POINTS === 0n) expect(p[k], `${context}: an exact share is kept`).toBe(floor);
      }
      // whoever got a leftover tiyin had a remainder at least as large as anyone who did not,
      // and on a tie came earlier in budget → fund → organisation
      for (const [wi, winner] of keys.entries()) {
        for (const [li, loser] of keys.entries()) {
          if (extra[winner] !== 1n || extra[loser] !== 0n) continue;
          const rw = (amount * bp[winner]) % FULL_BASIS_POINTS;
          const rl = (amount * bp[loser]) % FULL_BASIS_POINTS;
          expect(rw > rl || (rw === rl && wi < li), `${context}: ${winner} over ${loser}`).toBe(true);
        }
      }
      const negative = splitByBasisPoints(-amount, bp);
      expect(negative).toEqual({ budget: -p.budget, fund: -p.fund, organisation: -p.organisation });
    }
  });
});
