import { describe, expect, it } from 'vitest';
import { calculateCompensation, type Ingredient } from './compensation.ts';
import { formatTiyin, parseTiyin } from './money.ts';

const BV_2025 = parseTiyin('412000.00'); // base value from 2025-08-01
const BV_2022 = parseTiyin('300000.00'); // from 2022-06-01

describe('compensation payment', () => {
  it('worked example: two ingredients, coefficients, one rounding at the end', () => {
    const ingredients = [
      // 12.345678 × 0.15 = 1.8518517; × 1.2 = 2.22222204; × 1.5 = 3.33333306 base values
      // × 412 000 = 1 373 333.22072 soʻm
      { id: 'NO2', mass: '12.345678', norm: '0.15', coefficients: ['1.2', '1.5'] },
      // 0.000001 × 2.5 = 0.0000025 base values × 412 000 = 1.03 soʻm (no coefficients = 1)
      { id: 'dust', mass: '0.000001', norm: '2.5' },
    ];
    const r = calculateCompensation(ingredients, BV_2025);
    expect(r.lines.map((l) => [l.ingredient.id, l.multiples, l.exact, formatTiyin(l.amount)])).toEqual([
      ['NO2', '3.33333306', '1373333.22072', '1373333.22'],
      ['dust', '0.0000025', '1.03', '1.03'],
    ]);
    // Σ = 1 373 334.25072 soʻm → 1 373 334.25 (the third decimal, 0, rounds down)
    expect(r.totalMultiples).toBe('3.33333556');
    expect(r.exactTotal).toBe('1373334.25072');
    expect(formatTiyin(r.amount)).toBe('1373334.25');
    expect(r.baseValue).toBe(BV_2025);
    expect(r.lines[0].index).toBe(0);
  });

  it('rounds half-up once, where floating point gets it wrong', () => {
    // 2.346125 × 0.0036 = 0.00844605 base values × 300 000 = 2 533.815 soʻm exactly → 2 533.82.
    // In floating point the product is 2533.8149999999996, which would round to 2 533.81.
    const r = calculateCompensation([{ mass: '2.346125', norm: '0.0036' }], BV_2022);
    expect(r.exactTotal).toBe('2533.815');
    expect(formatTiyin(r.amount)).toBe('2533.82');
    expect(Math.round(2.346125 * 0.0036 * 300000 * 100) / 100).toBe(2533.81); // the float trap being avoided
  });

  it('rounds the total, not the lines', () => {
    // three lines of 0.000001 × 0.01 × 300 000 = 0.003 soʻm: each line rounds to 0.00 on its own,
    // the total 0.009 soʻm rounds to 0.01
    const tiny = { mass: '0.000001', norm: '0.01' };
    const r = calculateCompensation([tiny, tiny, tiny], BV_2022);
    expect(r.lines.map((l) => l.amount)).toEqual([0n, 0n, 0n]);
    expect(r.exactTotal).toBe('0.009');
    expect(r.amount).toBe(1n);
    // two lines of 0.00018 × 0.0001 × 300 000 = 0.0054 soʻm: rounded alone each is 0.01 (sum 0.02),
    // but the payment is 0.0108 → 0.01
    const line = { mass: '0.00018', norm: '0.0001', coefficients: ['1'] };
    const q = calculateCompensation([line, line], BV_2022);
    expect(q.lines.map((l) => [l.exact, l.amount])).toEqual([
      ['0.0054', 1n],
      ['0.0054', 1n],
    ]);
    expect(q.exactTotal).toBe('0.0108');
    expect(q.amount).toBe(1n);
  });

  it('treats missing or empty coefficients as 1 and multiplies all given ones', () => {
    const base = { mass: '10', norm: '0.5' }; // 5 base values
    expect(calculateCompensation([base], BV_2025).amount).toBe(parseTiyin('2060000.00')); // 5 × 412 000
    expect(calculateCompensation([{ ...base, coefficients: [] }], BV_2025).amount).toBe(parseTiyin('2060000.00'));
    expect(calculateCompensation([{ ...base, coefficients: null }], BV_2025).amount).toBe(parseTiyin('2060000.00'));
    expect(calculateCompensation([{ ...base, coefficients: ['2', '0.5', '3'] }], BV_2025).amount).toBe(parseTiyin('6180000.00'));
    expect(calculateCompensation([{ ...base, coefficients: ['0'] }], BV_2025).amount).toBe(0n);
  });

  it('is exact for large masses', () => {
    // (10^6 − 10^-6) × (10^3 − 10^-6) = 999 999 998.999000000001 base values;
    // × 1.000001 = 1 000 000 998.998998999001000001; × 300 000 = 300 000 299 699 699.6997003000003 soʻm
    const r = calculateCompensation([{ mass: '999999.999999', norm: '999.999999', coefficients: ['1.000001'] }], BV_2022);
    expect(r.totalMultiples).toBe('1000000998.998998999001000001');
    expect(r.exactTotal).toBe('300000299699699.6997003000003');
    expect(formatTiyin(r.amount)).toBe('300000299699699.70');
  });

  it('gives 0 for a report with no ingredients', () => {
    const r = calculateCompensation([], BV_2025);
    expect(r).toEqual({ baseValue: BV_2025, lines: [], totalMultiples: '0', exactTotal: '0', amount: 0n });
  });

  it('refuses bad input with clear errors', () => {
    const ok: Ingredient = { mass: '1', norm: '1' };
    expect(() => calculateCompensation([ok, { mass: '1.0000001', norm: '1' }], BV_2025)).toThrow(
      new RangeError('ingredient 1 mass has more than 6 decimals: "1.0000001"'),
    );
    expect(() => calculateCompensation([{ mass: '-1', norm: '1' }], BV_2025)).toThrow(RangeError);
    expect(() => calculateCompensation([{ mass: '1', norm: '1', coefficients: ['-2'] }], BV_2025)).toThrow(
      'ingredient 0 coefficient 0 must not be negative',
    );
    expect(() => calculateCompensation([{ mass: '1,5', norm: '1' }], BV_2025)).toThrow(TypeError);
    expect(() => calculateCompensation([{ mass: 1 as unknown as string, norm: '1' }], BV_2025)).toThrow(TypeError);
    expect(() => calculateCompensation([ok], 0n)).toThrow(RangeError);
    expect(() => calculateCompensation([ok], 412000 as unknown as bigint)).toThrow(TypeError);
  });
});
