import { useEffect, useMemo } from 'react';
import { Box, Card, CardContent, IconButton, Tooltip, Typography } from '@mui/material';
import InboxIcon from '@mui/icons-material/Inbox';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import { Link } from 'react-router-dom';
import {
  CreateButton,
  Datagrid,
  FilterButton,
  List,
  Pagination,
  TopToolbar,
  useListContext,
  useRecordContext,
  useResourceContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useMeta } from '../meta/store';
import type { MetaModel } from '../meta/model';
import type { EntityMeta, FieldMeta } from '../meta/types';
import { MetaField } from './MetaField';
import { useLang } from './useLang';
import { useEntity } from './useEntity';
import { DeleteRecordButton, BulkDeleteRecordsButton } from './DeleteButtons';
import { deletable } from './deletion';
import { useRecordName } from './RecordName';
import { DATAGRID_SX } from './listLayout';
import { OffscreenColumns } from './OffscreenColumns';
import { alignOf } from './figures';
import { filterInputs } from './filters';
import { ExportButton, hasGeoJson } from './ExportButton';
import { EntityImportButton } from './EntityImportButton';
import { BulkWorkflowButtons } from './BulkWorkflowButtons';
import { AllRowsActionsButton } from './AllRowsActionsButton';
import { bulkActions } from './workflowActions';
import { filterCookieName, readFilterCookie, writeFilterCookie } from './filterCookies';
import { useExtension } from './extensions';
import { SelectableRowsBody } from './SelectableRow';

/** Spec §9: the page sizes of every list. */
export const PAGE_SIZES = [7, 10, 20, 25, 50, 100];

/** The resource whose show and edit pages a list's rows open: the list's own, or the entity's when the list is a param route's. */
function rowResource(model: MetaModel, resource: string, e: EntityMeta): string {
  return model.byResource.has(resource) ? resource : (model.resourceOf(e.name) ?? resource);
}

/** Scalar values of a filter that a new row can take as its defaults (a stack's payments: its stack_id). */
function defaultsFromFilter(filter: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filter ?? {}).filter(([, v]) => typeof v === 'number' || (typeof v === 'string' && !v.startsWith(':'))),
  );
}

interface ListOptions {
  /** a filter always applied and not shown (the route's preset, a param route's, the shown row's) */
  permanentFilter?: Record<string, unknown>;
  /** inside another page: no title, no location sync, nothing kept in the store */
  embedded?: boolean;
  /** where the list keeps its filters, sort and page (default: its resource) */
  storeKey?: string;
}

function ListActions({
  entity,
  hasFilters,
  permanentFilter,
  createResource,
}: {
  entity: EntityMeta;
  hasFilters: boolean;
  permanentFilter?: Record<string, unknown>;
  createResource: string;
}) {
  const { listActions: Extra } = useExtension(entity.name);
  const defaults = defaultsFromFilter(permanentFilter);
  return (
    <TopToolbar>
      {hasFilters && <FilterButton />}
      {Extra && <Extra entity={entity} />}
      {bulkActions(entity).length > 0 && <AllRowsActionsButton entity={entity} permanentFilter={permanentFilter} />}
      {entity.can.create && (
        <CreateButton
          data-testid="create-button"
          resource={createResource}
          state={Object.keys(defaults).length ? { record: defaults } : undefined}
        />
      )}
      {entity.import && entity.can.create && <EntityImportButton entity={entity} />}
      {entity.can.export && <ExportButton permanentFilter={permanentFilter} format="xlsx" />}
      {entity.can.export && hasGeoJson(entity) && <ExportButton permanentFilter={permanentFilter} format="geojson" />}
    </TopToolbar>
  );
}

/** Keeps the list's filter in its cookie for an hour, for the entities whose metadata names one. */
function FilterCookieSync({ entity }: { entity: EntityMeta }) {
  const { filterValues } = useListContext();
  const json = JSON.stringify(filterValues ?? {});
  useEffect(() => {
    writeFilterCookie(entity, JSON.parse(json) as Record<string, unknown>);
  }, [entity, json]);
  return null;
}

function EmptyList({
  entity,
  createResource,
  defaults,
  embedded,
}: {
  entity: EntityMeta;
  createResource: string;
  defaults: Record<string, unknown>;
  embedded?: boolean;
}) {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: embedded ? 0 : 2, width: '100%' }} variant={embedded ? 'outlined' : 'elevation'} data-testid="list-empty">
      <CardContent sx={{ textAlign: 'center', py: embedded ? 3 : 6 }}>
        <InboxIcon sx={{ fontSize: embedded ? 40 : 64, color: 'text.disabled' }} />
        <Typography variant="h6" color="text.secondary" gutterBottom>
          {translate(entity.list.empty ?? 'admin.empty.no_data')}
        </Typography>
        {entity.can.create && (
          <CreateButton
            variant="contained"
            resource={createResource}
            state={Object.keys(defaults).length ? { record: defaults } : undefined}
          />
        )}
      </CardContent>
    </Card>
  );
}

/**
 * An entity's list as its metadata says: columns, default sort, page size, filters (by each filter's
 * operator and field kind), export, bulk delete, and the entity's bulk workflow actions on the
 * selected rows or on every row of the filters. A route's preset filter, or the filter of a param
 * route or of the row a list is shown under, is applied and has no input.
 */
export function EntityList({ permanentFilter, embedded, storeKey }: ListOptions = {}) {
  const resource = useResourceContext()!;
  const e = useEntity();
  const model = useMeta();
  const translate = useTranslate();
  const lang = useLang();
  const fixed = permanentFilter ?? model.presetFilter(resource);
  const fixedKeys = useMemo(() => new Set(Object.keys(fixed ?? {})), [fixed]);
  const { fieldViews = {}, filterInputs: customFilters } = useExtension(e.name);
  const filters = useMemo(
    () => filterInputs(e, model, translate, lang, fixedKeys, customFilters),
    [e, model, translate, lang, fixedKeys, customFilters],
  );
  const keepsCookie = !embedded && !!filterCookieName(e) && model.byResource.has(resource);
  const kept = keepsCookie ? readFilterCookie(e) : undefined;
  const sortable = new Set([...e.list.columns, ...(e.list.sortable ?? []), e.list.sort[0], 'id']);
  // a column the fixed filter pins to one value says nothing (a stack's payments: the stack); one it narrows to several stays
  const pinned = new Set(
    Object.entries(fixed ?? {})
      .filter(([, v]) => !Array.isArray(v) || v.length === 1)
      .map(([k]) => k),
  );
  const columns = e.list.columns.map((c) => model.field(e, c)).filter((f): f is FieldMeta => !!f && !f.hidden && !pinned.has(f.name));
  const target = rowResource(model, resource, e);
  // reference books open their form, documents their page (actions, history, related lists)
  const opensForm = e.kind === 'reference' && e.can.update;
  const rowClick = (id: RaRecord['id']) => (opensForm ? model.editPath(target, id) : model.showPath(target, id));
  const hasBulk = e.can.delete || bulkActions(e).length > 0;
  const defaults = defaultsFromFilter(fixed);
  return (
    <List
      resource={resource}
      sort={{ field: e.list.sort[0], order: e.list.sort[1] === 'desc' ? 'DESC' : 'ASC' }}
      perPage={embedded ? Math.min(e.list.perPage, 10) : e.list.perPage}
      filters={filters}
      filter={fixed}
      filterDefaultValues={kept}
      actions={<ListActions entity={e} hasFilters={filters.length > 0} permanentFilter={fixed} createResource={target} />}
      pagination={<Pagination rowsPerPageOptions={PAGE_SIZES} />}
      exporter={false}
      empty={<EmptyList entity={e} createResource={target} defaults={defaults} embedded={embedded} />}
      disableSyncWithLocation={embedded}
      storeKey={embedded ? false : (storeKey ?? resource)}
      title={embedded ? ' ' : undefined}
      sx={{
        minWidth: 0,
        '& .RaList-main': { minWidth: 0, ...(embedded ? { mt: 0 } : {}) },
        // wide lists scroll inside their card; so do bulk actions too many for one line
        '& .RaDatagrid-tableWrapper': { overflowX: 'auto' },
        // as tall as the filter inputs it covers while rows are selected
        '& .RaBulkActionsToolbar-toolbar': { gap: 1 },
        '& .RaBulkActionsToolbar-toolbar:not(.RaBulkActionsToolbar-collapsed)': {
          height: 56,
          minHeight: 56,
          transform: 'translateY(-56px)',
        },
        '& .RaBulkActionsToolbar-topToolbar': {
          flex: '1 1 auto',
          minWidth: 0,
          flexWrap: 'nowrap',
          overflowX: 'auto',
          justifyContent: 'flex-start',
          '& .MuiButton-root': { whiteSpace: 'nowrap', flexShrink: 0 },
        },
      }}
      data-testid={embedded ? 'embedded-list' : undefined}
    >
      {keepsCookie && <FilterCookieSync entity={e} />}
      <OffscreenColumns />
      <Datagrid
        body={<SelectableRowsBody entity={e} />}
        rowClick={rowClick}
        bulkActionButtons={
          hasBulk ? (
            <>
              <BulkWorkflowButtons entity={e} />
              {e.can.delete && <BulkDeleteRecordsButton entity={e} />}
            </>
          ) : (
            false
          )
        }
        empty={
          <Typography sx={{ p: 2 }} color="text.secondary">
            {translate('ra.navigation.no_filtered_results')}
          </Typography>
        }
        data-testid="entity-list"
        sx={DATAGRID_SX}
      >
        {columns.map((f) => {
          const View = fieldViews[f.name] ?? MetaField;
          return (
            <View
              key={f.name}
              source={f.name}
              label={f.label}
              field={f}
              inList
              sortable={sortable.has(f.name) && f.type !== 'children' && f.type !== 'refs' && f.type !== 'files' && f.type !== 'point'}
              textAlign={alignOf(f)}
            />
          );
        })}
        <RowButtons label={false} entity={e} target={target} path={rowClick} />
      </Datagrid>
    </List>
  );
}

/**
 * The end of a row: a link that opens it (where a click on the row goes), reachable by Tab and
 * followed by Enter, named after the row ("«Chinor» ochish"); then, apart and red, its delete.
 * `label={false}` keeps the column header blank.
 */
function RowButtons({ entity, target, path }: { entity: EntityMeta; target: string; path: (id: RaRecord['id']) => string; label?: false }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const name = useRecordName(entity, record);
  if (!record) return null;
  const open = translate('admin.action.open_row', { title: name });
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 0.5 }}>
      <Tooltip title={open}>
        <IconButton
          component={Link}
          to={path(record.id)}
          size="small"
          color="primary"
          aria-label={open}
          // the row's own click would open it a second time
          onClick={(ev: React.MouseEvent) => ev.stopPropagation()}
          data-testid="row-open"
        >
          <ArrowForwardIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {deletable(entity, record) && (
        <Box sx={{ ml: 1.5, pl: 1, borderLeft: 1, borderColor: 'divider' }}>
          <DeleteRecordButton entity={entity} resource={target} variant="icon" />
        </Box>
      )}
    </Box>
  );
}
