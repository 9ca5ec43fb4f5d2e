import simpleRestProvider from 'ra-data-simple-rest';
import { startExport, type Job } from './jobs';
import { HttpError, type DataProvider, type SortPayload } from 'react-admin';
import { fetchJson, request } from './http';
import { getMetaModel } from '../meta/store';
import type { EntityMeta } from '../meta/types';

/**
 * react-admin's simple REST protocol, which the API speaks as it is (`sort`, `range`, `filter`,
 * Content-Range), with three changes: a resource is mapped to its entity's API path; bulk delete
 * is one `POST path/delete-many`; and field errors of a three-language text are moved to its Uzbek
 * input, where the form can show them.
 */
const rest = simpleRestProvider('', fetchJson);

function entityOf(resource: string): EntityMeta {
  const e = getMetaModel()?.entity(resource);
  if (!e) throw new HttpError('ra.notification.data_provider_error', 404);
  return e;
}

/** `/api/ecofund-sprav/areas` → `api/ecofund-sprav/areas` (simple-rest puts the slash back). */
const pathOf = (resource: string) => entityOf(resource).path.replace(/^\//, '');

function moveFieldErrors(e: EntityMeta, err: unknown): never {
  if (err instanceof HttpError && err.body?.errors) {
    const errors: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(err.body.errors as Record<string, unknown>)) {
      const f = e.fields.find((x) => x.name === k);
      errors[f?.type === 'text3' ? `${k}.uz` : k] = v;
    }
    throw new HttpError(err.message, err.status, { ...err.body, errors });
  }
  throw err;
}

/** A form's values without the repeats of its password fields (typed twice on the form, checked there, sent once). */
export function withoutRepeats<T extends { data: Record<string, unknown> }>(e: EntityMeta, params: T): T {
  const repeats = e.fields.filter((f) => f.type === 'password').map((f) => `${f.name}_repeat`);
  if (!repeats.some((k) => k in params.data)) return params;
  const data = { ...params.data };
  for (const k of repeats) delete data[k];
  return { ...params, data };
}

/** Range filters arrive as `from_x` / `to_x` (the inputs are named so); empty values are dropped. */
export function cleanFilter(filter: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(filter ?? {})) {
    if (v === '' || v === null || v === undefined) continue;
    if (Array.isArray(v) && !v.length) continue;
    out[k] = v;
  }
  return out;
}

export interface ExportParams {
  filter: Record<string, unknown>;
  sort: SortPayload;
  /** the Excel workbook (`path/export`) or the GeoJSON (`path/export.geojson`) */
  format?: ExportFormat;
}

export type ExportFormat = 'xlsx' | 'geojson';

const EXPORTS: Record<ExportFormat, { path: string; accept: string }> = {
  xlsx: { path: 'export', accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  geojson: { path: 'export.geojson', accept: 'application/geo+json' },
};

export interface EcofondDataProvider extends DataProvider {
  /** Downloads the server's export of a list (Excel, or GeoJSON for entities drawn on a map) with its filters and sort. */
  exportList(resource: string, params: ExportParams): Promise<{ filename: string } | { job: Job }>;
}

export const dataProvider: EcofondDataProvider = {
  getList: (resource, params) => rest.getList(pathOf(resource), { ...params, filter: cleanFilter(params.filter) }),
  getOne: (resource, params) => rest.getOne(pathOf(resource), params),
  getMany: (resource, params) => rest.getMany(pathOf(resource), params),
  getManyReference: (resource, params) => rest.getManyReference(pathOf(resource), { ...params, filter: cleanFilter(params.filter) }),
  create: (resource, params) =>
    rest.create(pathOf(resource), withoutRepeats(entityOf(resource), params)).catch((err) => moveFieldErrors(entityOf(resource), err)),
  update: (resource, params) =>
    rest.update(pathOf(resource), withoutRepeats(entityOf(resource), params)).catch((err) => moveFieldErrors(entityOf(resource), err)),
  updateMany: (resource, params) => rest.updateMany(pathOf(resource), params),
  delete: (resource, params) => rest.delete(pathOf(resource), params),
  async deleteMany(resource, params) {
    const res = await request(`/${pathOf(resource)}/delete-many`, { method: 'POST', body: { ids: params.ids } });
    const json = (await res.json()) as { data: (string | number)[] };
    return { data: json.data };
  },
  async exportList(resource, { filter, sort, format = 'xlsx' }) {
    const e = entityOf(resource);
    const query = new URLSearchParams({ sort: JSON.stringify([sort.field, sort.order]), filter: JSON.stringify(cleanFilter(filter)) });
    // a large list answers 202 with a background job instead of the file (docs/exports.md)
    return startExport(`${e.path}/${EXPORTS[format].path}?${query}`, EXPORTS[format].accept, `${e.name}.${format}`);
  },
};
