import { Fragment, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { Box, Card, CardContent, Divider, Grid, Tab, Tabs, Typography } from '@mui/material';
import InboxIcon from '@mui/icons-material/Inbox';
import EditIcon from '@mui/icons-material/Edit';
import ListIcon from '@mui/icons-material/List';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import {
  BulkDeleteButton, Button, Create, CreateButton, Datagrid, DeleteButton, Edit, FilterButton, Labeled, List, Pagination, ResourceContextProvider,
  SaveButton, Show, ShowButton, SimpleForm, Toolbar, TopToolbar, useListContext, useRecordContext, useResourceContext,
  useTranslate, type RaRecord,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { useMeta } from '../meta/store';
import type { MetaModel, RelatedList } from '../meta/model';
import type { EntityMeta, FieldMeta } from '../meta/types';
import { MetaField } from './MetaField';
import { useLang } from './useLang';
import type { MetaFieldProps } from './MetaFieldProps';
import { RecordName } from './RecordName';
import { DATAGRID_SX } from './listLayout';
import { OffscreenColumns } from './OffscreenColumns';
import { alignOf } from './figures';
import { defaultsOf, isDerived, MetaInput } from './inputs';
import { filterInputs } from './filters';
import { ExportButton, hasGeoJson } from './ExportButton';
import { EntityImportButton } from './ImportButton';
import { WorkflowButtons } from './WorkflowButtons';
import { BulkWorkflowButtons } from './BulkWorkflowButtons';
import { AllRowsActionsButton } from './AllRowsActionsButton';
import { bulkActions } from './workflowActions';
import { FlowHistory } from './FlowHistory';
import { RecordHistory } from './RecordHistory';
import { JsonTable } from './JsonTable';
import { filterCookieName, readFilterCookie, writeFilterCookie } from './filterCookies';
import { useExtension, useScreens } from './extensions';
import { PrintButton } from '../print/PrintButton';
import { SelectableRowsBody } from './SelectableRow';
import { FormSaveButton } from './FormSaveButton';
import { InvalidFormNotice } from './InvalidFormNotice';
import { PrintDocumentButton } from '../documents/PrintDocumentButton';

/** Spec §9: the page sizes of every list. */
export const PAGE_SIZES = [7, 10, 20, 25, 50, 100];

function useEntity(): EntityMeta {
  const resource = useResourceContext();
  const model = useMeta();
  const e = resource ? model.entity(resource) : undefined;
  if (!e) throw new Error(`no entity for resource ${resource}`);
  return e;
}

/** The resource whose show and edit pages a list's rows open: the list's own, or the entity's when the list is a param route's. */
function rowResource(model: MetaModel, resource: string, e: EntityMeta): string {
  return model.byResource.has(resource) ? resource : model.resourceOf(e.name) ?? resource;
}

/** Scalar values of a filter that a new row can take as its defaults (a stack's payments: its stack_id). */
function defaultsFromFilter(filter: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filter ?? {}).filter(([, v]) => typeof v === 'number' || (typeof v === 'string' && !v.startsWith(':'))));
}

interface ListOptions {
  /** a filter always applied and not shown (the route's preset, a param route's, the shown row's) */
  permanentFilter?: Record<string, unknown>;
  /** inside another page: no title, no location sync, nothing kept in the store */
  embedded?: boolean;
  /** where the list keeps its filters, sort and page (default: its resource) */
  storeKey?: string;
}

function ListActions({ entity, hasFilters, permanentFilter, createResource }: { entity: EntityMeta; hasFilters: boolean; permanentFilter?: Record<string, unknown>; createResource: string }) {
  const { listActions: Extra } = useExtension(entity.name);
  const defaults = defaultsFromFilter(permanentFilter);
  return (
    <TopToolbar>
      {hasFilters && <FilterButton />}
      {Extra && <Extra entity={entity} />}
      {bulkActions(entity).length > 0 && <AllRowsActionsButton entity={entity} permanentFilter={permanentFilter} />}
      {entity.can.create && (
        <CreateButton data-testid="create-button" resource={createResource} state={Object.keys(defaults).length ? { record: defaults } : undefined} />
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
  useEffect(() => { writeFilterCookie(entity, JSON.parse(json) as Record<string, unknown>); }, [entity, json]);
  return null;
}

function EmptyList({ entity, createResource, defaults, embedded }: { entity: EntityMeta; createResource: string; defaults: Record<string, unknown>; embedded?: boolean }) {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: embedded ? 0 : 2, width: '100%' }} variant={embedded ? 'outlined' : 'elevation'} data-testid="list-empty">
      <CardContent sx={{ textAlign: 'center', py: embedded ? 3 : 6 }}>
        <InboxIcon sx={{ fontSize: embedded ? 40 : 64, color: 'text.disabled' }} />
        <Typography variant="h6" color="text.secondary" gutterBottom>{translate(entity.list.empty ?? 'admin.empty.no_data')}</Typography>
        {entity.can.create && (
          <CreateButton variant="contained" resource={createResource} state={Object.keys(defaults).length ? { record: defaults } : undefined} />
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
  const filters = useMemo(() => filterInputs(e, model, translate, lang, fixedKeys, customFilters), [e, model, translate, lang, fixedKeys, customFilters]);
  const keepsCookie = !embedded && !!filterCookieName(e) && model.byResource.has(resource);
  const kept = keepsCookie ? readFilterCookie(e) : undefined;
  const sortable = new Set([...e.list.columns, ...(e.list.sortable ?? []), e.list.sort[0], 'id']);
  // a column the fixed filter pins to one value says nothing (a stack's payments: the stack); one it narrows to several stays
  const pinned = new Set(Object.entries(fixed ?? {}).filter(([, v]) => !Array.isArray(v) || v.length === 1).map(([k]) => k));
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
      storeKey={embedded ? false : storeKey ?? resource}
      title={embedded ? ' ' : undefined}
      sx={{
        minWidth: 0,
        '& .RaList-main': { minWidth: 0, ...(embedded ? { mt: 0 } : {}) },
        // wide lists scroll inside their card; so do bulk actions too many for one line
        '& .RaDatagrid-tableWrapper': { overflowX: 'auto' },
        // as tall as the filter inputs it covers while rows are selected
        '& .RaBulkActionsToolbar-toolbar': { gap: 1 },
        '& .RaBulkActionsToolbar-toolbar:not(.RaBulkActionsToolbar-collapsed)': { height: 56, minHeight: 56, transform: 'translateY(-56px)' },
        '& .RaBulkActionsToolbar-topToolbar': { flex: '1 1 auto', minWidth: 0, flexWrap: 'nowrap', overflowX: 'auto', justifyContent: 'flex-start', '& .MuiButton-root': { whiteSpace: 'nowrap', flexShrink: 0 } },
      }}
      data-testid={embedded ? 'embedded-list' : undefined}
    >
      {keepsCookie && <FilterCookieSync entity={e} />}
      <OffscreenColumns />
      <Datagrid
        body={<SelectableRowsBody entity={e} />}
        rowClick={rowClick}
        bulkActionButtons={hasBulk ? (
          <>
            <BulkWorkflowButtons entity={e} />
            {e.can.delete && <BulkDeleteButton mutationMode="pessimistic" />}
          </>
        ) : false}
        empty={<Typography sx={{ p: 2 }} color="text.secondary">{translate('ra.navigation.no_filtered_results')}</Typography>}
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
        <RowButtons label={false} entity={e} target={target} />
      </Datagrid>
    </List>
  );
}

/** A list inside another page (a tab of a show page), under its own resource. */
export function EmbeddedList({ resource, filter }: { resource: string; filter: Record<string, unknown> }) {
  return (
    <ResourceContextProvider value={resource}>
      <EntityList permanentFilter={filter} embedded />
    </ResourceContextProvider>
  );
}

/** Whether a row's state lets it be edited or deleted (its workflow's `editable` states; every state when it names none). */
export function editableState(entity: EntityMeta, record: RaRecord | undefined): boolean {
  const wf = entity.workflow;
  return !record || !wf?.editable || wf.editable.includes(record[wf.field] as string);
}

/** The buttons at the end of a row; `label={false}` keeps the column header blank. */
function RowButtons({ entity, target }: { entity: EntityMeta; target: string; label?: false }) {
  const record = useRecordContext();
  const editable = editableState(entity, record);
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 0.5 }}>
      {!entity.can.update && record && <ShowButton resource={target} />}
      {entity.can.delete && editable && <DeleteButton mutationMode="pessimistic" resource={target} data-testid="row-delete" />}
    </Box>
  );
}

/** The form's inputs, in the metadata's sections when it has them. */
function FormBody({ entity, mode }: { entity: EntityMeta; mode: 'create' | 'edit' }) {
  const translate = useTranslate();
  const hints = useExtension(entity.name).formHints ?? {};
  const byName = new Map(entity.fields.map((f) => [f.name, f]));
  // a section none of whose fields has an input here (a create form's computed ones) is left out, heading and all
  const input = (f: FieldMeta | undefined): f is FieldMeta => !!f && !f.hidden && !(mode === 'create' && isDerived(f));
  const sections = (entity.form?.sections?.length
    ? entity.form.sections.map((s) => ({ label: s.label, fields: s.fields.map((n) => byName.get(n)).filter(input) }))
    : [{ label: undefined, fields: entity.fields.filter(input) }]).filter((s) => s.fields.length);
  return (
    <>
      {sections.map((s, i) => (
        <Box key={s.label ?? i} sx={{ width: '100%', maxWidth: 960 }}>
          {s.label && (
            <>
              {i > 0 && <Divider sx={{ my: 2 }} />}
              <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>{translate(s.label)}</Typography>
            </>
          )}
          {s.fields.map((f) => {
            const Hint = hints[f.name];
            return Hint ? <Fragment key={f.name}><MetaInput field={f} mode={mode} /><Hint entity={entity} /></Fragment> : <MetaInput key={f.name} field={f} mode={mode} />;
          })}
        </Box>
      ))}
    </>
  );
}

function EditToolbar({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <FormSaveButton entity={entity} />
      {entity.can.delete && editableState(entity, record) && <DeleteButton mutationMode="pessimistic" data-testid="form-delete" />}
    </Toolbar>
  );
}

/** "Payments — 12" on a row's pages: the resource's caption and the row's title. */
function RecordPageTitle({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const model = useMeta();
  const translate = useTranslate();
  const { fieldViews = {} } = useExtension(entity.name);
  const caption = translate(model.captionOf.get(resource) ?? entity.caption);
  const TitleView = fieldViews[entity.titleField];
  const field = TitleView ? model.field(entity, entity.titleField) : undefined;
  if (record && TitleView && field) return <span>{caption} — <TitleView source={field.name} field={field} /></span>;
  return <span>{record ? <>{caption} — <RecordName entity={entity} record={record} /></> : caption}</span>;
}

export function EntityCreate() {
  const e = useEntity();
  return (
    <Create redirect="list">
      <SimpleForm defaultValues={defaultsOf(e)} toolbar={<Toolbar><FormSaveButton entity={e} /></Toolbar>} data-testid="entity-form" disableInvalidFormNotification>
        <InvalidFormNotice />
        <FormBody entity={e} mode="create" />
      </SimpleForm>
    </Create>
  );
}

function ShowLink() {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const model = useMeta();
  if (!record) return null;
  return (
    <Button label="ra.action.show" component={Link} to={model.showPath(resource, record.id)} data-testid="show-button">
      <OpenInNewIcon />
    </Button>
  );
}

export function EntityEdit() {
  const e = useEntity();
  return (
    <Edit mutationMode="pessimistic" redirect="list" title={<RecordPageTitle entity={e} />} actions={<TopToolbar sx={{ flexWrap: 'wrap', gap: 1 }}><WorkflowButtons entity={e} /><RouteLinks entity={e} /><ShowLink /></TopToolbar>}>
      <SimpleForm toolbar={<EditToolbar entity={e} />} data-testid="entity-form" disableInvalidFormNotification>
        <InvalidFormNotice />
        <FormBody entity={e} mode="edit" />
      </SimpleForm>
    </Edit>
  );
}

/** Links from a row's page to the param routes that list its rows elsewhere ("its payments"), and to special screens about it. */
function RouteLinks({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const model = useMeta();
  const screens = useScreens();
  if (!record) return null;
  const links: { to: string; caption: string; key: string }[] = [];
  for (const r of model.routes) {
    if (!r.allowed || r.params.length !== 1) continue;
    const param = r.params[0];
    const path = `/${r.path.replace(`:${param}`, String(record.id))}`;
    if (r.kind === 'param-list') {
      const other = model.byName.get(r.entity!);
      const [field] = Object.entries(r.filter ?? {}).find(([, v]) => v === `:${param}`) ?? [];
      const f = field && other ? other.fields.find((x) => x.name === field) : undefined;
      if (f?.type === 'ref' && f.ref === entity.name) links.push({ to: path, caption: r.caption, key: r.path });
    } else if (r.kind === 'screen' && screens[r.path]?.linkFrom === entity.name) {
      links.push({ to: path, caption: screens[r.path].linkLabel ?? r.caption, key: r.path });
    }
  }
  return (
    <>
      {links.map((l) => (
        <Button key={l.key} label={l.caption} component={Link} to={l.to} data-testid={`route-link-${l.key.split('/').slice(0, -1).join('-')}`}>
          <ListIcon />
        </Button>
      ))}
    </>
  );
}

function EditLink({ entity }: { entity: EntityMeta }) {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const model = useMeta();
  // a row its workflow has moved past editing (a sent report) is changed by its actions only
  if (!record || !entity.can.update || !editableState(entity, record)) return null;
  return (
    <Button label="ra.action.edit" component={Link} to={model.editPath(resource, record.id)} data-testid="edit-button">
      <EditIcon />
    </Button>
  );
}

function ShowActions({ entity }: { entity: EntityMeta }) {
  const { showActions: Extra } = useExtension(entity.name);
  return (
    <TopToolbar sx={{ flexWrap: 'wrap', gap: 1 }}>
      <WorkflowButtons entity={entity} />
      {Extra && <Extra entity={entity} />}
      <RouteLinks entity={entity} />
      <PrintButton entity={entity} />
      <PrintDocumentButton entity={entity} />
      <EditLink entity={entity} />
    </TopToolbar>
  );
}

/** Values that need a whole row: tables, file lists, long text, maps. */
const WIDE = new Set(['children', 'files', 'text', 'point', 'refs', 'json']);

/**
 * The row's fields in a grid, grouped as its form is (the fields no form section names, such as
 * its state and computed values, first), then its workflow history.
 */
function MainTab({ entity }: { entity: EntityMeta }) {
  const model = useMeta();
  const translate = useTranslate();
  const record = useRecordContext();
  const { fieldViews = {} } = useExtension(entity.name);
  // JSON values (an audit row's before and after) are a table of their own below the grid, side by side
  const json = entity.fields.filter((f) => f.type === 'json' && !f.hidden && !f.form);
  // a form's values (a control zone's) are a field of the grid, captioned by the form's schema
  const shown = (f: FieldMeta | undefined): f is FieldMeta => !!f && !f.hidden && f.type !== 'password' && (f.type !== 'json' || !!f.form);
  const byName = new Map(entity.fields.map((f) => [f.name, f]));
  const sections = (entity.form?.sections ?? []).map((sec) => ({ label: sec.label, fields: sec.fields.map((n) => byName.get(n)).filter(shown) }));
  const inSections = new Set(sections.flatMap((sec) => sec.fields.map((f) => f.name)));
  const rest = entity.fields.filter((f) => shown(f) && !inSections.has(f.name));
  const groups = [{ label: undefined as string | undefined, fields: [model.field(entity, 'id')!, ...rest] }, ...sections];
  // when the row was last changed; a log without bookkeeping columns, when it was written
  const stamp = !record || 'updated_at' in record ? 'updated_at' : 'created_at';
  groups[groups.length - 1].fields.push(model.field(entity, stamp)!);
  return (
    <>
      <Box sx={{ p: 2 }} data-testid="entity-show">
        {groups.filter((g) => g.fields.length).map((g, i) => (
          <Box key={g.label ?? i} sx={{ mb: 1 }}>
            {g.label && (
              <>
                {i > 0 && <Divider sx={{ mb: 1.5 }} />}
                <Typography variant="subtitle2" color="primary" sx={{ fontWeight: 600, mb: 1 }}>{translate(g.label)}</Typography>
              </>
            )}
            <Grid container columnSpacing={3} rowSpacing={1.5} sx={{ mb: 1.5 }}>
              {g.fields.map((f) => (
                <Grid key={f.name} size={WIDE.has(f.type) ? 12 : { xs: 12, sm: 6, md: 4 }} sx={{ minWidth: 0 }}>
                  <Labeled label={f.label} className={`ra-field-${f.name}`}>
                    <FieldView view={fieldViews[f.name]} field={f} />
                  </Labeled>
                </Grid>
              ))}
            </Grid>
          </Box>
        ))}
        {json.length > 0 && (
          <Box className={json.map((f) => `ra-field-${f.name}`).join(' ')} data-testid="json-fields">
            <Divider sx={{ mb: 1.5 }} />
            <JsonTable fields={json} view={MetaField} />
          </Box>
        )}
      </Box>
      {entity.workflow && <Box sx={{ px: 2, pb: 2 }}><FlowHistory entity={entity} /></Box>}
    </>
  );
}

/** A field's value on the page: the entity's own view of it where a special screen gives one, else by its kind. */
function FieldView({ view: View = MetaField, field }: { view?: ComponentType<MetaFieldProps>; field: FieldMeta }) {
  return <View source={field.name} label={field.label} field={field} />;
}

function RelatedTab({ related }: { related: RelatedList }) {
  const record = useRecordContext();
  if (!record) return null;
  return <EmbeddedList resource={related.resource} filter={{ [related.field]: record.id }} />;
}

interface ShowTab { key: string; label: string; render: () => ReactNode }

/**
 * A row's page: its fields and workflow history, and a tab for each list of rows that point at it
 * (a subject's branches, payments, reports, acts…) and each tab a special screen adds.
 */
function ShowBody({ entity }: { entity: EntityMeta }) {
  const model = useMeta();
  const translate = useTranslate();
  const { showTabs = [] } = useExtension(entity.name);
  const record = useRecordContext();
  const [tab, setTab] = useState('main');
  const tabs: ShowTab[] = [{ key: 'main', label: 'admin.show.main', render: () => <MainTab entity={entity} /> }];
  // documents show what points at them; a reference book's page stays a card
  if (entity.kind === 'document') {
    for (const r of model.relatedLists(entity)) {
      tabs.push({ key: `rel-${r.entity.name}-${r.field}`, label: r.caption, render: () => <RelatedTab related={r} /> });
    }
  }
  for (const t of showTabs) tabs.push({ key: t.key, label: t.label, render: () => <t.Component entity={entity} /> });
  // every row's trail of changes, last; a log's rows (no version: never changed) have none
  if (!record || 'version' in record) tabs.push({ key: 'history', label: 'admin.history.title', render: () => <RecordHistory entity={entity} /> });
  const current = tabs.find((t) => t.key === tab) ?? tabs[0];
  if (tabs.length === 1) return <>{current.render()}</>;
  return (
    <>
      <Tabs value={current.key} onChange={(_ev, v: string) => setTab(v)} variant="scrollable" scrollButtons="auto" sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}>
        {tabs.map((t) => <Tab key={t.key} value={t.key} label={translate(t.label)} data-testid={`show-tab-${t.key}`} />)}
      </Tabs>
      <Box sx={{ pt: current.key === 'main' ? 0 : 2, px: current.key === 'main' ? 0 : 2, pb: current.key === 'main' ? 0 : 2 }} data-testid={`show-panel-${current.key}`}>
        {current.render()}
      </Box>
    </>
  );
}

export function EntityShow() {
  const e = useEntity();
  return (
    <Show title={<RecordPageTitle entity={e} />} actions={<ShowActions entity={e} />}>
      <ShowBody entity={e} />
    </Show>
  );
}
