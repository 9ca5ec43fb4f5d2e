import { hasDeliveries } from '../../read-models/notifications.ts';
import { onSuggestionAnswered } from '../site-content/suggestions.ts';
import { LANGS, notify, onDeliverySettled } from '../../notify/queue.ts';
import { ANONYMOUS } from '../../auth/ability.ts';
import { repositoryOf } from '../../engine/repository.ts';
import type { Lang } from '../../meta/types.ts';

/**
 * A suggestion's answer reaches its sender by the method they chose (docs/site-content.md,
 * docs/notifications.md): a notification of type `suggestion-answered` queued in the answer's
 * transaction — to the sender's e-mail or phone (an address-only delivery: a visitor is nobody's
 * account) in the language the suggestion was written in, or, for a signed-in sender who asked so,
 * in-app to them. The worker sends it; a refused answer queues nothing. When the delivery has
 * settled the worker tells the suggestion: its `reply_state` becomes `sent` or `failed`, written
 * through the engine (one audit row, action `reply-delivered`).
 */
export function deliverSuggestionAnswers(): () => void {
  const settled = onDeliverySettled('suggestion', async (knex, model, rows) => {
    const repo = repositoryOf({ knex, model, principal: ANONYMOUS, lang: 'uz', trusted: true }, 'suggestion');
    for (const { id, state } of rows) {
      // a suggestion deleted meanwhile has nothing to tell
      const row = await repo.scoped('read').where({ 't.id': id }).first('t.reply_state');
      if (!row || row.reply_state === state) continue;
      await repo.update(id, { reply_state: state }, undefined, { fields: ['reply_state'], anyVersion: true, action: 'reply-delivered' });
    }
  });
  const answered = onSuggestionAnswered(async (ctx, row) => {
    const vars = { id: row.id, sender_name: row.sender_name, answer: row.answer };
    const source = { entity: 'suggestion', id: row.id as number };
    const lang: Lang = LANGS.includes(row.lang_code as Lang) ? (row.lang_code as Lang) : 'uz';
    const address = row.reply_method === 'email' ? row.email : row.reply_method === 'sms' ? row.phone : null;
    let sent: Record<string, unknown> | null = null;
    if (typeof address === 'string' && address) {
      sent = await notify(
        ctx.trx,
        ctx.model,
        { type: 'suggestion-answered', to: { address: { to: address, lang } }, vars, source },
        ctx.principal,
      );
    } else if (row.reply_method === 'in_app' && row.sender_user_id != null) {
      sent = await notify(
        ctx.trx,
        ctx.model,
        { type: 'suggestion-answered', to: { user_id: Number(row.sender_user_id) }, vars, channels: ['in_app'], source },
        ctx.principal,
      );
    }
    // a delivery queued will settle the answer's reply_state; none (the type or its template off, no address) never will
    return !!sent && (await hasDeliveries(ctx.trx, Number(sent.id)));
  });
  return () => {
    settled();
    answered();
  };
}
