import { describe, expect, it } from 'vitest';
import { PARTIAL_DATE, valueOfWall, wallOf } from './pickerValue';

describe('date picker values (Tashkent wall time, ISO in the form)', () => {
  it('a date stays the same day both ways', () => {
    expect(wallOf('2026-12-02', false)).toBe('2026-12-02');
    expect(valueOfWall('2026-12-02', false)).toBe('2026-12-02');
    expect(valueOfWall('2026-12-02T13:45:00', false)).toBe('2026-12-02');
  });

  it('a moment shows on Tashkent clocks and goes back with +05:00', () => {
    // 20:30 UTC is 01:30 the next day in Tashkent
    expect(wallOf('2026-12-01T20:30:00Z', true)).toBe('2026-12-02T01:30:00');
    expect(wallOf('2026-12-02T01:30:00+05:00', true)).toBe('2026-12-02T01:30:00');
    expect(valueOfWall('2026-12-02T01:30:00', true)).toBe('2026-12-02T01:30:00+05:00');
    // a moment in a date field is its Tashkent day
    expect(wallOf('2026-12-01T20:30:00Z', false)).toBe('2026-12-02');
    // a bare date in a moment field is its midnight
    expect(wallOf('2026-12-02', true)).toBe('2026-12-02T00:00:00');
  });

  it('empty, partial and unreadable values show an empty picker', () => {
    for (const v of [null, undefined, '', PARTIAL_DATE, 'not a date']) {
      expect(wallOf(v, false)).toBeNull();
      expect(wallOf(v, true)).toBeNull();
    }
  });
});
