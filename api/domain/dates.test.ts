import { describe, expect, it } from 'vitest';
import { addDays, assertIsoDate, dayNumber, daysBetween, daysInMonth, fromDayNumber, isLeapYear, isoDate } from './dates.ts';

describe('calendar dates', () => {
  it('checks dates', () => {
    expect(() => assertIsoDate('2024-02-29')).not.toThrow();
    expect(() => assertIsoDate('2023-02-29', 'dueDate')).toThrow(
      new RangeError('dueDate is not a real date written YYYY-MM-DD: "2023-02-29"'),
    );
    expect(() => assertIsoDate('2024-1-5')).toThrow(RangeError);
    expect(() => assertIsoDate('2024-01-05T00:00:00Z')).toThrow(RangeError);
    expect(() => assertIsoDate(20240105 as unknown as string)).toThrow(TypeError);
  });

  it('counts days across month ends, leap days and years', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(fromDayNumber(0)).toBe('1970-01-01');
    expect(fromDayNumber(-1)).toBe('1969-12-31');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(addDays('2024-03-31', 15)).toBe('2024-04-15');
    expect(daysBetween('2023-12-31', '2024-01-01')).toBe(1);
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(daysBetween('2023-01-01', '2024-01-01')).toBe(365);
    expect(daysBetween('2024-03-01', '2024-02-28')).toBe(-2);
    expect(() => addDays('2024-01-01', 0.5)).toThrow(RangeError);
  });

  it('knows leap years and month lengths', () => {
    expect([1900, 2000, 2023, 2024, 2100].map(isLeapYear)).toEqual([false, true, false, true, false]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2023, 2)).toBe(28);
    expect(daysInMonth(2025, 4)).toBe(30);
    expect(daysInMonth(2025, 12)).toBe(31);
    expect(() => daysInMonth(2025, 13)).toThrow(RangeError);
    expect(isoDate(2025, 3, 9)).toBe('2025-03-09');
  });
});
