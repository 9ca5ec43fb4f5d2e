/**
 * An offence's payment state (spec: "an offence shows paid / partly paid / unpaid from its
 * attached, confirmed payments, exactly"), in tiyin, and the decree number a bank statement's
 * purpose names (fine payments are attached to their offence by it).
 */
import type { Tiyin } from './money.ts';

export type OffencePaymentStatus = 'unpaid' | 'partly_paid' | 'paid';

/**
 * unpaid: nothing confirmed; paid: the confirmed sum reaches the fine (an overpayment is paid too);
 * partly paid: anything between. An offence with no fine yet is paid by any positive sum.
 */
export function offencePaymentStatus(fine: Tiyin | null, paid: Tiyin): OffencePaymentStatus {
  if (paid <= 0n) return 'unpaid';
  if (fine === null || paid >= fine) return 'paid';
  return 'partly_paid';
}

/**
 * The decree number in a payment's purpose: the token after "№", "N", "No", "#" or the words for a
 * decree ("qaror", "qarori", "постановление"), letters, digits, "-" and "/"; null when there is none.
 *   decreeNumberIn('Jarima, qaror № AB-123/24, Aliyev') = 'AB-123/24'
 */
export function decreeNumberIn(purpose: string | null | undefined): string | null {
  if (!purpose) return null;
  // \b knows only ASCII letters: word edges are said with \p{L} look-arounds
  const m =
    /(?:№|(?<!\p{L})N[o°]?\.?(?=\s*\d)|#|(?<!\p{L})(?:qarori?|постановлени[еяю])(?!\p{L}))\s*(?:№|N[o°]?\.?)?\s*([\p{L}\d][\p{L}\d\-/]*\d[\p{L}\d\-/]*|\d[\p{L}\d\-/]*)/iu.exec(
      purpose,
    );
  return m ? m[1].replace(/[-/]+$/, '') : null;
}
