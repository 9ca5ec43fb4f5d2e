import { HttpError, useNotify, useTranslate } from 'react-admin';
import { request } from '../api/http';
import { errorMessage } from '../api/useFetch';
import { cleanFilter } from '../api/dataProvider';
import type { EntityMeta, WorkflowActionMeta } from '../meta/types';
import { formatNumber } from './format';
import type { Target } from './workflowActions';

/**
 * Runs a workflow action: `POST path/:id/actions/:name` (with the row's version), or
 * `POST path/actions/:name {ids}` / `{all: true}` with the list's filter in the query string.
 * Field errors (400) are given back for the dialog's inputs; every error is notified.
 */
export function useRunAction(entity: EntityMeta) {
  const notify = useNotify();
  const translate = useTranslate();
  return async (
    action: WorkflowActionMeta,
    target: Target,
    values: Record<string, unknown>,
  ): Promise<{ ok: boolean; errors?: Record<string, unknown>; message?: string; description?: string }> => {
    const label = translate(action.label);
    const name = encodeURIComponent(action.name);
    try {
      if (target.kind === 'one') {
        await request(`${entity.path}/${target.record.id}/actions/${name}`, {
          method: 'POST',
          body: { ...values, version: target.record.version },
        });
        notify('admin.workflow.done', { type: 'info', messageArgs: { action: label } });
      } else {
        const query = target.kind === 'all' ? `?${new URLSearchParams({ filter: JSON.stringify(cleanFilter(target.filter)) })}` : '';
        const body = target.kind === 'all' ? { ...values, all: true } : { ...values, ids: target.ids };
        const res = await request(`${entity.path}/actions/${name}${query}`, { method: 'POST', body });
        const { ids, changed } = (await res.json()) as { ids: unknown[]; changed: number };
        notify(target.kind === 'all' ? 'admin.workflow.done_all' : 'admin.workflow.done_many', {
          type: 'info',
          messageArgs: { action: label, changed: formatNumber(changed, 0), total: formatNumber(ids.length, 0) },
        });
      }
      return { ok: true };
    } catch (err) {
      const message = errorMessage(err);
      notify(message, { type: 'error', messageArgs: { _: message } });
      const errors = err instanceof HttpError ? (err.body?.errors as Record<string, unknown> | undefined) : undefined;
      const description = err instanceof HttpError && typeof err.body?.description === 'string' ? err.body.description : undefined;
      return { ok: false, errors, message, description };
    }
  };
}
