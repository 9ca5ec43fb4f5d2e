import { describe, expect, it } from 'vitest';
import { addDays } from './dates.ts';
import { formatTiyin, parseTiyin } from './money.ts';
import { calculatePenya, dailyRateFraction, firstPenyaDay, overdueDays, type PenyaPayment } from './penya.ts';

const t = (s: string) => parseTiyin(s);
const pay = (date: string, amount: string): PenyaPayment => ({ date, amount: t(amount) });
const RATE = '0.033'; // % a day: 330 soʻm a day on 1 000 000 soʻm

describe('overdue days: from the day after the due date to the payment day inclusive', () => {
  it('counts across month ends, leap days and years', () => {
    expect(overdueDays('2024-02-27', '2024-03-01')).toBe(3); // 28, 29 Feb, 1 Mar
    expect(overdueDays('2023-02-27', '2023-03-01')).toBe(2); // 28 Feb, 1 Mar
    expect(overdueDays('2024-01-31', '2024-03-01')).toBe(30); // 29 days of Feb + 1 Mar
    expect(overdueDays('2023-01-31', '2023-03-01')).toBe(29);
    expect(overdueDays('2024-04-30', '2024-05-01')).toBe(1);
    expect(overdueDays('2023-12-31', '2024-01-01')).toBe(1);
    expect(overdueDays('2024-03-01', '2024-03-01')).toBe(0); // paid on the due date
    expect(overdueDays('2024-03-01', '2024-02-15')).toBe(0); // paid early: never negative
    expect(firstPenyaDay('2024-02-28')).toBe('2024-02-29');
    expect(firstPenyaDay('2023-12-31')).toBe('2024-01-01');
  });
});

describe('penya with partial payments', () => {
  it('worked example in a leap year', () => {
    // 1 000 000.00 due 2024-02-27 at 0.033 % a day (330.00 a day);
    //   28 Feb – 5 Mar: 7 days × 330.00 = 2 310.00 (the payment day 5 Mar counts on the old debt)
    //   400 000.00 paid 5 Mar → 600 000.00 from 6 Mar: 6–10 Mar: 5 days × 198.00 = 990.00
    //   600 000.00 paid 10 Mar → nothing left.  Penya = 3 300.00
    const r = calculatePenya({
      debt: t('1000000.00'),
      dueDate: '2024-02-27',
      rate: RATE,
      asOf: '2024-03-31',
      payments: [pay('2024-03-10', '600000.00'), pay('2024-03-05', '400000.00')], // any order
    });
    expect(r.segments).toEqual([
      { from: '2024-02-28', to: '2024-03-05', days: 7, outstanding: t('1000000.00'), amount: t('2310.00') },
      { from: '2024-03-06', to: '2024-03-10', days: 5, outstanding: t('600000.00'), amount: t('990.00') },
    ]);
    expect(formatTiyin(r.amount)).toBe('3300.00');
    expect(r).toMatchObject({ asOf: '2024-03-31', days: 12, outstanding: 0n, overpaid: 0n });
  });

  it('the same in a non-leap year has one day less', () => {
    // 28 Feb – 5 Mar 2023 = 6 days × 330.00 = 1 980.00; + 990.00 = 2 970.00
    const r = calculatePenya({
      debt: t('1000000.00'),
      dueDate: '2023-02-27',
      rate: RATE,
      asOf: '2023-03-31',
      payments: [pay('2023-03-05', '400000.00'), pay('2023-03-10', '600000.00')],
    });
    expect(r.days).toBe(11);
    expect(formatTiyin(r.amount)).toBe('2970.00');
  });

  it('crosses a year boundary', () => {
    // 500 000.00 due 2023-12-25, paid 2024-01-05: 26–31 Dec (6) + 1–5 Jan (5) = 11 days × 165.00 = 1 815.00
    const r = calculatePenya({
      debt: t('500000.00'),
      dueDate: '2023-12-25',
      rate: RATE,
      asOf: '2024-02-01',
      payments: [pay('2024-01-05', '500000.00')],
    });
    expect(r.days).toBe(11);
    expect(formatTiyin(r.amount)).toBe('1815.00');
  });

  it('crosses month ends in leap and non-leap Februaries', () => {
    // 100 000.00 at 0.033 % = 33.00 a day; due 31 Jan, paid 1 Mar: 30 days in 2024, 29 in 2023
    const leap = calculatePenya({ debt: t('100000.00'), dueDate: '2024-01-31', rate: RATE, asOf: '2024-03-01' });
    const common = calculatePenya({ debt: t('100000.00'), dueDate: '2023-01-31', rate: RATE, asOf: '2023-03-01' });
    expect([leap.days, formatTiyin(leap.amount)]).toEqual([30, '990.00']);
    expect([common.days, formatTiyin(common.amount)]).toEqual([29, '957.00']);
    // due 28 Feb: the next day is 29 Feb in 2024 and 1 Mar in 2023
    expect(calculatePenya({ debt: t('100000.00'), dueDate: '2024-02-28', rate: RATE, asOf: '2024-02-29' }).segments[0].from).toBe(
      '2024-02-29',
    );
    expect(calculatePenya({ debt: t('100000.00'), dueDate: '2023-02-28', rate: RATE, asOf: '2023-03-01' }).segments[0]).toMatchObject({
      from: '2023-03-01',
      days: 1,
    });
    // unpaid and still running: counted up to asOf inclusive
    expect(calculatePenya({ debt: t('100000.00'), dueDate: '2024-04-30', rate: RATE, asOf: '2024-05-01' }).amount).toBe(t('33.00'));
  });

  it('lowers the debt by payments made on or before the due date', () => {
    // 250 000.00 paid early → 750 000.00 overdue from 28 Feb to 7 Mar 2024 = 9 days × 247.50 = 2 227.50;
    // the 10 Mar payment is after asOf and ignored
    const r = calculatePenya({
      debt: t('1000000.00'),
      dueDate: '2024-02-27',
      rate: RATE,
      asOf: '2024-03-07',
      payments: [pay('2024-02-20', '100000.00'), pay('2024-02-27', '150000.00'), pay('2024-03-10', '750000.00')],
    });
    expect(r.segments).toEqual([{ from: '2024-02-28', to: '2024-03-07', days: 9, outstanding: t('750000.00'), amount: t('2227.50') }]);
    expect(r.amount).toBe(t('2227.50'));
    expect(r.outstanding).toBe(t('750000.00'));
  });

  it('gives nothing for zero days, a paid-on-time debt or a zero debt', () => {
    const base = { debt: t('1000.00'), dueDate: '2024-03-01', rate: RATE };
    expect(calculatePenya({ ...base, asOf: '2024-03-01' })).toEqual({
      asOf: '2024-03-01',
      days: 0,
      segments: [],
      amount: 0n,
      outstanding: t('1000.00'),
      overpaid: 0n,
    });
    expect(calculatePenya({ ...base, asOf: '2024-02-01' }).amount).toBe(0n); // before the due date
    expect(calculatePenya({ ...base, asOf: '2024-12-31', payments: [pay('2024-03-01', '1000.00')] }).amount).toBe(0n);
    expect(calculatePenya({ ...base, debt: 0n, asOf: '2024-12-31' }).amount).toBe(0n);
    expect(calculatePenya({ ...base, rate: '0', asOf: '2024-12-31' }).amount).toBe(0n);
  });

  it('handles several payments on one day and overpayment', () => {
    // 1 000.00 due 10 Jan; 300.00 and 700.00 both on 12 Jan: 11–12 Jan = 2 days × 0.33 = 0.66
    const r = calculatePenya({
      debt: t('1000.00'),
      dueDate: '2024-01-10',
      rate: RATE,
      asOf: '2024-01-31',
      payments: [pay('2024-01-12', '300.00'), pay('2024-01-12', '700.00')],
    });
    expect([r.days, r.amount, r.outstanding]).toEqual([2, 66n, 0n]);
    // 100.00 owed, 150.00 paid on 1 Mar: 1 day on 100.00, then 50.00 overpaid
    const o = calculatePenya({
      debt: t('100.00'),
      dueDate: '2024-02-29',
      rate: '1',
      asOf: '2024-03-31',
      payments: [pay('2024-03-01', '150.00')],
    });
    expect([o.days, o.amount, o.outstanding, o.overpaid]).toEqual([1, t('1.00'), 0n, t('50.00')]);
  });

  it('rounds the total once, half away from zero', () => {
    // 123.45 × 0.033 % × 10 days = 12 345 × 0.00033 × 10 = 40.7385 tiyin → 41
    expect(calculatePenya({ debt: t('123.45'), dueDate: '2024-01-01', rate: RATE, asOf: '2024-01-11' }).amount).toBe(41n);
    // 0.50 at 1 % for 1 day = 0.5 tiyin → 1;  0.49 → 0.49 tiyin → 0
    expect(calculatePenya({ debt: t('0.50'), dueDate: '2024-01-01', rate: '1', asOf: '2024-01-02' }).amount).toBe(1n);
    expect(calculatePenya({ debt: t('0.49'), dueDate: '2024-01-01', rate: '1', asOf: '2024-01-02' }).amount).toBe(0n);
    // 0.60 for a day (0.6 tiyin), 0.10 paid that day, 0.50 the next day (0.5 tiyin):
    // segments rounded alone 1 + 1, but the penya is 1.1 tiyin → 1
    const r = calculatePenya({
      debt: t('0.60'),
      dueDate: '2024-01-01',
      rate: '1',
      asOf: '2024-01-03',
      payments: [pay('2024-01-02', '0.10'), pay('2024-01-03', '0.50')],
    });
    expect(r.segments.map((s) => s.amount)).toEqual([1n, 1n]);
    expect(r.amount).toBe(1n);
  });

  it('takes a rate per a number of days, exactly', () => {
    // 12 % a year on 365 days: 365 000.00 × 0.12 / 365 × 10 days = 1 200.00
    expect(
      calculatePenya({ debt: t('365000.00'), dueDate: '2025-01-01', rate: { percent: '12', perDays: 365 }, asOf: '2025-01-11' }).amount,
    ).toBe(t('1200.00'));
    // 1 000.00 × 0.12 / 365 for 1 day = 32.876… tiyin → 33
    expect(
      calculatePenya({ debt: t('1000.00'), dueDate: '2025-01-01', rate: { percent: '12', perDays: 365 }, asOf: '2025-01-02' }).amount,
    ).toBe(33n);
    // 1/300 of 14 % a day on 300 000.00 for 30 days = 300 000 × 0.14 / 300 × 30 = 4 200.00
    expect(
      calculatePenya({ debt: t('300000.00'), dueDate: '2025-01-01', rate: { percent: '14', perDays: 300 }, asOf: '2025-01-31' }).amount,
    ).toBe(t('4200.00'));
    expect(dailyRateFraction('0.033')).toEqual({ numerator: 33n, denominator: 100_000n });
    expect(dailyRateFraction({ percent: '12', perDays: 365 })).toEqual({ numerator: 12n, denominator: 36_500n });
  });

  it("defaults asOf to Tashkent's today", () => {
    // 1 000 000.00 due 29 Feb 2024. At 18:59:59 UTC on 5 Mar it is still 5 Mar in Tashkent: 5 days;
    // at 19:00 UTC it is 6 Mar: 6 days
    const input = { debt: t('1000000.00'), dueDate: '2024-02-29', rate: RATE };
    expect(calculatePenya({ ...input, now: new Date('2024-03-05T18:59:59Z') })).toMatchObject({
      asOf: '2024-03-05',
      days: 5,
      amount: t('1650.00'),
    });
    expect(calculatePenya({ ...input, now: new Date('2024-03-05T19:00:00Z') })).toMatchObject({
      asOf: '2024-03-06',
      days: 6,
      amount: t('1980.00'),
    });
  });

  it('refuses bad input', () => {
    const ok = { debt: t('1.00'), dueDate: '2024-01-01', rate: RATE, asOf: '2024-02-01' };
    expect(() => calculatePenya({ ...ok, debt: -1n })).toThrow(RangeError);
    expect(() => calculatePenya({ ...ok, debt: 100 as unknown as bigint })).toThrow(TypeError);
    expect(() => calculatePenya({ ...ok, dueDate: '2023-02-29' })).toThrow(
      new RangeError('dueDate is not a real date written YYYY-MM-DD: "2023-02-29"'),
    );
    expect(() => calculatePenya({ ...ok, asOf: '2024/02/01' })).toThrow(RangeError);
    expect(() => calculatePenya({ ...ok, payments: [{ date: '2024-01-05', amount: 0n }] })).toThrow('payment 0 amount must be positive');
    expect(() => calculatePenya({ ...ok, payments: [{ date: '2024-13-05', amount: 1n }] })).toThrow(RangeError);
    expect(() => calculatePenya({ ...ok, rate: '-0.033' })).toThrow(RangeError);
    expect(() => calculatePenya({ ...ok, rate: '0.0333333' })).toThrow(RangeError);
    expect(() => calculatePenya({ ...ok, rate: '0.033%' })).toThrow(TypeError);
    expect(() => calculatePenya({ ...ok, rate: { percent: '12', perDays: 0 } })).toThrow(RangeError);
    expect(() => calculatePenya({ ...ok, rate: { percent: '12', perDays: 365.5 } })).toThrow(RangeError);
  });

  it('agrees with a day-by-day count for generated cases', () => {
    // reference: walk every day and sum outstanding × rate, with the conventions written out plainly
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let k = 0; k < 300; k++) {
      const dueDate = addDays('2023-11-15', next(200)); // dates around two year ends and a leap February
      const asOf = addDays(dueDate, next(120) - 10);
      const debt = BigInt(next(100_000_000));
      const payments = Array.from({ length: next(5) }, () => ({
        date: addDays(dueDate, next(140) - 20),
        amount: BigInt(1 + next(40_000_000)),
      }));
      const rate = ['0.033', '0.1', '1', '0.000001'][next(4)];
      const r = calculatePenya({ debt, dueDate, asOf, payments, rate });
      const { numerator, denominator } = dailyRateFraction(rate);
      let sum = 0n;
      let days = 0;
      for (let d = addDays(dueDate, 1); d <= asOf; d = addDays(d, 1)) {
        const paidBefore = payments.filter((p) => p.date < d).reduce((s, p) => s + p.amount, 0n);
        const outstanding = debt - paidBefore;
        if (outstanding > 0n) {
          sum += outstanding * numerator;
          days++;
        }
      }
      const expected = (2n * sum + denominator) / (2n * denominator); // half-up, sum ≥ 0
      expect(r.amount, `case ${k}`).toBe(expected);
      expect(r.days, `case ${k}`).toBe(days);
      const paid = payments.filter((p) => p.date <= asOf).reduce((s, p) => s + p.amount, 0n);
      expect(r.outstanding - r.overpaid, `case ${k}`).toBe(debt - paid);
    }
  });
});
