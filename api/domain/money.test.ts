import { describe, expect, it } from 'vitest';
import { formatTiyin, formatTiyinForDisplay, parseTiyin, TIYIN_PER_SOM } from './money.ts';
import { formatMoney } from '../../shared/numbers.ts';

describe('money in tiyin', () => {
  it('parses the API numeric strings into tiyin', () => {
    expect(parseTiyin('1234567.50')).toBe(123_456_750n);
    expect(parseTiyin('1234567.5')).toBe(123_456_750n);
    expect(parseTiyin('1234567')).toBe(123_456_700n);
    expect(parseTiyin('0.01')).toBe(1n);
    expect(parseTiyin('0')).toBe(0n);
    expect(parseTiyin('-12.30')).toBe(-1230n);
    // numeric(18,2)'s largest value, far beyond Number.MAX_SAFE_INTEGER tiyin
    expect(parseTiyin('9999999999999999.99')).toBe(999_999_999_999_999_999n);
    expect(TIYIN_PER_SOM).toBe(100n);
  });

  it('refuses more than 2 decimals (RangeError) and non-numbers (TypeError)', () => {
    expect(() => parseTiyin('1.005')).toThrow(new RangeError('amount has more than 2 decimals: "1.005"'));
    expect(() => parseTiyin('0.001', { name: 'payment' })).toThrow('payment has more than 2 decimals');
    for (const bad of ['', 'abc', '1e5', '1 000.00', '1,50', '.50', '12.', '+1', 'NaN']) {
      expect(() => parseTiyin(bad), bad).toThrow(TypeError);
    }
    expect(() => parseTiyin(12.5 as unknown as string)).toThrow(TypeError);
    expect(() => parseTiyin('-1.00', { allowNegative: false })).toThrow(RangeError);
  });

  it('formats for the API with exactly 2 decimals', () => {
    expect(formatTiyin(123_456_750n)).toBe('1234567.50');
    expect(formatTiyin(1n)).toBe('0.01');
    expect(formatTiyin(0n)).toBe('0.00');
    expect(formatTiyin(-5n)).toBe('-0.05');
    expect(formatTiyin(-1230n)).toBe('-12.30');
    expect(() => formatTiyin(5 as unknown as bigint)).toThrow(TypeError);
  });

  it('formats for display as the screens do: 2 decimals, a comma, no-break space thousands (spec §9)', () => {
    const nb = (t: string) => t.replace(/ /g, '\u00a0');
    expect(formatTiyinForDisplay(123_456_750n)).toBe(nb('1 234 567,50'));
    expect(formatTiyinForDisplay(41_200_000n)).toBe(nb('412 000,00'));
    expect(formatTiyinForDisplay(99_999n)).toBe('999,99');
    expect(formatTiyinForDisplay(100_000n)).toBe(nb('1 000,00'));
    expect(formatTiyinForDisplay(0n)).toBe('0,00');
    expect(formatTiyinForDisplay(-123_450n)).toBe(nb('-1 234,50'));
    expect(formatTiyinForDisplay(99_999_999_999_999n)).toBe(nb('999 999 999 999,99'));
    expect(formatTiyinForDisplay(137_500_000n, 'ru')).toBe(formatMoney('1375000.00', 'ru'));
  });

  it('round-trips', () => {
    for (const s of ['0.00', '0.01', '0.10', '1.00', '-0.01', '999999999999.99', '9999999999999999.99', '123.45']) {
      expect(formatTiyin(parseTiyin(s))).toBe(s);
    }
    // every value from -3.00 to 3.00 in tiyin
    for (let t = -300n; t <= 300n; t++) expect(parseTiyin(formatTiyin(t))).toBe(t);
  });
});
