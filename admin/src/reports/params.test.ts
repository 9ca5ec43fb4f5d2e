import { describe, expect, it } from 'vitest';
import {
  coerceParam,
  decodeParamsSegment,
  defaultParam,
  drillHref,
  effectiveParams,
  encodeParamsSegment,
  filterFromSegment,
  sameParams,
  toQuery,
  yearChoices,
} from './params';
import { chartData, formatCell } from './cells';
import type { ReportParamDef } from './types';

const today = '2026-03-15';
const defs: Record<string, ReportParamDef> = {
  year: { type: 'year', required: true, default: 'current' },
  region_id: { type: 'ref', ref: 'regions' },
  period: { type: 'enum', values: ['day', 'month', 'year', 'all'], default: 'month' },
  date: { type: 'date' },
  q: { type: 'string' },
};

describe(':params segments', () => {
  it('encodes k=v;k=v URL-encoded, as the contract spells it', () => {
    expect(encodeParamsSegment({ org_id: 5, year: 2026 })).toBe('org_id%3D5%3Byear%3D2026');
    expect(encodeParamsSegment({ org_id: 5, region_id: null, q: '' })).toBe('org_id%3D5');
  });

  it('decodes encoded and already decoded segments alike, and values with ; and =', () => {
    expect(decodeParamsSegment('org_id%3D5%3Byear%3D2026')).toEqual({ org_id: '5', year: '2026' });
    expect(decodeParamsSegment('org_id=5;year=2026')).toEqual({ org_id: '5', year: '2026' });
    const odd = encodeParamsSegment({ q: 'a;b=c ʻ', year: 2026 });
    expect(decodeParamsSegment(odd)).toEqual({ q: 'a;b=c ʻ', year: '2026' });
    expect(decodeParamsSegment(decodeURIComponent(odd))).toEqual({ q: 'a;b=c ʻ', year: '2026' });
    expect(decodeParamsSegment(undefined)).toEqual({});
    expect(decodeParamsSegment('garbage')).toEqual({});
  });

  it('turns a segment into a list filter with numbers for ids', () => {
    expect(filterFromSegment('org_id%3D5%3Bsource%3Dpublic')).toEqual({ org_id: 5, source: 'public' });
  });
});

describe('report parameters', () => {
  it('types values by their declarations and refuses what does not fit', () => {
    expect(coerceParam(defs.year, '2025', today)).toBe(2025);
    expect(coerceParam(defs.year, '20x5', today)).toBeUndefined();
    expect(coerceParam(defs.year, '2031', today)).toBeUndefined();
    expect(coerceParam(defs.region_id, '3', today)).toBe(3);
    expect(coerceParam(defs.region_id, '0', today)).toBeUndefined();
    expect(coerceParam(defs.period, 'week', today)).toBeUndefined();
    expect(coerceParam(defs.date, '2026-03-15', today)).toBe('2026-03-15');
    expect(coerceParam(defs.date, '2026-03-16', today)).toBeUndefined(); // no future dates
    expect(coerceParam(defs.q, '  tosh ', today)).toBe('tosh');
  });

  it('fills defaults: the current year in Tashkent, declared values', () => {
    expect(defaultParam(defs.year, today)).toBe(2026);
    expect(defaultParam({ type: 'date', default: 'current' }, today)).toBe(today);
    expect(effectiveParams(defs, {}, today)).toEqual({ year: 2026, period: 'month' });
    expect(effectiveParams(defs, { year: '2024', region_id: '7', period: 'all', date: '2026-01-02', q: 'x', stray: '1' }, today)).toEqual({
      year: 2024,
      region_id: 7,
      period: 'all',
      date: '2026-01-02',
      q: 'x',
    });
    // without declarations the values go as they are
    expect(effectiveParams(undefined, { org_id: '5', year: 2026, q: '' }, today)).toEqual({ org_id: '5', year: 2026 });
  });

  it('writes queries and compares parameter sets', () => {
    expect(toQuery({ year: 2026, region_id: undefined, q: 'a b' })).toBe('year=2026&q=a+b');
    expect(sameParams({ year: 2026, q: '' }, { year: '2026' })).toBe(true);
    expect(sameParams({ year: 2026 }, { year: 2025 })).toBe(false);
  });

  it('offers next year, this year and nine before it', () => {
    expect(yearChoices(today)).toEqual([2027, 2026, 2025, 2024, 2023, 2022, 2021, 2020, 2019, 2018, 2017]);
    expect(yearChoices(today, 2010)).toContain(2010);
  });
});

describe('drill links', () => {
  const drill = {
    route: '/ecofund-plantings/plan-execution-by-org/:params',
    column: 'org',
    params: { org_id: 'org_id', year: '$year', region_id: '$region_id' },
  };

  it('replaces :params with row values and $parameters', () => {
    expect(drillHref(drill, { org_id: 5, org: 'X' }, { year: 2026 })).toBe(
      '/ecofund-plantings/plan-execution-by-org/org_id%3D5%3Byear%3D2026',
    );
    expect(drillHref(drill, { org_id: 5 }, { year: 2026, region_id: 3 })).toBe(
      '/ecofund-plantings/plan-execution-by-org/org_id%3D5%3Byear%3D2026%3Bregion_id%3D3',
    );
    expect(drillHref({ ...drill, params: { org_id: 'org_id' } }, { org: 'no id' }, {})).toBeNull();
    expect(drillHref({ ...drill, route: 'ecofund-plantings/plantings' }, { org_id: 5 }, { year: 2026 })).toBe(
      '/ecofund-plantings/plantings?org_id=5&year=2026',
    );
  });
});

describe('cells and chart data', () => {
  it('formats numbers with space thousands, two decimals for decimals, money and percentages', () => {
    // the one formatter of all faces (shared/numbers.ts): no-break thousands, a decimal comma
    expect(formatCell('integer', 1234567)).toBe('1\u00a0234\u00a0567');
    expect(formatCell('decimal', '1234.5')).toBe('1\u00a0234,50');
    expect(formatCell('money', '1234567.891')).toBe('1\u00a0234\u00a0567,89');
    expect(formatCell('money', '90071992547409.99')).toBe('90\u00a0071\u00a0992\u00a0547\u00a0409,99');
    expect(formatCell('percent', '87.456')).toBe('87,46');
    expect(formatCell('date', '2026-03-05')).toBe('05.03.2026');
    expect(formatCell('string', null)).toBe('');
  });

  it('makes a label per row and a series per column', () => {
    const columns = [
      { name: 'region', type: 'string' as const, caption: 'Hudud' },
      { name: 'plan', type: 'integer' as const, caption: 'Reja' },
      { name: 'pct', type: 'percent' as const, caption: '%' },
    ];
    const rows = [
      { region: 'A', plan: 10, pct: '50.00' },
      { region: 'B', plan: 20, pct: '12.5' },
    ];
    expect(chartData({ type: 'bar', label: 'region', series: ['plan', 'pct', 'nothing'] }, columns, rows)).toEqual({
      labels: ['A', 'B'],
      series: [
        { key: 'plan', label: 'Reja', values: [10, 20] },
        { key: 'pct', label: '%', values: [50, 12.5] },
      ],
    });
  });
});
