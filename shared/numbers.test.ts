import { describe, expect, it } from 'vitest';
import {
  NBSP,
  decimalParts,
  excelNumFmt,
  excelValue,
  formatCoordinate,
  formatDecimal,
  formatInteger,
  formatMoney,
  formatNumber,
  formatPercent,
  isDecimalString,
  parseDecimalInput,
  roundCoordinate,
} from './numbers.ts';

/** Tests write plain spaces; the formatter writes no-break ones. */
const sp = (s: string) => s.replace(/ /g, NBSP);

describe('formatNumber', () => {
  it('groups thousands with no-break spaces and writes a decimal comma, in every language', () => {
    for (const lang of ['uz', 'uk', 'ru']) {
      expect(formatNumber('1234567.5', 2, lang)).toBe(sp('1 234 567,50'));
      expect(formatMoney('1503500.50', lang)).toBe(sp('1 503 500,50'));
    }
    expect(formatNumber('1234567.5')).not.toMatch(/ /); // never a breaking space
  });

  it('is exact for decimal strings beyond a float', () => {
    expect(formatMoney('90071992547409.99')).toBe(sp('90 071 992 547 409,99'));
    expect(formatMoney('99999999999999999.995')).toBe(sp('100 000 000 000 000 000,00'));
    expect(formatMoney('123456789012345678901234567890.129')).toBe(sp('123 456 789 012 345 678 901 234 567 890,13'));
    expect(formatMoney('1.005')).toBe('1,01'); // a float would say 1,00
    expect(formatMoney('0.125')).toBe('0,13');
    expect(formatMoney('2.675')).toBe('2,68');
  });

  it('rounds negatives away from zero and never shows minus zero', () => {
    expect(formatMoney('-1234.5')).toBe(sp('-1 234,50'));
    expect(formatMoney('-1.005')).toBe('-1,01');
    expect(formatMoney('-0.00')).toBe('0,00');
    expect(formatMoney('-0.001')).toBe('0,00');
    expect(formatMoney(-0)).toBe('0,00');
    expect(formatMoney('-0.005')).toBe('-0,01');
  });

  it('handles zero, integers as strings, many decimals, numbers and bigints', () => {
    expect(formatMoney('0')).toBe('0,00');
    expect(formatMoney(0)).toBe('0,00');
    expect(formatInteger('5333000')).toBe(sp('5 333 000'));
    expect(formatInteger(5333000)).toBe(sp('5 333 000'));
    expect(formatInteger('999')).toBe('999');
    expect(formatInteger('1000')).toBe(sp('1 000'));
    expect(formatInteger('0005333000')).toBe(sp('5 333 000'));
    expect(formatInteger(2.5)).toBe('3');
    expect(formatMoney('12.3456789012345678')).toBe('12,35');
    expect(formatNumber('12.3456789012345678', 6)).toBe('12,345679');
    expect(formatMoney(0.1 + 0.2)).toBe('0,30');
    expect(formatMoney(1234567.5)).toBe(sp('1 234 567,50'));
    expect(formatMoney(1e21)).toBe(sp('1 000 000 000 000 000 000 000,00'));
    expect(formatMoney(1e-7)).toBe('0,00');
    expect(formatInteger(12345678901234567890n)).toBe(sp('12 345 678 901 234 567 890'));
    expect(formatMoney(' 42 ')).toBe('42,00');
    expect(formatMoney('.5')).toBe('0,50');
  });

  it('is empty for nothing and leaves what is not a number as it is', () => {
    expect(formatMoney(null)).toBe('');
    expect(formatMoney(undefined)).toBe('');
    expect(formatMoney('')).toBe('');
    expect(formatMoney('abc')).toBe('abc');
    expect(formatMoney(Number.NaN)).toBe('NaN');
    expect(formatMoney(Infinity)).toBe('Infinity');
    expect(formatMoney('1.2.3')).toBe('1.2.3');
  });
});

describe('formatDecimal', () => {
  it('keeps at least two decimals and as many more as the value has', () => {
    expect(formatDecimal('10.000000')).toBe('10,00');
    expect(formatDecimal('0.001500')).toBe('0,0015');
    expect(formatDecimal('1234.5')).toBe(sp('1 234,50'));
    expect(formatDecimal('789.113000')).toBe('789,113');
    expect(formatDecimal('12')).toBe('12,00');
    expect(formatDecimal(null)).toBe('');
  });
});

describe('formatPercent and formatCoordinate', () => {
  it('writes a percentage with a no-break space before the sign', () => {
    expect(formatPercent('12.5')).toBe(`12,50${NBSP}%`);
    expect(formatPercent(null)).toBe('');
  });
  it('writes coordinates with six decimals, never a float tail', () => {
    expect(formatCoordinate(41.31110000000001)).toBe('41.311100');
    expect(formatCoordinate(69.27970000000002)).toBe('69.279700');
    expect(formatCoordinate('-0.0000001')).toBe('0.000000');
    expect(formatCoordinate(-12.3456789)).toBe('-12.345679');
    expect(roundCoordinate(41.31110000000001)).toBe(41.3111);
  });
});

describe('parseDecimalInput', () => {
  it('reads a typed or pasted figure back to the decimal string', () => {
    expect(parseDecimalInput(sp('1 234 567,50'))).toBe('1234567.50');
    expect(parseDecimalInput('1 234 567.5')).toBe('1234567.5');
    expect(parseDecimalInput('-12,5')).toBe('-12.5');
    expect(parseDecimalInput('1\u202f000')).toBe('1000');
    expect(parseDecimalInput('1,2,3')).toBe('1,2,3'); // refused by the check, not guessed
    expect(isDecimalString('1234567.50', 2)).toBe(true);
    expect(isDecimalString('1.234', 2)).toBe(false);
  });
});

describe('Excel', () => {
  it('formats cells with the grouped format of their decimals', () => {
    expect(excelNumFmt(2)).toBe('#,##0.00');
    expect(excelNumFmt(0)).toBe('#,##0');
  });
  it('writes a number when Excel keeps it exactly, the formatted figure otherwise', () => {
    expect(excelValue('1503500.50', 2)).toBe(1503500.5);
    expect(excelValue('-0.00', 2)).toBe(0);
    expect(excelValue('1.005', 2)).toBe(1.01);
    expect(excelValue('9999999999999.99', 2)).toBe(9999999999999.99);
    expect(excelValue('90071992547409.99', 2)).toBe(sp('90 071 992 547 409,99'));
    expect(excelValue(null, 2)).toBe(null);
    expect(excelValue('x', 2)).toBe('x');
  });
  it('round-trips every 15-digit value it writes as a number', () => {
    for (const s of ['9999999999999.99', '0.01', '123456789012.34', '-98765432109.87']) {
      const v = excelValue(s, 2) as number;
      expect(formatMoney(v)).toBe(formatMoney(s));
    }
  });
});

describe('decimalParts', () => {
  it('expands exponents exactly', () => {
    expect(decimalParts('1.5e3')).toEqual({ neg: false, int: '1500', frac: '' });
    expect(decimalParts('12345e-2')).toEqual({ neg: false, int: '123', frac: '45' });
    expect(decimalParts('1e-3')).toEqual({ neg: false, int: '0', frac: '001' });
    expect(decimalParts('-')).toBe(null);
  });
});

describe('plain integers', () => {
  it('leaves years, months and identifiers ungrouped', async () => {
    const { isPlainInteger, excelDecimalFmt } = await import('./numbers.ts');
    for (const n of ['year', 'month', 'record_id', 'ordering', 'status', 'plan_year']) expect(isPlainInteger(n)).toBe(true);
    for (const n of ['trees', 'trees_planned', 'capacity', 'count', 'apartments']) expect(isPlainInteger(n)).toBe(false);
    expect(excelDecimalFmt(2, 6)).toBe('#,##0.00####');
    expect(excelDecimalFmt(2, 2)).toBe('#,##0.00');
  });
});

describe('sumDecimals', () => {
  it('adds exactly', async () => {
    const { sumDecimals } = await import('./numbers.ts');
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['90071992547409.99', '0.01'])).toBe('90071992547410.00');
    expect(sumDecimals(['-1.5', '1', null, 2])).toBe('1.5');
    expect(sumDecimals([])).toBe('0');
  });
});
