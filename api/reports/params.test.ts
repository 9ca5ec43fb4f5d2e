import { describe, expect, it } from 'vitest';
import { parseParamsSegment, resolveReportParams } from './params.ts';
import type { ReportMeta } from '../meta/types.ts';

const report: ReportMeta = {
  name: 'r',
  module: 'm',
  caption: 'c',
  file: 'f',
  query: 'SELECT 1',
  columns: [{ name: 'x', type: 'integer' }],
  params: {
    year: { type: 'year', required: true, default: 'current' },
    region_id: { type: 'ref', ref: 'regions' },
    period: { type: 'enum', values: ['day', 'month'], default: 'month' },
    date: { type: 'date', default: 'current' },
    q: { type: 'string' },
  },
  scope: { region: 'region_id' },
};
// 2026-12-31 20:00 UTC is already 1 January 2027 in Tashkent
const newYearsEve = new Date('2026-12-31T20:00:00Z');
const principal = (region_id: number | null) => ({
  id: 1,
  username: 'u',
  actions: new Set<number>(),
  region_id,
  branch_id: null,
  subject_id: null,
});

describe('report parameters', () => {
  it('fills defaults in Tashkent time', () => {
    const { params, errors } = resolveReportParams(report, {}, null, newYearsEve);
    expect(errors).toBeNull();
    expect(params).toEqual({ year: 2027, region_id: null, period: 'month', date: '2027-01-01', q: null });
  });

  it('checks each value against its declaration', () => {
    const { errors } = resolveReportParams(
      report,
      { year: '1999', region_id: '1;drop', period: 'week', date: '2999-01-01', q: 'x'.repeat(201) },
      null,
      newYearsEve,
    );
    expect(errors).toEqual({
      year: { key: 'validation.interval', args: { min: 2000, max: 2037 } },
      region_id: { key: 'validation.wrong_format' },
      period: { key: 'validation.wrong_value' },
      date: { key: 'validation.future_date' },
      q: { key: 'validation.max_length', args: { limit: 200 } },
    });
  });

  it("forces a scoped user's own region", () => {
    expect(resolveReportParams(report, { region_id: '9' }, principal(3), newYearsEve).params.region_id).toBe(3);
    expect(resolveReportParams(report, { region_id: '9' }, principal(null), newYearsEve).params.region_id).toBe(9);
  });

  it('reads a :params route segment', () => {
    expect(parseParamsSegment(encodeURIComponent('org_id=5;year=2026'))).toEqual({ org_id: '5', year: '2026' });
    expect(parseParamsSegment('region_id=3')).toEqual({ region_id: '3' });
    expect(parseParamsSegment('%E0%A4%A')).toEqual({});
  });
});
