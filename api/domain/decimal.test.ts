import { describe, expect, it } from 'vitest';
import {
  addDecimal,
  compareDecimal,
  divRoundHalfUp,
  formatDecimal,
  formatFixed,
  mulDecimal,
  parseDecimal,
  pow10,
  rescale,
  roundHalfUp,
} from './decimal.ts';

const p = (s: string, maxScale = 6) => parseDecimal(s, { maxScale, allowNegative: true });

describe('exact decimals', () => {
  it('parses plain decimal strings into scaled integers', () => {
    expect(parseDecimal('12.5', { maxScale: 2 })).toEqual({ units: 125n, scale: 1 });
    expect(parseDecimal('0.033', { maxScale: 6 })).toEqual({ units: 33n, scale: 3 });
    expect(parseDecimal('007', { maxScale: 0 })).toEqual({ units: 7n, scale: 0 });
    expect(parseDecimal('-4.50', { maxScale: 2, allowNegative: true })).toEqual({ units: -450n, scale: 2 });
    expect(parseDecimal('-0', { maxScale: 2 })).toEqual({ units: 0n, scale: 0 });
  });

  it('refuses what is not a plain decimal with a TypeError naming the value', () => {
    for (const bad of ['', ' 1', '1 ', '1e3', '1,5', '.5', '5.', '+1', '--1', 'abc', '1.2.3', 'NaN', 'Infinity', '١٢']) {
      expect(() => parseDecimal(bad, { maxScale: 6, name: 'mass' }), bad).toThrow(TypeError);
    }
    expect(() => parseDecimal('x', { maxScale: 6, name: 'mass' })).toThrow('mass is not a decimal number: "x"');
    expect(() => parseDecimal(12 as unknown as string, { maxScale: 6 })).toThrow(TypeError);
    expect(() => parseDecimal(null as unknown as string, { maxScale: 6 })).toThrow(TypeError);
  });

  it('refuses too many decimals and unwanted negatives with a RangeError', () => {
    expect(() => parseDecimal('1.005', { maxScale: 2, name: 'amount' })).toThrow(
      new RangeError('amount has more than 2 decimals: "1.005"'),
    );
    expect(() => parseDecimal('1.000', { maxScale: 2 })).toThrow(RangeError); // trailing zeros count: the input is over-precise
    expect(() => parseDecimal('-1', { maxScale: 2 })).toThrow(RangeError);
  });

  it('multiplies and adds exactly', () => {
    // 0.1 × 0.2 = 0.02 exactly (floating point says 0.020000000000000004)
    expect(formatDecimal(mulDecimal(p('0.1'), p('0.2')))).toBe('0.02');
    // 0.1 + 0.2 = 0.3 exactly
    expect(formatDecimal(addDecimal(p('0.1'), p('0.2')))).toBe('0.3');
    expect(formatDecimal(addDecimal(p('1.5'), p('-2.25')))).toBe('-0.75');
    expect(rescale(p('1.5'), 3)).toEqual({ units: 1500n, scale: 3 });
    expect(() => rescale(p('1.55'), 1)).toThrow(RangeError);
  });

  it('compares across scales', () => {
    expect(compareDecimal(p('10'), p('10.00'))).toBe(0);
    expect(compareDecimal(p('9.99'), p('10'))).toBe(-1);
    expect(compareDecimal(p('10.01'), p('10'))).toBe(1);
  });

  it('rounds half away from zero', () => {
    expect(divRoundHalfUp(5n, 2n)).toBe(3n); // 2.5 → 3
    expect(divRoundHalfUp(-5n, 2n)).toBe(-3n); // -2.5 → -3
    expect(divRoundHalfUp(7n, 3n)).toBe(2n); // 2.33 → 2
    expect(divRoundHalfUp(8n, 3n)).toBe(3n); // 2.67 → 3
    expect(divRoundHalfUp(24_999n, 10_000n)).toBe(2n); // 2.4999 → 2
    expect(divRoundHalfUp(5n, -2n)).toBe(-3n);
    expect(divRoundHalfUp(0n, 7n)).toBe(0n);
    expect(() => divRoundHalfUp(1n, 0n)).toThrow(RangeError);
    expect(roundHalfUp(p('1.005'), 2)).toBe(101n);
    expect(roundHalfUp(p('1.004999'), 2)).toBe(100n);
    expect(roundHalfUp(p('-1.005'), 2)).toBe(-101n);
    expect(roundHalfUp(p('1.5'), 3)).toBe(1500n);
  });

  it('formats exactly', () => {
    expect(formatDecimal({ units: 150n, scale: 2 })).toBe('1.5');
    expect(formatDecimal({ units: 2000n, scale: 3 })).toBe('2');
    expect(formatDecimal({ units: 5n, scale: 4 })).toBe('0.0005');
    expect(formatDecimal({ units: -5n, scale: 4 })).toBe('-0.0005');
    expect(formatDecimal({ units: 0n, scale: 4 })).toBe('0');
    expect(formatFixed(p('1.005'), 2)).toBe('1.01');
    expect(formatFixed(p('-0.5'), 0)).toBe('-1');
    expect(formatFixed(p('3'), 2)).toBe('3.00');
    expect(pow10(0)).toBe(1n);
    expect(pow10(18)).toBe(1_000_000_000_000_000_000n);
    expect(() => pow10(-1)).toThrow(RangeError);
  });
});
