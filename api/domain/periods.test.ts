import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DAYS_AFTER_END,
  isReportLate,
  periodFromCode,
  periodRange,
  reportDeadline,
  reportLateness,
  type ReportPeriod,
} from './periods.ts';

const q = (year: number, quarter: 1 | 2 | 3 | 4): ReportPeriod => ({ kind: 'quarter', year, quarter });
const m = (year: number, month: number): ReportPeriod => ({ kind: 'month', year, month });
const y = (year: number): ReportPeriod => ({ kind: 'year', year });

describe('report periods', () => {
  it('know their first and last days', () => {
    expect([1, 2, 3, 4].map((n) => periodRange(q(2024, n as 1 | 2 | 3 | 4)))).toEqual([
      { start: '2024-01-01', end: '2024-03-31' },
      { start: '2024-04-01', end: '2024-06-30' },
      { start: '2024-07-01', end: '2024-09-30' },
      { start: '2024-10-01', end: '2024-12-31' },
    ]);
    expect(periodRange(m(2024, 2))).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    expect(periodRange(m(2023, 2))).toEqual({ start: '2023-02-01', end: '2023-02-28' });
    expect(periodRange(m(2025, 4))).toEqual({ start: '2025-04-01', end: '2025-04-30' });
    expect(periodRange(m(2025, 12))).toEqual({ start: '2025-12-01', end: '2025-12-31' });
    expect(periodRange(y(2025))).toEqual({ start: '2025-01-01', end: '2025-12-31' });
  });

  it("come from the report types' period codes", () => {
    expect(periodFromCode('q1', 2025)).toEqual(q(2025, 1));
    expect(periodFromCode('q4', 2025)).toEqual(q(2025, 4));
    expect(periodFromCode('month', 2025, 7)).toEqual(m(2025, 7));
    expect(periodFromCode('year', 2025)).toEqual(y(2025));
    expect(() => periodFromCode('month', 2025)).toThrow(RangeError);
    expect(() => periodFromCode('month', 2025, 13)).toThrow('month must be 1–12, got 13');
    expect(() => periodFromCode('q5' as never, 2025)).toThrow(RangeError);
    expect(() => periodFromCode('year', 2025.5)).toThrow(RangeError);
    expect(() => periodRange({ kind: 'quarter', year: 2025, quarter: 0 as never })).toThrow(RangeError);
    expect(() => periodRange({ kind: 'week', year: 2025 } as never)).toThrow(RangeError);
  });

  it('are due 15 days after their end unless told otherwise', () => {
    expect(DEFAULT_DAYS_AFTER_END).toBe(15);
    expect(reportDeadline(q(2024, 1))).toBe('2024-04-15'); // 31 Mar + 15
    expect(reportDeadline(q(2024, 2))).toBe('2024-07-15'); // 30 Jun + 15
    expect(reportDeadline(q(2024, 4))).toBe('2025-01-15'); // across the year end
    expect(reportDeadline(m(2024, 2))).toBe('2024-03-15'); // 29 Feb + 15
    expect(reportDeadline(m(2023, 2))).toBe('2023-03-15'); // 28 Feb + 15
    expect(reportDeadline(y(2025))).toBe('2026-01-15');
    expect(reportDeadline(m(2023, 2), 30)).toBe('2023-03-30');
    expect(reportDeadline(m(2024, 1), 0)).toBe('2024-01-31');
    expect(reportDeadline(q(2024, 3), 45)).toBe('2024-11-14'); // 30 Sep + 45: 31 Oct is +31, then 14 more
    expect(() => reportDeadline(q(2024, 1), -1)).toThrow(RangeError);
    expect(() => reportDeadline(q(2024, 1), 1.5)).toThrow(RangeError);
  });

  it('are late from the day after the deadline', () => {
    expect(reportLateness(q(2025, 1), { submittedOn: '2025-04-15' })).toEqual({
      deadline: '2025-04-15',
      on: '2025-04-15',
      late: false,
      daysLate: 0,
    });
    expect(reportLateness(q(2025, 1), { submittedOn: '2025-04-16' })).toEqual({
      deadline: '2025-04-15',
      on: '2025-04-16',
      late: true,
      daysLate: 1,
    });
    expect(reportLateness(q(2025, 1), { submittedOn: '2025-03-20' }).late).toBe(false); // early
    expect(reportLateness(q(2024, 4), { submittedOn: '2025-02-01' }).daysLate).toBe(17); // 16 – 31 Jan + 1 Feb
    expect(isReportLate(m(2024, 2), { submittedOn: '2024-03-16' })).toBe(true);
    expect(isReportLate(m(2024, 2), { submittedOn: '2024-03-16', daysAfterEnd: 20 })).toBe(false);
    expect(() => isReportLate(q(2025, 1), { submittedOn: '16.04.2025' })).toThrow(RangeError);
  });

  it("judges an unsubmitted report by Tashkent's today", () => {
    // the deadline of Q1 2025 is 15 Apr; Tashkent's 16 Apr begins at 19:00 UTC on 15 Apr
    expect(reportLateness(q(2025, 1), { now: new Date('2025-04-15T18:59:59Z') })).toMatchObject({ on: '2025-04-15', late: false });
    expect(reportLateness(q(2025, 1), { now: new Date('2025-04-15T19:00:00Z') })).toMatchObject({
      on: '2025-04-16',
      late: true,
      daysLate: 1,
    });
    expect(isReportLate(q(2025, 1), { submittedOn: null, now: new Date('2025-05-01T00:00:00Z') })).toBe(true);
  });
});
