import { useState, type ReactNode } from 'react';
import { ListItemText, Menu, MenuItem } from '@mui/material';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import { Button, useListContext, useRefresh, useTranslate } from 'react-admin';
import type { EntityMeta, WorkflowActionMeta } from '../meta/types';
import { ActionDialog } from './ActionDialog';
import { formatNumber } from './format';
import { bulkActions } from './workflowActions';

/** In the list's top toolbar: each bulk action on every row of the list as filtered now. */
export function AllRowsActionsButton({
  entity,
  permanentFilter,
}: {
  entity: EntityMeta;
  permanentFilter?: Record<string, unknown>;
}): ReactNode {
  const { filterValues, total } = useListContext();
  const translate = useTranslate();
  const refresh = useRefresh();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [current, setCurrent] = useState<WorkflowActionMeta | null>(null);
  const actions = bulkActions(entity);
  if (!actions.length) return null;
  return (
    <>
      <Button label="admin.workflow.all_rows" onClick={(e) => setAnchor(e.currentTarget)} disabled={!total} data-testid="bulk-all-menu">
        <DoneAllIcon />
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {actions.map((a) => (
          <MenuItem
            key={a.name}
            onClick={() => {
              setAnchor(null);
              setCurrent(a);
            }}
            data-testid={`bulk-all-${a.name}`}
          >
            <ListItemText
              primary={translate(a.label)}
              secondary={translate('admin.workflow.all_rows_count', { count: formatNumber(total ?? 0, 0) })}
            />
          </MenuItem>
        ))}
      </Menu>
      {current && (
        <ActionDialog
          entity={entity}
          action={current}
          target={{ kind: 'all', filter: { ...filterValues, ...permanentFilter }, total: total ?? 0 }}
          open
          onClose={() => setCurrent(null)}
          onDone={() => {
            setCurrent(null);
            refresh();
          }}
        />
      )}
    </>
  );
}
