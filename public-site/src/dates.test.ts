import { describe, expect, it } from 'vitest';
import { dmyToIso, isoToDmy, maskDate, normaliseDmy } from './dates';

/** Types `keys` one by one into an empty field, as the browser would. */
const typed = (keys: string) => [...keys].reduce((s, k) => maskDate(s + k, s), '');

describe('the public date field (DD.MM.YYYY)', () => {
  it('puts the dots in as one types digits', () => {
    expect(typed('0')).toBe('0');
    expect(typed('02')).toBe('02.');
    expect(typed('0212')).toBe('02.12.');
    expect(typed('02122026')).toBe('02.12.2026');
    // more digits than a date holds are dropped
    expect(typed('021220261')).toBe('02.12.2026');
  });

  it('takes dots, slashes and dashes typed by hand, and short days and months', () => {
    expect(typed('2.5.2026')).toBe('2.5.2026');
    expect(typed('02.12.2026')).toBe('02.12.2026');
    expect(typed('2/5/2026')).toBe('2.5.2026');
    expect(normaliseDmy('2.5.2026')).toBe('02.05.2026');
    expect(normaliseDmy('2.5.')).toBe('2.5.');
  });

  it('a pasted value is grouped the same way', () => {
    expect(maskDate('02122026', '')).toBe('02.12.2026');
    expect(maskDate('02.12.2026', '')).toBe('02.12.2026');
  });

  it('backspace takes the dot away without putting it back', () => {
    expect(maskDate('02.', '02.1')).toBe('02.');
    expect(maskDate('02', '02.')).toBe('02');
  });

  it('gives ISO only for a whole, real date', () => {
    expect(dmyToIso('02.12.2026')).toBe('2026-12-02');
    expect(dmyToIso('2.5.2026')).toBe('2026-05-02');
    expect(dmyToIso('29.02.2024')).toBe('2024-02-29');
    expect(dmyToIso('29.02.2026')).toBeNull();
    expect(dmyToIso('31.04.2026')).toBeNull();
    expect(dmyToIso('02.13.2026')).toBeNull();
    expect(dmyToIso('02.12.')).toBeNull();
    expect(dmyToIso('')).toBeNull();
    expect(isoToDmy('2026-12-02')).toBe('02.12.2026');
    expect(isoToDmy('02.1')).toBe('02.1');
  });
});
