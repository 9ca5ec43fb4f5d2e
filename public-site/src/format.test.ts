import { describe, expect, it } from 'vitest';
import { fmtCoord, fmtDecimal, fmtInt, fmtPercent } from './format';

const sp = (s: string) => s.replace(/ /g, '\u00a0');

describe('public-site numbers (shared/numbers.ts)', () => {
  it('is exact for decimal strings a float would round', () => {
    expect(fmtDecimal('90071992547409.99')).toBe(sp('90 071 992 547 409,99'));
    expect(fmtDecimal('1.005')).toBe('1,01');
    expect(fmtDecimal('-0.00')).toBe('0,00');
    expect(fmtDecimal(null)).toBe('');
    expect(fmtDecimal('')).toBe('');
    expect(fmtDecimal('abc')).toBe('');
  });
  it('writes whole numbers with no-break thousands', () => {
    expect(fmtInt(5333000)).toBe(sp('5 333 000'));
    expect(fmtInt('5333000')).toBe(sp('5 333 000'));
    expect(fmtInt(null)).toBe('0');
    expect(fmtInt(-1234)).toBe(sp('-1 234'));
  });
  it('writes percentages and coordinates', () => {
    expect(fmtPercent(0.125)).toBe(sp('12,50 %'));
    expect(fmtPercent(0.00001)).toBe(sp('< 0,01 %'));
    expect(fmtCoord(41.31110000000001)).toBe('41.311100');
  });
});
