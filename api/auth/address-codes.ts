import { createHash, randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../kernel/errors.ts';
import { configNumber } from './config.ts';

/**
 * One-time codes sent to an address (an e-mail or a nine-digit phone) before any account holds it:
 * a sign-up's confirmation (docs/accounts.md). The same rules as a user's codes (codes.ts): only the
 * hash is kept, a code lives `auth.code_minutes`, `auth.code_tries` wrong tries use it up, none is
 * sent while the last is good, at most `auth.codes_per_hour` an address an hour — under a lock on
 * the address, in every server process.
 */
const hash = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * Makes a code for the address and hands it to `deliver` inside the transaction that stores it (the
 * caller queues the notification there). Answers false, sending nothing, when the last code is still
 * good or the hour's codes are used up.
 */
export async function sendAddressCode(
  knex: Knex,
  address: string,
  deliver: (trx: Knex.Transaction, code: string, minutes: number) => Promise<void>,
): Promise<boolean> {
  const [minutes, tries, perHour] = await Promise.all([
    configNumber(knex, 'auth.code_minutes'),
    configNumber(knex, 'auth.code_tries'),
    configNumber(knex, 'auth.codes_per_hour'),
  ]);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`sign-up:${address}`]);
    const live = await trx('sign_up_codes')
      .where({ address })
      .whereNull('used_at')
      .where('expires_at', '>', new Date())
      .where('tries', '<', tries)
      .first('id');
    if (live) return false;
    const [{ n }] = await trx('sign_up_codes')
      .where({ address })
      .where('created_at', '>', new Date(Date.now() - 3600_000))
      .count<{ n: number }[]>({ n: '*' });
    if (Number(n) >= perHour) return false;
    await trx('sign_up_codes').where({ address }).whereNull('used_at').update({ used_at: trx.fn.now() });
    await trx('sign_up_codes').insert({ address, code_hash: hash(code), expires_at: new Date(Date.now() + minutes * 60_000) });
    await deliver(trx, code, minutes);
    return true;
  });
}

/**
 * Checks the address's code: a wrong one counts a try (kept even though the call fails), an expired
 * one or one out of tries is refused with its own message. A right code is not used up here but by
 * `useAddressCode` in the transaction that acts on it, so a form error after the check costs no code
 * and a code is used once even by two parallel requests. Answers the code's id.
 */
export async function checkAddressCode(knex: Knex, address: string, code: string): Promise<number> {
  const limit = await configNumber(knex, 'auth.code_tries');
  const outcome = await knex.transaction(async (trx): Promise<number | 'wrong' | 'expired' | 'tries'> => {
    const row = await trx('sign_up_codes').where({ address }).whereNull('used_at').orderBy('id', 'desc').forUpdate().first();
    if (!row) return 'wrong';
    if (row.tries >= limit) return 'tries';
    if (new Date(row.expires_at).getTime() <= Date.now()) return 'expired';
    if (row.code_hash !== hash(String(code ?? '').trim())) {
      await trx('sign_up_codes').where({ id: row.id }).increment('tries', 1);
      return row.tries + 1 >= limit ? 'tries' : 'wrong';
    }
    return Number(row.id);
  });
  if (outcome === 'tries') throw new ApiError('tooManyAttempts', 'errors.code_tries');
  if (outcome === 'expired') throw new ApiError('validation', 'errors.code_expired', {}, { code: { key: 'errors.code_expired' } });
  if (outcome === 'wrong') throw new ApiError('validation', 'errors.code_wrong', {}, { code: { key: 'errors.code_wrong' } });
  return outcome;
}

/** Uses a checked code up in the caller's transaction; a code used meanwhile (a parallel request) is wrong. */
export async function useAddressCode(trx: Knex.Transaction, id: number): Promise<void> {
  const n = await trx('sign_up_codes').where({ id }).whereNull('used_at').update({ used_at: trx.fn.now() });
  if (!n) throw new ApiError('validation', 'errors.code_wrong', {}, { code: { key: 'errors.code_wrong' } });
}
