import { useEffect, useMemo } from 'react';
import { Box, Card, CardContent, Divider, Typography } from '@mui/material';
import InboxIcon from '@mui/icons-material/Inbox';
import {
  BulkDeleteButton, Create, CreateButton, Datagrid, DeleteButton, Edit, FilterButton, List, Pagination, SaveButton, Show,
  ShowButton, SimpleForm, SimpleShowLayout, Toolbar, TopToolbar, EditButton, useListContext, useResourceContext, useTranslate,
} from 'react-admin';
import { useMeta } from '../meta/store';
import type { EntityMeta, FieldMeta } from '../meta/types';
import { MetaField, useLang } from './fields';
import { defaultsOf, MetaInput } from './inputs';
import { filterInputs } from './filters';
import { ExportXlsxButton } from './ExportButton';
import { WorkflowButtons } from './WorkflowButtons';
import { filterCookieName, readFilterCookie, writeFilterCookie } from './filterCookies';

/** Spec §9: the page sizes of every list. */
export const PAGE_SIZES = [7, 10, 20, 25, 50, 100];

function useEntity(): EntityMeta {
  const resource = useResourceContext();
  const model = useMeta();
  const e = resource ? model.entity(resource) : undefined;
  if (!e) throw new Error(`no entity for resource ${resource}`);
  return e;
}

function ListActions({ entity, hasFilters }: { entity: EntityMeta; hasFilters: boolean }) {
  return (
    <TopToolbar>
      {hasFilters && <FilterButton />}
      {entity.can.create && <CreateButton data-testid="create-button" />}
      {entity.can.export && <ExportXlsxButton />}
    </TopToolbar>
  );
}

/** Keeps the list's filter in its cookie for an hour, for the entities that the spec says so. */
function FilterCookieSync({ entity }: { entity: string }) {
  const { filterValues } = useListContext();
  const json = JSON.stringify(filterValues ?? {});
  useEffect(() => { writeFilterCookie(entity, JSON.parse(json) as Record<string, unknown>); }, [entity, json]);
  return null;
}

function EmptyList({ entity }: { entity: EntityMeta }) {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2, width: '100%' }} data-testid="list-empty">
      <CardContent sx={{ textAlign: 'center', py: 6 }}>
        <InboxIcon sx={{ fontSize: 64, color: 'text.disabled' }} />
        <Typography variant="h6" color="text.secondary" gutterBottom>{translate('admin.empty.no_data')}</Typography>
        {entity.can.create && <CreateButton variant="contained" />}
      </CardContent>
    </Card>
  );
}

const columnField = (e: EntityMeta, model: ReturnType<typeof useMeta>, name: string): FieldMeta | undefined => model.field(e, name);

export function EntityList() {
  const e = useEntity();
  const model = useMeta();
  const translate = useTranslate();
  const lang = useLang();
  const filters = useMemo(() => filterInputs(e, model, translate, lang), [e, model, translate, lang]);
  const kept = filterCookieName(e.name) ? readFilterCookie(e.name) : undefined;
  const sortable = new Set([...e.list.columns, ...(e.list.sortable ?? []), e.list.sort[0], 'id']);
  const columns = e.list.columns.map((c) => columnField(e, model, c)).filter((f): f is FieldMeta => !!f && !f.hidden);
  return (
    <List
      sort={{ field: e.list.sort[0], order: e.list.sort[1] === 'desc' ? 'DESC' : 'ASC' }}
      perPage={e.list.perPage}
      filters={filters}
      filterDefaultValues={kept}
      actions={<ListActions entity={e} hasFilters={filters.length > 0} />}
      pagination={<Pagination rowsPerPageOptions={PAGE_SIZES} />}
      exporter={false}
      empty={<EmptyList entity={e} />}
    >
      {filterCookieName(e.name) && <FilterCookieSync entity={e.name} />}
      <Datagrid
        rowClick={e.can.update ? 'edit' : 'show'}
        bulkActionButtons={e.can.delete ? <BulkDeleteButton mutationMode="pessimistic" /> : false}
        empty={<Typography sx={{ p: 2 }} color="text.secondary">{translate('ra.navigation.no_filtered_results')}</Typography>}
        data-testid="entity-list"
        sx={{ '& .RaDatagrid-headerCell': { fontWeight: 600, whiteSpace: 'nowrap' }, '& td': { maxWidth: 420, overflow: 'hidden', textOverflow: 'ellipsis' } }}
      >
        {columns.map((f) => (
          <MetaField
            key={f.name}
            source={f.name}
            label={f.label}
            field={f}
            inList
            sortable={sortable.has(f.name) && f.type !== 'children' && f.type !== 'refs' && f.type !== 'files' && f.type !== 'point'}
            textAlign={f.type === 'money' || f.type === 'decimal' ? 'right' : undefined}
          />
        ))}
        <RowButtons label={false} entity={e} />
      </Datagrid>
    </List>
  );
}

/** The buttons at the end of a row; `label={false}` keeps the column header blank. */
function RowButtons({ entity }: { entity: EntityMeta; label?: false }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 0.5 }}>
      {!entity.can.update && <ShowButton />}
      {entity.can.delete && <DeleteButton mutationMode="pessimistic" data-testid="row-delete" />}
    </Box>
  );
}

/** The form's inputs, in the metadata's sections when it has them. */
function FormBody({ entity, mode }: { entity: EntityMeta; mode: 'create' | 'edit' }) {
  const translate = useTranslate();
  const byName = new Map(entity.fields.map((f) => [f.name, f]));
  const sections = entity.form?.sections?.length
    ? entity.form.sections.map((s) => ({ label: s.label, fields: s.fields.map((n) => byName.get(n)).filter((f): f is FieldMeta => !!f) }))
    : [{ label: undefined, fields: entity.fields }];
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
          {s.fields.map((f) => <MetaInput key={f.name} field={f} mode={mode} />)}
        </Box>
      ))}
    </>
  );
}

function EditToolbar({ entity }: { entity: EntityMeta }) {
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <SaveButton data-testid="save-button" />
      {entity.can.delete && <DeleteButton mutationMode="pessimistic" data-testid="form-delete" />}
    </Toolbar>
  );
}

export function EntityCreate() {
  const e = useEntity();
  return (
    <Create redirect="list">
      <SimpleForm defaultValues={defaultsOf(e)} toolbar={<Toolbar><SaveButton data-testid="save-button" /></Toolbar>} data-testid="entity-form">
        <FormBody entity={e} mode="create" />
      </SimpleForm>
    </Create>
  );
}

export function EntityEdit() {
  const e = useEntity();
  return (
    <Edit mutationMode="pessimistic" redirect="list" actions={<TopToolbar><WorkflowButtons entity={e} /><ShowButton /></TopToolbar>}>
      <SimpleForm toolbar={<EditToolbar entity={e} />} data-testid="entity-form">
        <FormBody entity={e} mode="edit" />
      </SimpleForm>
    </Edit>
  );
}

export function EntityShow() {
  const e = useEntity();
  const model = useMeta();
  const fields = [model.field(e, 'id')!, ...e.fields.filter((f) => !f.hidden && f.type !== 'password'), model.field(e, 'updated_at')!];
  return (
    <Show actions={<TopToolbar><WorkflowButtons entity={e} />{e.can.update && <EditButton />}</TopToolbar>}>
      <SimpleShowLayout data-testid="entity-show">
        {fields.map((f) => <MetaField key={f.name} source={f.name} label={f.label} field={f} />)}
      </SimpleShowLayout>
    </Show>
  );
}
