import type { RouteHandler } from '../types.ts';
import type { AppContext } from '../../http/middleware.ts';
import type { Lang } from '../../meta/types.ts';
import { ApiError, validationError, type FieldError } from '../../kernel/errors.ts';
import { checkAddressCode, sendAddressCode, useAddressCode } from '../../auth/address-codes.ts';
import { normaliseFormatted, FORMATS } from '../../meta/formats.ts';
import { notify } from '../../notify/queue.ts';
import { assertDeliverable } from './delivery.ts';
import { accountHoldingAddress, roleIdByCode } from '../../read-models/accounts.ts';
import { Workflow } from '../../engine/workflow.ts';
import { limitCodeRequests, passwordErrors, signInWithoutPassword } from './auth.ts';

/**
 * Accounts people run themselves (docs/accounts.md): a resident's sign-up on the public site, by an
 * e-mail or a phone confirmed with a code; sign-in with a code instead of a password; and the check
 * that a code can be delivered at all before one is promised.
 */

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const bodyOf = (ctx: AppContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
const LANGS: Lang[] = ['uz', 'uk', 'ru'];

/** An address a person typed: an e-mail (case folded), or a phone as its nine digits (a mask and +998 taken off); null when it is neither. */
export function contactOf(raw: unknown): { address: string; channel: 'email' | 'sms' } | null {
  const v = str(raw).trim();
  if (!v || v.length > 60) return null;
  if (v.includes('@')) {
    const email = v.toLowerCase();
    return new RegExp(FORMATS.email.pattern).test(email) && /^[A-Za-z0-9_.@-]+$/.test(email) ? { address: email, channel: 'email' } : null;
  }
  const phone = normaliseFormatted('phone', v) as string;
  return /^[0-9]{9}$/.test(phone) ? { address: phone, channel: 'sms' } : null;
}

/**
 * `POST admin/auth/sign-up {contact}`: a code to the e-mail or phone, to confirm it is the visitor's.
 * When an account already holds the address, the address is told so (a notification of type
 * `account-exists`) instead of being sent a code: the visitor's answer is `{sent: true}` either way,
 * under the same limits (per client address and per address typed, a code at a time, so many an
 * hour), so it tells no accounts apart.
 */
const signUp: RouteHandler = async (ctx, { knex, model, lang }) => {
  const contact = contactOf(bodyOf(ctx).contact);
  if (!contact) throw validationError({ contact: { key: 'validation.contact' } });
  assertDeliverable(contact.channel);
  await limitCodeRequests(knex, ctx.ip, contact.address);
  const taken = !!(await accountHoldingAddress(knex, contact.address));
  await sendAddressCode(knex, contact.address, async (trx, code, minutes) => {
    const queued = await notify(trx, model, {
      type: taken ? 'account-exists' : 'confirm-code',
      to: { address: { to: contact.address, lang } },
      channels: [contact.channel],
      vars: taken ? {} : { minutes },
      secret: taken ? {} : { code },
    });
    if (!queued) throw new Error(`the notification type ${taken ? 'account-exists' : 'confirm-code'} is missing or inactive`);
  });
  ctx.body = { sent: true };
};

/**
 * `POST admin/auth/sign-up/confirm {contact, code, fio, region_id, password, password_repeat,
 * lang_code?}`: the form is checked first (a mistake costs no code), then the code; the account — a
 * population user named by the address, holding it as their e-mail or phone, with the population
 * role — is written through the engine (validated, audited) in the transaction that uses the code
 * up, and signed in. An address some account took meanwhile is a 409: only the address's owner,
 * holding its code, learns it.
 */
const signUpConfirm: RouteHandler = async (ctx, { knex, lang, trustedRepo }) => {
  const body = bodyOf(ctx);
  const contact = contactOf(body.contact);
  const errors: Record<string, FieldError> = { ...(passwordErrors(str(body.password), body.password_repeat ?? '') ?? {}) };
  if (!contact) errors.contact = { key: 'validation.contact' };
  if (!str(body.fio).trim()) errors.fio = { key: 'validation.required' };
  if (body.region_id === undefined || body.region_id === null || body.region_id === '') errors.region_id = { key: 'validation.required' };
  if (!str(body.code).trim()) errors.code = { key: 'validation.required' };
  if (Object.keys(errors).length) throw validationError(errors);
  const codeId = await checkAddressCode(knex, contact!.address, str(body.code).slice(0, 20));
  const userId = await knex.transaction(async (trx) => {
    await useAddressCode(trx, codeId);
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`sign-up:${contact!.address}`]);
    if (await accountHoldingAddress(trx, contact!.address)) throw new ApiError('inUse', 'errors.account_exists');
    const users = trustedRepo('users', trx);
    const created = await users.create(
      {
        username: contact!.address,
        password: str(body.password),
        fio: str(body.fio).trim(),
        region_id: body.region_id,
        kind: 'population',
        lang_code: LANGS.includes(body.lang_code as Lang) ? body.lang_code : lang,
        ...(contact!.channel === 'email' ? { email: contact!.address } : { phone: contact!.address }),
      },
      { fields: ['kind'], action: 'sign-up' },
    );
    const role = await roleIdByCode(trx, 'population');
    if (!role) throw new Error('the population role is missing: run the seed');
    await new Workflow(users).run(created.id as number, 'assign-roles', { roles: [role] });
    return created.id as number;
  });
  ctx.status = 201;
  ctx.body = await signInWithoutPassword(ctx, knex, { id: userId, username: contact!.address, status: 'active' });
};

export const ACCOUNT_HANDLERS: Record<string, RouteHandler> = {
  'system.signUp': signUp,
  'system.signUpConfirm': signUpConfirm,
};
