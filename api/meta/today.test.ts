import { describe, expect, it } from 'vitest';
import { currentYearTashkent, datedFileName, isIsoDate, todayTashkent } from './today.ts';

describe("Tashkent's calendar", () => {
  it('turns the day at 19:00 UTC', () => {
    expect(todayTashkent(new Date('2026-03-01T18:59:59Z'))).toBe('2026-03-01');
    expect(todayTashkent(new Date('2026-03-01T19:00:00Z'))).toBe('2026-03-02');
    expect(currentYearTashkent(new Date('2026-12-31T19:30:00Z'))).toBe(2027);
  });
  it('knows real dates', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-13-01')).toBe(false);
    expect(isIsoDate('24-1-1')).toBe(false);
    // years 1000–9999 only: PostgreSQL has no year 0000, five digits are not a date
    expect(isIsoDate('0000-01-01')).toBe(false);
    expect(isIsoDate('0999-12-31')).toBe(false);
    expect(isIsoDate('1000-01-01')).toBe(true);
    expect(isIsoDate('9999-12-31')).toBe(true);
    expect(isIsoDate('10000-01-01')).toBe(false);
  });
});

describe('datedFileName', () => {
  it("dates a file by Tashkent's day: an export at 20:00 UTC on 1 December is the 2nd's", () => {
    expect(datedFileName('payments', 'xlsx', new Date('2026-12-01T20:00:00Z'))).toBe('payments-2026-12-02.xlsx');
    expect(datedFileName('payments', 'xlsx', new Date('2026-12-01T18:59:59Z'))).toBe('payments-2026-12-01.xlsx');
    expect(datedFileName('offences', 'geojson', new Date('2026-12-31T19:00:00Z'))).toBe('offences-2027-01-01.geojson');
  });
});
