import { createHash, randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../kernel/errors.ts';
import { configNumber } from './config.ts';
import type { MetaModel, Lang } from '../meta/types.ts';

export type CodePurpose = 'confirm' | 'reset';

/**
 * What sends a code: queues its notification in the code's transaction and answers the row (null
 * when the type is unknown or inactive). The notifications' queue (api/notify/queue.ts's `notify`),
 * handed in by the caller (the system module's sign-in routes): auth does not know notifications.
 */
export type CodeSender = (
  trx: Knex.Transaction,
  model: MetaModel,
  input: {
    type: string;
    to: { user_id: number };
    channels: ('email' | 'sms')[];
    vars: Record<string, unknown>;
    secret: Record<string, string>;
  },
) => Promise<Record<string, unknown> | null>;

const hash = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * Sends a six-digit one-time code through the user's notification method (through `send`): a notification of type
 * `password-reset` or `confirm-code` by e-mail (or SMS when the user has no e-mail), queued in the
 * transaction that stores the code and delivered by the notification worker (docs/notifications.md).
 * Only the code's hash is stored; it expires after `auth.code_minutes`.
 *
 * A code is not sent while the user's last one is still good (unused, unexpired, tries left), and
 * at most `auth.codes_per_hour` a user an hour — so asking again does not buy fresh guesses. The
 * check and the sending run under a lock on the user, in every server process. Answers where the
 * code went, or null when none was sent.
 */
export async function sendCode(
  knex: Knex,
  model: MetaModel,
  user: { id: number; email: string | null; phone: string | null; lang_code: Lang },
  purpose: CodePurpose,
  send: CodeSender,
): Promise<{ channel: string; address: string } | null> {
  const channel = user.email ? 'email' : user.phone ? 'sms' : null;
  if (!channel) throw new ApiError('validation', 'errors.no_contact');
  const [minutes, tries, perHour] = await Promise.all([
    configNumber(knex, 'auth.code_minutes'),
    configNumber(knex, 'auth.code_tries'),
    configNumber(knex, 'auth.codes_per_hour'),
  ]);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const sent = await knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`code:${user.id}:${purpose}`]);
    const live = await trx('one_time_codes')
      .where({ user_id: user.id, purpose })
      .whereNull('used_at')
      .where('expires_at', '>', new Date())
      .where('tries', '<', tries)
      .first('id');
    if (live) return false;
    const [{ n }] = await trx('one_time_codes')
      .where({ user_id: user.id, purpose })
      .where('created_at', '>', new Date(Date.now() - 3600_000))
      .count<{ n: number }[]>({ n: '*' });
    if (Number(n) >= perHour) return false;
    await trx('one_time_codes').where({ user_id: user.id, purpose }).whereNull('used_at').update({ used_at: trx.fn.now() });
    await trx('one_time_codes').insert({
      user_id: user.id,
      purpose,
      code_hash: hash(code),
      expires_at: new Date(Date.now() + minutes * 60_000),
    });
    // delivered like every notification (docs/notifications.md): queued in this transaction, sent by the worker;
    // the code is rendered into the message but not kept on the notification row nor in its audit
    const queued = await send(trx, model, {
      type: purpose === 'reset' ? 'password-reset' : 'confirm-code',
      to: { user_id: user.id },
      channels: [channel === 'email' ? 'email' : 'sms'],
      vars: { minutes },
      secret: { code },
    });
    if (!queued || !queued.recipients) throw new Error(`no ${channel} template of the notification type for ${purpose} codes`);
    return true;
  });
  if (!sent) return null;
  const address = channel === 'email' ? user.email!.replace(/^(.).*(@.*)$/, '$1***$2') : `*****${user.phone!.slice(-4)}`;
  return { channel, address };
}

/**
 * Checks a code: wrong codes count against `auth.code_tries`; an expired code, or one whose tries
 * are used up, is refused with its own message. A right code is used up.
 */
export async function checkCode(knex: Knex, userId: number, purpose: CodePurpose, code: string): Promise<void> {
  const limit = await configNumber(knex, 'auth.code_tries');
  // the outcome is decided inside the transaction and raised after it commits, so that a wrong
  // try is counted even though the call fails
  const outcome = await knex.transaction(async (trx): Promise<'ok' | 'wrong' | 'expired' | 'tries'> => {
    const row = await trx('one_time_codes')
      .where({ user_id: userId, purpose })
      .whereNull('used_at')
      .orderBy('id', 'desc')
      .forUpdate()
      .first();
    if (!row) return 'wrong';
    if (row.tries >= limit) return 'tries';
    if (new Date(row.expires_at).getTime() <= Date.now()) return 'expired';
    if (row.code_hash !== hash(String(code ?? '').trim())) {
      await trx('one_time_codes').where({ id: row.id }).increment('tries', 1);
      return row.tries + 1 >= limit ? 'tries' : 'wrong';
    }
    await trx('one_time_codes').where({ id: row.id }).update({ used_at: trx.fn.now() });
    return 'ok';
  });
  if (outcome === 'tries') throw new ApiError('tooManyAttempts', 'errors.code_tries');
  if (outcome === 'expired') throw new ApiError('validation', 'errors.code_expired', {}, { code: { key: 'errors.code_expired' } });
  if (outcome === 'wrong') throw new ApiError('validation', 'errors.code_wrong', {}, { code: { key: 'errors.code_wrong' } });
}
