import { describe, expect, it } from 'vitest';
import { parseListParams } from './list-params.ts';
import { loadMetadata } from '../meta/load.ts';
import { ApiError } from '../kernel/errors.ts';

const areas = loadMetadata().entities.get('areas')!;
const enc = (v: unknown) => JSON.stringify(v);

function fails(query: Record<string, string>, key: string) {
  try {
    parseListParams(areas, query);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).messageKey).toBe(key);
    return;
  }
  throw new Error('accepted');
}

describe('list parameters in both protocols', () => {
  it("defaults to the metadata's sort and page size", () => {
    expect(parseListParams(areas, {})).toMatchObject({ sort: [{ field: 'soato', desc: false }], offset: 0, limit: 25, filters: [] });
  });

  it("reads react-admin's sort, range and filter", () => {
    const p = parseListParams(areas, {
      sort: enc(['name', 'DESC']),
      range: enc([50, 74]),
      filter: enc({ region_id: 3, q: 'tosh', id: [1, 2] }),
    });
    expect(p).toMatchObject({ sort: [{ field: 'name', desc: true }], offset: 50, limit: 25, ids: [1, 2] });
    expect(p.filters.map((f) => [f.name, f.value])).toEqual([
      ['region_id', 3],
      ['q', 'tosh'],
    ]);
  });

  it("reads the spec's options and plain filters, with ranges as from_/to_", () => {
    const p = parseListParams(areas, { options: 'sortBy=name,soato;descending=true,false;page=3;perPage=10', region_id: '3' });
    expect(p.sort).toEqual([
      { field: 'name', desc: true },
      { field: 'soato', desc: false },
    ]);
    expect(p).toMatchObject({ offset: 20, limit: 10 });
    const oklads = loadMetadata().entities.get('min-oklads')!;
    const r = parseListParams(oklads, {
      sortBy: 'start_date',
      descending: 'false',
      from_start_date: '2020-01-01',
      to_start_date: '2024-01-01',
    });
    expect(r.filters.map((f) => [f.name, f.bound, f.value])).toEqual([
      ['start_date', 'from', '2020-01-01'],
      ['start_date', 'to', '2024-01-01'],
    ]);
  });

  it('refuses what the metadata does not declare', () => {
    fails({ sort: enc(['password', 'ASC']) }, 'errors.unknown_sort');
    fails({ sortBy: 'name;drop table x' }, 'errors.unknown_sort');
    fails({ options: 'sortBy=name;descending=maybe' }, 'errors.bad_param');
    fails({ filter: enc({ nope: 1 }) }, 'errors.unknown_filter');
    fails({ nope: '1' }, 'errors.unknown_filter');
    fails({ range: enc([10, 5]) }, 'errors.bad_param');
    fails({ range: enc([0, 1000]) }, 'errors.page_size');
    fails({ filter: '{not json' }, 'errors.bad_param');
    fails({ filter: enc({ id: ['1; drop'] }) }, 'errors.bad_filter');
  });
});
