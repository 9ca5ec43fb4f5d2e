import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baseValueOn, type BaseValueRow } from './base-value.ts';

// A copy of seeds/data/min-oklads.json's rows (copied so these tests do not move when the data is
// corrected), deliberately out of order.
const ROWS: BaseValueRow[] = [
  { start_date: '2022-06-01', amount: '300000.00' },
  { start_date: '2016-10-01', amount: '149775.00' },
  { start_date: '2025-08-01', amount: '412000.00' },
  { start_date: '2017-12-01', amount: '172240.00' },
  { start_date: '2018-07-15', amount: '184300.00' },
  { start_date: '2024-10-01', amount: '375000.00' },
  { start_date: '2018-11-01', amount: '202730.00' },
  { start_date: '2019-08-01', amount: '223000.00' },
  { start_date: '2021-02-01', amount: '245000.00' },
  { start_date: '2023-05-01', amount: '330000.00' },
  { start_date: '2021-09-01', amount: '270000.00' },
];

describe('base value in force on a date', () => {
  it('takes the row with the latest start on or before the date, whatever the order', () => {
    expect(baseValueOn(ROWS, '2025-08-01')).toEqual({ start_date: '2025-08-01', amount: 41_200_000n }); // its first day
    expect(baseValueOn(ROWS, '2025-07-31')).toEqual({ start_date: '2024-10-01', amount: 37_500_000n }); // the day before
    expect(baseValueOn(ROWS, '2030-01-01').amount).toBe(41_200_000n); // the last row stays in force
    expect(baseValueOn(ROWS, '2016-10-01').amount).toBe(14_977_500n); // the first row's first day
    expect(baseValueOn(ROWS, '2018-07-14').amount).toBe(17_224_000n);
    expect(baseValueOn(ROWS, '2018-07-15').amount).toBe(18_430_000n);
    expect(baseValueOn(ROWS, '2024-02-29').amount).toBe(33_000_000n); // the unconfirmed 340 000 row is absent
    expect(baseValueOn([...ROWS].reverse(), '2021-08-31')).toEqual({ start_date: '2021-02-01', amount: 24_500_000n });
  });

  it('says clearly when the date precedes every row', () => {
    expect(() => baseValueOn(ROWS, '2016-09-30')).toThrow(
      new RangeError('no base value in force on 2016-09-30: the earliest row starts on 2016-10-01'),
    );
    expect(() => baseValueOn([], '2025-01-01')).toThrow(RangeError);
  });

  it('refuses malformed input', () => {
    expect(() => baseValueOn(ROWS, '2025-02-30')).toThrow(RangeError);
    expect(() => baseValueOn([{ start_date: '2025-01-01', amount: '0.00' }], '2025-01-02')).toThrow(RangeError);
    expect(() => baseValueOn([{ start_date: '2025-01-01', amount: '-1.00' }], '2025-01-02')).toThrow(RangeError);
    expect(() => baseValueOn([{ start_date: '2025-01-01', amount: '1.005' }], '2025-01-02')).toThrow(RangeError);
    expect(() => baseValueOn([{ start_date: '2025-01-01', amount: 'abc' }], '2025-01-02')).toThrow(TypeError);
    expect(() => baseValueOn([{ start_date: '1/1/2025', amount: '1.00' }], '2025-01-02')).toThrow(RangeError);
    expect(() =>
      baseValueOn(
        [
          { start_date: '2025-01-01', amount: '1.00' },
          { start_date: '2025-01-01', amount: '2.00' },
        ],
        '2025-01-02',
      ),
    ).toThrow('two base value rows start on 2025-01-01');
  });

  it('reads every row of the seed data file', () => {
    const file = JSON.parse(readFileSync(new URL('../../seeds/data/min-oklads.json', import.meta.url), 'utf8')) as { rows: BaseValueRow[] };
    for (const row of file.rows) {
      expect(baseValueOn(file.rows, row.start_date).start_date).toBe(row.start_date);
    }
  });
});
