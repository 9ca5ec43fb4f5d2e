import type { Hook, HookContext, HookResult, RouteHandler } from '../types.ts';
import { ApiError, validationError } from '../../kernel/errors.ts';
import { actorOf } from '../../auth/ability.ts';
import { normalisePayload } from '../../engine/normalise.ts';
import { compilePayloadValidator, type PayloadValidator } from '../../engine/payload-schema.ts';
import { formUploads } from '../../read-models/files.ts';
import type { EntityMeta } from '../../meta/types.ts';
import { limiter } from '../public-site/routes.ts';

/**
 * Suggestions (docs/site-content.md): what the public — or a signed-in population user — sends
 * from the public site's form (topic, text, how to answer, an optional photo); staff answer it in
 * the back-office through the workflow's `answer` action, and the answer is stored on the row for
 * the sender with `reply_state = pending`.
 *
 * Delivery by the sender's chosen method (e-mail, SMS, in-app) is the notifications module's: it
 * subscribes to `onSuggestionAnswered` (below), which runs inside the answer's transaction
 * (api/modules/notifications/suggestions.ts). The sender's language (`lang_code`) is the one the
 * form was sent in.
 */
/** A delivery listener answers whether it queued the answer for delivery (`false`: nothing will carry it); nothing said is not counted. */
export type SuggestionAnsweredListener = (ctx: HookContext, row: Record<string, unknown>) => Promise<boolean | void>;
const answeredListeners: SuggestionAnsweredListener[] = [];

/** The hook point for delivering an answer: called in the answer's transaction with the answered row. */
export function onSuggestionAnswered(listener: SuggestionAnsweredListener): () => void {
  answeredListeners.push(listener);
  return () => {
    const i = answeredListeners.indexOf(listener);
    if (i >= 0) answeredListeners.splice(i, 1);
  };
}

export const SUGGESTION_HOOKS: Record<string, Hook> = {
  /** A new suggestion's source: the public site's (nobody signed in), a population user's own, or typed in by staff. */
  'suggestion.afterWrite': async ({ row, before, principal }) => {
    if (before) return {};
    const actor = actorOf(principal);
    return { source: actor === null ? 'public' : Number(row.sender_user_id ?? 0) === actor ? 'population' : 'staff' } as HookResult;
  },

  /**
   * The answer: stored with who and when, waiting to be delivered (`pending`, until the delivery
   * settles it `sent` or `failed`); then every registered listener runs. When the listeners queued
   * nothing that could ever settle it (no active type or template, no address), it is `failed` at
   * once — a `pending` nothing will end would say forever that the answer is on its way.
   */
  'suggestion.answered': async (ctx) => {
    const out = { answered_at: new Date().toISOString(), answered_by: actorOf(ctx.principal), reply_state: 'pending' };
    const queued: boolean[] = [];
    for (const l of answeredListeners) {
      const said = await l(ctx, { ...ctx.row, ...out });
      if (typeof said === 'boolean') queued.push(said);
    }
    if (queued.length && !queued.some(Boolean)) out.reply_state = 'failed';
    return out;
  },
};

/** What the public form may say; the rest of a suggestion is the staff's. */
const PUBLIC_FIELDS = ['topic', 'text', 'sender_name', 'reply_method', 'email', 'phone', 'photo'];

const validators = new WeakMap<EntityMeta, PayloadValidator>();
const formValidator = (e: EntityMeta) => {
  let v = validators.get(e);
  if (!v) validators.set(e, (v = compilePayloadValidator(e, 'create')));
  return v;
};

export const SUGGESTION_HANDLERS: Record<string, RouteHandler> = {
  /**
   * The public suggestion form: limited per address with the other public forms (429 over the
   * limit, nothing stored), only the form's fields taken and validated like the entity (a 400 names
   * each field), the photo one uploaded through the public form, saved through the engine — as
   * nobody for a visitor, as themselves (the sender) for a signed-in user, who alone may ask for the
   * answer in the back-office (`in_app`). Answers its id; nothing of it is readable publicly.
   */
  'site-content.suggest': async (ctx, { knex, model, lang, principal, trustedRepo }) => {
    if (!(await limiter(knex).take(`suggestion:${ctx.ip}`))) throw new ApiError('tooManyAttempts', 'errors.too_many_submissions');
    const entity = model.entities.get('suggestion')!;
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const data = normalisePayload(entity, Object.fromEntries(PUBLIC_FIELDS.filter((f) => f in body).map((f) => [f, body[f]])));
    const errors = formValidator(entity)(data);
    if (errors) throw validationError(errors);
    const user = principal && actorOf(principal) !== null ? principal : null;
    if (data.reply_method === 'email' && !data.email) throw validationError({ email: { key: 'validation.suggestion_contact' } });
    if (data.reply_method === 'sms' && !data.phone) throw validationError({ phone: { key: 'validation.suggestion_contact' } });
    if (data.reply_method === 'in_app' && !user) throw validationError({ reply_method: { key: 'errors.suggestion_in_app' } });
    // a photo uploaded through the public form, or by the signed-in sender themselves
    if (data.photo && !(await formUploads(knex, [data.photo as number], user?.id ?? null, ['image'])).has(Number(data.photo))) {
      throw validationError({ photo: { key: 'errors.public_file' } });
    }
    // as the signed-in sender, or as nobody (a principal is always a user: actorOf is its id)
    const row = await trustedRepo('suggestion').create(
      { ...data, sender_user_id: user?.id ?? null, lang_code: lang },
      { fields: ['sender_user_id', 'lang_code'] },
    );
    ctx.status = 201;
    ctx.body = { id: row.id, status: row.status };
  },
};
