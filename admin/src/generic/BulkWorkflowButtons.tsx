import { useState } from 'react';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Button, useListContext, useNotify, useRefresh } from 'react-admin';
import type { EntityMeta, WorkflowActionMeta } from '../meta/types';
import { ActionDialog } from './ActionDialog';
import { bulkActions, rowActions, type Target } from './workflowActions';

/**
 * In the list's bulk-action toolbar: each bulk action on the selected rows, and each one-row action
 * on the selected row — which asks for exactly one ("Select the needed row", spec §5) before it runs.
 */
export function BulkWorkflowButtons({ entity }: { entity: EntityMeta }) {
  const { selectedIds, onUnselectItems, data } = useListContext();
  const refresh = useRefresh();
  const notify = useNotify();
  const [current, setCurrent] = useState<{ action: WorkflowActionMeta; target: Target } | null>(null);
  const actions = bulkActions(entity);
  const single = rowActions(entity);
  if (!actions.length && !single.length) return null;
  const one = (a: WorkflowActionMeta) => {
    const record = selectedIds.length === 1 ? data?.find((r) => r.id === selectedIds[0]) : undefined;
    if (!record) {
      notify('errors.select_row', { type: 'warning' });
      return;
    }
    setCurrent({ action: a, target: { kind: 'one', record } });
  };
  return (
    <>
      {actions.map((a) => (
        <Button
          key={a.name}
          label={a.label}
          onClick={() => setCurrent({ action: a, target: { kind: 'many', ids: selectedIds } })}
          data-testid={`bulk-${a.name}`}
        >
          <PlayArrowIcon />
        </Button>
      ))}
      {single.map((a) => (
        <Button key={a.name} label={a.label} onClick={() => one(a)} data-testid={`row-${a.name}`}>
          <PlayArrowIcon />
        </Button>
      ))}
      {current && (
        <ActionDialog
          entity={entity}
          action={current.action}
          target={current.target}
          open
          onClose={() => setCurrent(null)}
          onDone={() => {
            setCurrent(null);
            onUnselectItems();
            refresh();
          }}
        />
      )}
    </>
  );
}
