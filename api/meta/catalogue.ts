import type { EntityMeta, MetaModel, RouteAuth } from './types.ts';
import type { Principal } from '../auth/ability.ts';
import { actionIdFor, allows, type Operation } from '../auth/ability.ts';
import { canOpenReport } from '../reports/params.ts';
import { geometryFields } from '../engine/geojson.ts';

/**
 * Every route of the API, from the metadata alone: the engine's for each entity (list, export —
 * and its GeoJSON for an entity with a point or polygon field — an import for one that allows it, read, history, create, update,
 * delete, bulk delete, workflow actions single and bulk, flows),
 * the reports', the public blocks', and the modules' declared ones — each with who may call it.
 * `/api/meta` gives it to the caller (the routes they may call), and the access tests are
 * generated from it; the app mounts exactly these (test/access.test.ts checks both ways).
 */
export interface ApiRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  /** under /api; `:id` is a row of `entity` */
  path: string;
  auth: RouteAuth;
  /** where it comes from */
  source: 'entity' | 'workflow' | 'report' | 'public' | 'module' | 'documents';
  /** the entity the route works on, and the operation the caller must be allowed on it (the row at :id read in their scope for it) */
  entity?: string;
  op?: Operation | string;
  /** the action ids it needs, all of them: the operation's on its entity, and the route's own */
  actions: number[];
  /** the module route's name */
  name?: string;
  /** path parameters other than :id, typed like fields */
  params?: Record<string, unknown>;
  /** the request body: JSON, a file, or none */
  body?: 'json' | 'file' | 'none';
}

const ids = (...xs: (number | undefined)[]): number[] => [...new Set(xs.filter((x): x is number => x !== undefined))];

function actionOf(e: EntityMeta, op: string): number | undefined {
  if (op.startsWith('wf:')) return e.workflow?.actions[op.slice(3)]?.action;
  return actionIdFor(e, op as Operation);
}

function entityRoutes(e: EntityMeta): ApiRoute[] {
  const p = e.path;
  const r = (
    method: ApiRoute['method'],
    path: string,
    op: string,
    source: ApiRoute['source'] = 'entity',
    body: ApiRoute['body'] = 'none',
  ): ApiRoute => ({ method, path, auth: 'session', source, entity: e.name, op, actions: ids(actionOf(e, op)), body });
  const out = [
    r('get', p, 'read'),
    r('get', `${p}/export`, 'export'),
    // the list as GeoJSON, for an entity drawn on a map (a point or polygon field)
    ...(geometryFields(e) ? [r('get', `${p}/export.geojson`, 'export')] : []),
    // rows from an .xlsx laid out as the export, as a background job (docs/reference-books.md): for whoever may create them
    ...(e.import ? [r('post', `${p}/import`, 'create', 'entity', 'file')] : []),
    r('post', `${p}/delete-many`, 'delete', 'entity', 'json'),
  ];
  for (const [name, a] of Object.entries(e.workflow?.actions ?? {})) {
    if (a.bulk) out.push(r('post', `${p}/actions/${name}`, `wf:${name}`, 'workflow', 'json'));
    out.push(r('post', `${p}/:id/actions/${name}`, `wf:${name}`, 'workflow', 'json'));
  }
  if (e.workflow) out.push(r('get', `${p}/:id/flows`, 'read', 'workflow'));
  // a record that prints documents (docs/template-documents.md): whoever reads it may print it
  if (e.documents)
    out.push(r('get', `${p}/:id/documents`, 'read', 'documents'), r('post', `${p}/:id/documents`, 'read', 'documents', 'json'));
  out.push(
    r('get', `${p}/:id/history`, 'read'),
    r('get', `${p}/:id`, 'read'),
    r('post', p, 'create', 'entity', 'json'),
    r('put', `${p}/:id`, 'update', 'entity', 'json'),
    r('delete', `${p}/:id`, 'delete'),
  );
  return out;
}

/** The whole API, in the order the app mounts it. */
export function routeCatalogue(model: MetaModel): ApiRoute[] {
  const out: ApiRoute[] = [];
  for (const r of model.routes) {
    out.push({
      method: r.method,
      path: r.path,
      auth: r.auth,
      source: 'module',
      name: `${r.module}.${r.name}`,
      entity: r.entity,
      op: r.op,
      actions: ids(r.action, r.entity && r.op ? actionOf(model.entities.get(r.entity)!, r.op) : undefined),
      params: r.params,
      body: r.body ?? 'json',
    });
  }
  const publicEntities = [...model.entities.values()].filter((e) => e.public);
  for (const e of publicEntities) {
    const pub = (path: string): ApiRoute => ({ method: 'get', path, auth: 'public', source: 'public', actions: [], body: 'none' });
    out.push(pub(`/public/entities/${e.name}`), pub(`/public/entities/${e.name}/:id`));
    if (e.public!.map) out.push(pub(`/public/map/layers/${e.name}`));
    if (geometryFields(e, e.public!.fields)) out.push(pub(`/public/entities/${e.name}/geojson`));
  }
  if (publicEntities.length)
    out.push({ method: 'get', path: '/public/files/:id', auth: 'public', source: 'public', actions: [], body: 'none' });
  for (const r of model.reports.values()) {
    const report = (path: string, auth: RouteAuth): ApiRoute => ({
      method: 'get',
      path,
      auth,
      source: 'report',
      actions: auth === 'public' ? [] : ids(r.access),
      body: 'none',
    });
    if (r.access !== undefined) out.push(report(`/reports/${r.name}`, 'session'), report(`/reports/${r.name}/export`, 'session'));
    if (r.public) out.push(report(`/public/reports/${r.name}`, 'public'), report(`/public/reports/${r.name}/export`, 'public'));
  }
  // an issued document: for whoever may read its record (the handler reads the record in their scope)
  if ([...model.entities.values()].some((e) => e.documents)) {
    out.push(
      { method: 'get', path: '/issued-documents/:id', auth: 'session', source: 'documents', actions: [], body: 'none' },
      { method: 'get', path: '/issued-documents/:id/pdf', auth: 'session', source: 'documents', actions: [], body: 'none' },
    );
  }
  for (const e of model.entities.values()) out.push(...entityRoutes(e));
  return out;
}

/** Whether a caller may call a route (their rights; the row's scope is the server's to check). */
export function mayCall(model: MetaModel, r: ApiRoute, p: Principal): boolean {
  if (r.auth !== 'session') return true;
  if (r.source === 'report') {
    const report = model.reports.get(r.path.split('/')[2]);
    return !!report && canOpenReport(report, p);
  }
  const e = r.entity ? model.entities.get(r.entity) : undefined;
  const opAction = e && r.op ? actionOf(e, r.op) : undefined;
  // reading is also opened by an entity's `readAlso` actions
  if (e && r.op && !r.op.startsWith('wf:') && !allows(e, r.op as Operation, p)) return false;
  return r.actions.every((a) => (a === opAction && e && r.op && !r.op.startsWith('wf:') ? true : p.actions.has(a)));
}
