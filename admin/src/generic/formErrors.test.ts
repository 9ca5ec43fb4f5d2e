import { describe, expect, it } from 'vitest';
import { hasMissingRequired } from './formErrors';

describe('a form sent with errors', () => {
  it('is missing a required part when any error, nested or not, is the required one', () => {
    expect(hasMissingRequired({ inn: { type: 'validate', message: { message: 'validation.required', args: {} } } })).toBe(true);
    expect(hasMissingRequired({ inn: { type: 'validate', message: 'ra.validation.required' } })).toBe(true);
    expect(hasMissingRequired({ mfo: { type: 'validate', message: '@@react-admin@@{"message":"validation.required","args":{}}' } })).toBe(
      true,
    );
    expect(hasMissingRequired({ mfo: { type: 'validate', message: '@@react-admin@@"validation.required"' } })).toBe(true);
    expect(hasMissingRequired({ ingredients: [undefined, { mass: { type: 'validate', message: 'validation.required' } }] })).toBe(true);
    expect(hasMissingRequired({ name: { uz: { type: 'required', message: '' } } })).toBe(true);
  });

  it('is not, when the errors are only of format or range', () => {
    expect(hasMissingRequired({ inn: { type: 'validate', message: { message: 'validation.inn', args: {} } } })).toBe(false);
    expect(hasMissingRequired({ mfo: { type: 'validate', message: '@@react-admin@@{"message":"validation.mfo","args":{}}' } })).toBe(false);
    expect(hasMissingRequired({ mfo: { type: 'validate', message: '@@react-admin@@"validation.mfo"' } })).toBe(false);
    expect(hasMissingRequired({})).toBe(false);
    expect(hasMissingRequired(undefined)).toBe(false);
  });
});
