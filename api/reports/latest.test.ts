import { describe, expect, it } from 'vitest';
import { hasFigures, LATEST_YEARS_BACK, runOnLatest } from './latest.ts';
import type { ReportResult } from './run.ts';
import type { ReportParams } from './params.ts';

/** A report's answer for a year: rows of regions, their sum the year's figure (0: every region present, nothing in any). */
const answer = (rows: number, sum: string | null): ReportResult => ({
  name: 'r',
  title: 'r',
  params: {},
  columns: [],
  chart: null,
  drill: null,
  page: null,
  total: rows,
  rows: Array.from({ length: rows }, () => ({})),
  totals: sum === null ? {} : { amount: sum },
});
const meta = {
  params: {
    year: { type: 'year' as const, required: true, default: 'current' as const },
    region_id: { type: 'ref' as const, ref: 'regions' },
  },
};

/** Figures by year; the years each run was asked for. */
function fake(byYear: Record<number, string>) {
  const asked: number[] = [];
  const run = async (p: ReportParams) => {
    asked.push(p.year as number);
    const f = byYear[p.year as number];
    return { ...answer(14, f ?? '0.00'), params: p };
  };
  return { run, asked };
}

describe('a report on the latest period that has data', () => {
  it('has figures when it has rows and, if it totals, a total not zero', () => {
    expect(hasFigures(answer(0, null))).toBe(false);
    expect(hasFigures(answer(3, null))).toBe(true);
    expect(hasFigures(answer(14, '0.00'))).toBe(false);
    expect(hasFigures(answer(14, '0.01'))).toBe(true);
  });

  it('opens on the year asked for or the default when it has figures, running once', async () => {
    const { run, asked } = fake({ 2026: '10.00' });
    const r = await runOnLatest(meta, { year: 2026, region_id: null }, false, run);
    expect(asked).toEqual([2026]);
    expect(r.period).toEqual({ year: 2026, latest: 2026, empty: false, moved: false });
  });

  it('moves a year not asked for back to the newest year with figures', async () => {
    const { run, asked } = fake({ 2024: '5.00', 2023: '7.00' });
    const r = await runOnLatest(meta, { year: 2026, region_id: 3 }, false, run);
    expect(asked).toEqual([2026, 2025, 2024]);
    expect(r.params).toEqual({ year: 2024, region_id: 3 });
    expect(r.totals).toEqual({ amount: '5.00' });
    expect(r.period).toEqual({ year: 2024, latest: 2024, empty: false, moved: true });
  });

  it('keeps a year asked for, empty, naming the newest year with figures', async () => {
    const { run } = fake({ 2025: '5.00' });
    const r = await runOnLatest(meta, { year: 2026, region_id: null }, true, run);
    expect(r.params.year).toBe(2026);
    expect(r.totals).toEqual({ amount: '0.00' });
    expect(r.period).toEqual({ year: 2026, latest: 2025, empty: true, moved: false });
  });

  it(`looks back ${LATEST_YEARS_BACK} years at most, and says when none has figures`, async () => {
    const { run, asked } = fake({ [2026 - LATEST_YEARS_BACK - 1]: '1.00' });
    const r = await runOnLatest(meta, { year: 2026, region_id: null }, false, run);
    expect(asked).toHaveLength(LATEST_YEARS_BACK + 1);
    expect(r.period).toEqual({ year: 2026, latest: null, empty: true, moved: false });
  });

  it('runs a report without a year once, as it is', async () => {
    let runs = 0;
    const r = await runOnLatest({ params: {} }, {}, false, async () => {
      runs++;
      return answer(0, null);
    });
    expect(runs).toBe(1);
    expect(r.period).toBeUndefined();
  });
});
