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

/** Normalises typed input before validation: spaces, brackets and dashes in phones and passports. */
export function normaliseFormatted(format: FormatName | undefined, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  switch (format) {
    case 'phone': {
      const digits = value.replace(/\D/g, '');
      return digits.length === 12 && digits.startsWith('998') ? digits.slice(3) : digits;
    }
    case 'passport': return value.replace(/\s+/g, '').toUpperCase();
    case 'inn': case 'pinfl': case 'mfo': case 'account': case 'digits5': case 'inn_or_pinfl': return value.replace(/\s+/g, '');
    case 'email': return value.trim();
    default: return value;
  }
}
