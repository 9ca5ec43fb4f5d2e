import { randomInt } from 'node:crypto';

/**
 * The short code a citizen types to check an issued document (docs/template-documents.md,
 * decision 0075): ten characters of an alphabet without the look-alikes (no 0 or O, 1, I or L, U), so a
 * code read off paper or over the phone is typed right (digits 2–9 and the letters but I, L, O and U: 30
 * signs). 30^10 ≈ 5.9·10^14 codes (49 bits), drawn by
 * the operating system's generator without bias; with the lookups limited per address, guessing a
 * code of one of a million documents takes about 6·10^8 tries a hit.
 */
export const VERIFY_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const VERIFY_LENGTH = 10;

/** A fresh code, e.g. "K7MQ2X9RTD". */
export function newVerifyCode(random: (max: number) => number = randomInt): string {
  let s = '';
  for (let i = 0; i < VERIFY_LENGTH; i++) s += VERIFY_ALPHABET[random(VERIFY_ALPHABET.length)];
  return s;
}

/** A code as typed — any case, with spaces or hyphens — or null when it cannot be one. */
export function normaliseVerifyCode(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > 40) return null;
  const s = input.toUpperCase().replace(/[\s\-–—_.]/g, '');
  if (s.length !== VERIFY_LENGTH) return null;
  for (const ch of s) if (!VERIFY_ALPHABET.includes(ch)) return null;
  return s;
}

/** A code as printed: two groups of five, "K7MQ2-X9RTD". */
export const formatVerifyCode = (code: string): string => `${code.slice(0, 5)}-${code.slice(5)}`;
