import { describe, expect, it } from 'vitest';
import { placeholders, render, unknownPlaceholder, variableNames } from './render.ts';

describe('notification templates', () => {
  it('finds the placeholders a text uses', () => {
    expect(placeholders('Report {id} of {year}: {comment} ({id})')).toEqual(['id', 'year', 'comment']);
    expect(placeholders('no placeholders')).toEqual([]);
  });
  it('names the first placeholder a type does not declare', () => {
    const vars = variableNames('id, year,comment');
    expect(unknownPlaceholder(['Report {id}', 'of {year} {colour}'], vars)).toBe('colour');
    expect(unknownPlaceholder(['Report {id}', null], vars)).toBeNull();
    expect(unknownPlaceholder(['{ id }'], vars)).toBe(' id ');
  });
  it('fills the values, a missing one empty', () => {
    expect(render('Code {code}, {minutes} min{x}', { code: '012345', minutes: 10 })).toBe('Code 012345, 10 min');
  });
});
