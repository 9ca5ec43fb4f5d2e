import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDecimal,
  formatNumber,
  formatPassport,
  formatPhone,
  isMasked,
  parsePassport,
  parsePhone,
  text3,
  todayTashkent,
  truncate,
} from './format';

describe('formats of the spec', () => {
  // numbers: shared/numbers.ts, tested there in depth; here only that the back-office uses it
  it('decimals: at least two decimals, more when they have them', () => {
    expect(formatDecimal('10.000000')).toBe('10,00');
    expect(formatDecimal('0.001500')).toBe('0,0015');
    expect(formatDecimal('1234.5')).toBe('1\u00a0234,50');
    expect(formatDecimal('789.113000')).toBe('789,113');
    expect(formatDecimal('12')).toBe('12,00');
  });

  it('numbers: two decimals, space thousands, exact on decimal strings', () => {
    expect(formatNumber('1234567.5')).toBe('1\u00a0234\u00a0567,50');
    expect(formatNumber(1234567.5)).toBe('1\u00a0234\u00a0567,50');
    expect(formatNumber('412000.00')).toBe('412\u00a0000,00');
    expect(formatNumber('0')).toBe('0,00');
    expect(formatNumber('-1234.5')).toBe('-1\u00a0234,50');
    expect(formatNumber('99999999999999999.995')).toBe('100\u00a0000\u00a0000\u00a0000\u00a0000\u00a0000,00');
    expect(formatNumber('1.005')).toBe('1,01');
    expect(formatNumber('-0.001')).toBe('0,00');
    expect(formatNumber(206, 0)).toBe('206');
    expect(formatNumber(null)).toBe('');
    expect(formatNumber('abc')).toBe('abc');
  });

  it('phones: (XX) XXX-XX-XX over nine digits', () => {
    expect(formatPhone('901234567')).toBe('(90) 123-45-67');
    expect(formatPhone('9012')).toBe('(90) 12');
    expect(formatPhone('9')).toBe('(9');
    expect(parsePhone('(90) 123-45-67')).toBe('901234567');
    expect(parsePhone('+998 90 123 45 67')).toBe('901234567');
    expect(parsePhone('90123456789')).toBe('901234567');
  });

  it('a personal value the server masked is shown and sent back as it came (docs/personal-data.md)', () => {
    expect(isMasked('AA *****67')).toBe(true);
    expect(isMasked('AA1234567')).toBe(false);
    expect(formatPhone('+998 ** *** ** 67')).toBe('+998 ** *** ** 67');
    expect(parsePhone('+998 ** *** ** 67')).toBe('+998 ** *** ** 67');
    expect(formatPassport('AA *****67')).toBe('AA *****67');
    expect(parsePassport('AA *****67')).toBe('AA *****67');
    expect(formatDate('1985-**-**')).toBe('1985-**-**');
  });

  it('passports: two letters, a space, seven digits', () => {
    expect(formatPassport('AA1234567')).toBe('AA 1234567');
    expect(parsePassport('aa 1234567')).toBe('AA1234567');
  });

  it('dates in Tashkent', () => {
    expect(formatDate('2024-03-05')).toBe('05.03.2024');
    expect(formatDateTime('2024-03-04T20:07:00Z')).toBe('05.03.2024 01:07');
    expect(todayTashkent(new Date('2024-12-31T19:30:00Z'))).toBe('2025-01-01');
  });

  it('three-language text falls back to Uzbek Latin', () => {
    const t = { uz: 'Oltinkoʻl tumani', uk: 'Олтинкўл тумани', ru: 'Алтынкульский район' };
    expect(text3(t, 'uk')).toBe('Олтинкўл тумани');
    expect(text3({ uz: 'Faqat lotin', uk: null, ru: '' }, 'ru')).toBe('Faqat lotin');
    expect(text3(null, 'uz')).toBe('');
  });

  it('long text ends with an ellipsis', () => {
    expect(truncate('a'.repeat(100), 10)).toBe(`${'a'.repeat(9)}…`);
    expect(truncate('short', 10)).toBe('short');
  });
});
