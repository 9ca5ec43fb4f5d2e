import type { Hook } from '../types.ts';
import { ApiError } from '../../kernel/errors.ts';
import { LANGS, pending, queueDeliveries } from '../../notify/queue.ts';
import { unknownPlaceholder, variableNames, type Text3 } from '../../notify/render.ts';

/** A template's or a type's templates' placeholders against the type's variables: a 400 naming the first unknown one, beside its field. */
function checkTexts(tpl: { subject?: unknown; body?: unknown }, variables: string | null): void {
  const vars = variableNames(variables);
  for (const field of ['subject', 'body'] as const) {
    const t = (tpl[field] ?? {}) as Text3;
    const name = unknownPlaceholder(
      LANGS.map((l) => t[l]),
      vars,
    );
    if (name !== null)
      throw new ApiError(
        'validation',
        'errors.unknown_placeholder',
        { name },
        { [field]: { key: 'errors.unknown_placeholder', args: { name } } },
      );
  }
}

export const NOTIFICATION_HOOKS: Record<string, Hook> = {
  /** A template saved: its placeholders in every language are variables its type declares. */
  'notifications.checkTemplate': async ({ repo, row }) => {
    const type = await repo('notification-types')
      .scoped('read')
      .where('t.id', row.type_id as number)
      .first('t.variables');
    checkTexts(row, type?.variables ?? null);
  },
  /** A type's variables changed: its templates must still use only those. */
  'notifications.checkType': async ({ repo, row, changed }) => {
    if (!changed.has('variables')) return;
    for (const tpl of await repo('notification-templates')
      .scoped('read')
      .where('t.type_id', row.id as number)
      .select('t.subject', 't.body')) {
      try {
        checkTexts(tpl, row.variables as string | null);
      } catch (err) {
        if (err instanceof ApiError)
          throw new ApiError('validation', err.messageKey, err.args, { variables: { key: err.messageKey, args: err.args } });
        throw err;
      }
    }
  },
  /** A notification written: its deliveries queued in the same transaction; the row records how many. */
  'notifications.queue': async ({ trx, row, action }) => {
    if (action !== 'create') return;
    return { recipients: await queueDeliveries(trx, row, pending.getStore() ?? {}) };
  },
};
