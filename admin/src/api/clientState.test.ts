import { describe, expect, it } from 'vitest';
import {
  clearClientState,
  lastCategoryId,
  readClientState,
  rememberReportTemplate,
  reportTemplate,
  setLastCategoryId,
  type StateStore,
} from './clientState';

const memory = (): StateStore & { data: Map<string, string> } => {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => {
      data.set(k, v);
    },
    removeItem: (k) => {
      data.delete(k);
    },
  };
};

describe('the client state: report template and last category id', () => {
  it("keeps each report's chosen parameters, and opens with none for a report never chosen", () => {
    const s = memory();
    expect(reportTemplate('pkm290', s)).toBeNull();
    rememberReportTemplate('pkm290', { year: 2025, region_id: 3 }, s);
    rememberReportTemplate('payments-report', { quarter: 'q2' }, s);
    expect(reportTemplate('pkm290', s)).toEqual({ year: 2025, region_id: 3 });
    expect(reportTemplate('payments-report', s)).toEqual({ quarter: 'q2' });
    rememberReportTemplate('pkm290', {}, s);
    expect(reportTemplate('pkm290', s)).toBeNull();
  });

  it('keeps the menu category last opened', () => {
    const s = memory();
    expect(lastCategoryId(s)).toBeNull();
    setLastCategoryId('/ecofund-reports', s);
    expect(lastCategoryId(s)).toBe('/ecofund-reports');
  });

  it('is gone after a sign-out, and a damaged one reads as empty', () => {
    const s = memory();
    setLastCategoryId('/ecofund', s);
    rememberReportTemplate('pkm290', { year: 2025 }, s);
    clearClientState(s);
    expect(readClientState(s)).toEqual({ reportTemplates: {}, lastCategoryId: null });
    s.setItem('ecofond.clientState', '{not json');
    expect(readClientState(s)).toEqual({ reportTemplates: {}, lastCategoryId: null });
  });
});
