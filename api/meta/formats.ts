import type { FormatName } from './types.ts';

/**
 * Named formats of the spec (section 5 and 9): the pattern a stored value must match and the
 * caption key of the message shown when it does not. Phones are stored as their nine digits and
 * passports as "AA1234567"; the back-office shows them as (XX) XXX-XX-XX and "AA 1234567".
 */
export const FORMATS: Record<FormatName, { pattern: string; message: string }> = {
  inn: { pattern: '^[0-9]{9}$', message: 'validation.inn' },
  pinfl: { pattern: '^[0-9]{14}$', message: 'validation.pinfl' },
  inn_or_pinfl: { pattern: '^([0-9]{9}|[0-9]{14})$', message: 'validation.inn_or_pinfl' },
  mfo: { pattern: '^[0-9]{5}$', message: 'validation.mfo' },
  account: { pattern: '^[0-9]{20}$', message: 'validation.account' },
  digits5: { pattern: '^[0-9]{5}$', message: 'validation.digits5' },
  soato: { pattern: '^[0-9]{4,10}$', message: 'validation.soato' },
  phone: { pattern: '^[0-9]{9}$', message: 'validation.phone' },
  passport: { pattern: '^[A-Z]{2}[0-9]{7}$', message: 'validation.passport' },
  email: { pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', message: 'validation.email' },
};

/**
 * What a typing mask adds to a value: spaces, brackets, dashes and a plus — "+998 (90) 123-45-67".
 * Only these are taken out before validation; anything else (letters, other signs) stays, so a
 * value that is not a phone or a passport fails its pattern instead of shrinking to a valid one.
 */
const MASK = /[\s()\-+]/g;

/** Normalises typed input before validation: the typing mask of phones, passports and codes. */
export function normaliseFormatted(format: FormatName | undefined, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  switch (format) {
    case 'phone': {
      const digits = value.replace(MASK, '');
      return /^998\d{9}$/.test(digits) ? digits.slice(3) : digits;
    }
    case 'passport':
      return value.replace(/\s+/g, '').toUpperCase();
    case 'inn':
    case 'pinfl':
    case 'mfo':
    case 'account':
    case 'digits5':
    case 'inn_or_pinfl':
      return value.replace(/\s+/g, '');
    case 'email':
      return value.trim();
    default:
      return value;
  }
}
