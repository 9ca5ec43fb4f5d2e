import { describe, expect, it } from 'vitest';
import type { BaseValueRow } from './base-value.ts';
import {
  checkFineMultiple,
  DEFAULT_LATE_REPORT_FINE_READING,
  fineAmount,
  fineOn,
  lateReportFine,
  lateReportFineMultiple,
  LATE_REPORT_FINE_READINGS,
} from './fines.ts';
import { formatTiyin, parseTiyin } from './money.ts';

const ROWS: BaseValueRow[] = [
  { start_date: '2025-08-01', amount: '412000.00' },
  { start_date: '2016-10-01', amount: '149775.00' },
  { start_date: '2024-10-01', amount: '375000.00' },
  { start_date: '2017-12-01', amount: '172240.00' },
];

describe('fines as multiples of the base value', () => {
  it('multiplies exactly and rounds half-up to tiyin', () => {
    expect(fineAmount('4', parseTiyin('412000.00'))).toBe(parseTiyin('1648000.00'));
    expect(fineAmount('0.25', parseTiyin('149775.00'))).toBe(parseTiyin('37443.75')); // 149 775 / 4
    expect(fineAmount('12.5', parseTiyin('375000.00'))).toBe(parseTiyin('4687500.00'));
    expect(fineAmount('0.5', 3n)).toBe(2n); // 1.5 tiyin → 2
    expect(fineAmount('0.01', 149n)).toBe(1n); // 1.49 tiyin → 1
    expect(fineAmount('0', parseTiyin('412000.00'))).toBe(0n);
    expect(() => fineAmount('0.125', 100n)).toThrow(new RangeError('multiple has more than 2 decimals: "0.125"'));
    expect(() => fineAmount('-1', 100n)).toThrow(RangeError);
    expect(() => fineAmount('four', 100n)).toThrow(TypeError);
    expect(() => fineAmount('1', 0n)).toThrow(RangeError);
    expect(() => fineAmount('1', 100 as unknown as bigint)).toThrow(TypeError);
  });

  it('uses the base value in force on the offence date', () => {
    // 10 × 375 000 on 31 Jul 2025, 10 × 412 000 from 1 Aug 2025
    expect(fineOn('10', ROWS, '2025-07-31')).toEqual({
      amount: parseTiyin('3750000.00'),
      multiple: '10',
      baseValue: parseTiyin('375000.00'),
      baseValueSince: '2024-10-01',
    });
    expect(formatTiyin(fineOn('10', ROWS, '2025-08-01').amount)).toBe('4120000.00');
    expect(formatTiyin(fineOn('10', ROWS, '2017-11-30').amount)).toBe('1497750.00');
    expect(() => fineOn('10', ROWS, '2016-01-01')).toThrow('no base value in force on 2016-01-01');
  });

  it("warns when a multiple is outside the article's interval, ends included", () => {
    const article = { min_multiple: '10.00', max_multiple: '30' };
    expect(checkFineMultiple('10', article)).toBeNull();
    expect(checkFineMultiple('30.00', article)).toBeNull();
    expect(checkFineMultiple('17.5', article)).toBeNull();
    expect(checkFineMultiple('9.99', article)).toEqual({
      key: 'validation.interval',
      args: { min: '10', max: '30' },
      multiple: '9.99',
      side: 'below',
    });
    expect(checkFineMultiple('30.01', article)).toEqual({
      key: 'validation.interval',
      args: { min: '10', max: '30' },
      multiple: '30.01',
      side: 'above',
    });
    expect(checkFineMultiple('5', { min_multiple: '5', max_multiple: '5' })).toBeNull();
    expect(() => checkFineMultiple('5', { min_multiple: '30', max_multiple: '10' })).toThrow('fine interval is reversed: min 30 > max 10');
    expect(() => checkFineMultiple('5', { min_multiple: 'x', max_multiple: '10' })).toThrow(TypeError);
  });
});

describe('late report fine', () => {
  it('defaults to four times the base value', () => {
    expect(DEFAULT_LATE_REPORT_FINE_READING).toBe('four_times');
    expect(lateReportFineMultiple()).toBe('4');
    expect(formatTiyin(lateReportFine(ROWS, '2025-09-01').amount)).toBe('1648000.00'); // 4 × 412 000
    expect(formatTiyin(lateReportFine(ROWS, '2025-04-16').amount)).toBe('1500000.00'); // 4 × 375 000
  });

  it('offers the second reading, "four times less" = a quarter', () => {
    expect(LATE_REPORT_FINE_READINGS).toEqual({ four_times: '4', four_times_less: '0.25' });
    expect(lateReportFineMultiple({ reading: 'four_times_less' })).toBe('0.25');
    expect(formatTiyin(lateReportFine(ROWS, '2025-09-01', { reading: 'four_times_less' }).amount)).toBe('103000.00'); // 412 000 / 4
    expect(formatTiyin(lateReportFine(ROWS, '2017-01-16', { reading: 'four_times_less' }).amount)).toBe('37443.75'); // 149 775 / 4
  });

  it('takes any configured multiple, which wins over the reading', () => {
    expect(lateReportFineMultiple({ multiple: '2', reading: 'four_times_less' })).toBe('2');
    expect(lateReportFine(ROWS, '2025-09-01', { multiple: '1.5' }).amount).toBe(parseTiyin('618000.00'));
    expect(() => lateReportFineMultiple({ multiple: '1.555' })).toThrow(RangeError);
    expect(() => lateReportFineMultiple({ reading: 'twice' as never })).toThrow(RangeError);
    expect(() => lateReportFineMultiple({ reading: 'toString' as never })).toThrow(RangeError);
  });
});
