import type { ClientMeta, EntityMeta, FieldMeta, ReportMeta, RouteMeta } from './types';

/** Fields every row has besides those of the metadata (api/meta/columns.ts). */
export const SYSTEM_FIELDS: FieldMeta[] = [
  { name: 'id', type: 'integer', label: 'fields.id', readOnly: true },
  { name: 'version', type: 'integer', label: 'fields.version', readOnly: true },
  { name: 'created_at', type: 'datetime', label: 'fields.created_at', readOnly: true },
  { name: 'updated_at', type: 'datetime', label: 'fields.updated_at', readOnly: true },
  { name: 'created_by', type: 'integer', label: 'fields.created_by', readOnly: true },
  { name: 'updated_by', type: 'integer', label: 'fields.updated_by', readOnly: true },
];

/**
 * What a menu route shows:
 * - `list`: an entity's list (a react-admin resource named after the route), with the route's
 *   preset filter when it has one (`inspector-report` → sent and in-process reports);
 * - `param-list`: an entity's list filtered by the route's parameters: the route's filter with its
 *   `":param"` values from the URL (`payments/:stacks_id` → `{stack_id: <stacks_id>}`), and a
 *   `:params` segment (`plantings/:params`, `k=v;k=v` encoded) as more of the filter;
 * - `record`: the show page of one row of the entity whose list the route without its parameter
 *   is (`subject/:subjects_id` is `#/ecofund/subject/<id>`);
 * - `report`: a report (`report` of the route) with its parameters bar, chart and table; a
 *   `:params` segment fills the parameters (`plan-execution-by-org/:params`);
 * - `screen`: no entity: a special screen of the back-office, or the "not built yet" page.
 */
export type RouteKind = 'list' | 'param-list' | 'record' | 'report' | 'screen';

/** The route parameter that carries `k=v;k=v` pairs rather than one value. */
export const PARAMS_SEGMENT = 'params';

export interface RouteInfo extends RouteMeta {
  /** the route without its leading and trailing slashes: `ecofund/payments/:stacks_id` */
  path: string;
  /** its `:parameters`, without the colon */
  params: string[];
  kind: RouteKind;
  /** list and param-list: the resource its list runs under */
  resource?: string;
}

/** A list on a row's show page: the rows of another entity (or the same) that point at it. */
export interface RelatedList {
  entity: EntityMeta;
  /** the field of `entity` that references the shown row, filtered on */
  field: string;
  /** the resource the list runs under */
  resource: string;
  /** caption key of the tab */
  caption: string;
  /** a param-list route that shows the same list on its own page */
  route?: RouteInfo;
}

const trimSlashes = (s: string) => s.replace(/^\/+|\/+$/g, '');
const paramsOf = (route: string) =>
  route
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));

/** `{stack_id: ":stacks_id"}` with `{stacks_id: "5"}` → `{stack_id: 5}`. */
export function substituteFilter(
  filter: Record<string, unknown> | undefined,
  params: Record<string, string | undefined>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(filter ?? {})) {
    if (typeof v === 'string' && v.startsWith(':')) {
      const raw = params[v.slice(1)];
      out[k] = raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
    } else out[k] = v;
  }
  return out;
}

/**
 * Lookups over one /api/meta answer. An entity's react-admin resource is named after its menu
 * route without the leading slash (`ecofund-sprav/areas`), so its screens live at
 * `#/ecofund-sprav/areas`, `#/ecofund-sprav/areas/create`, `#/ecofund-sprav/areas/12`. An entity
 * several menu items name gets a resource for each (each with its own preset filter); one no menu
 * item names gets `<module>/<name>`. Routes with `:params` that name an entity are lists filtered
 * by the parameters, or the show page of a row (see RouteKind).
 */
export class MetaModel {
  readonly byName = new Map<string, EntityMeta>();
  /** the resources the app registers with react-admin */
  readonly byResource = new Map<string, EntityMeta>();
  /** the resources of param-list routes (not registered: their screens are custom routes) */
  readonly paramResources = new Map<string, EntityMeta>();
  readonly resourceOfEntity = new Map<string, string>();
  /** the caption key of each resource: its menu item's, else its entity's */
  readonly captionOf = new Map<string, string>();
  /** every route of the menu tree, classified */
  readonly routes: RouteInfo[];
  readonly routeOfResource = new Map<string, RouteInfo>();
  /** resources whose `:id` path is the show page (a `record` route points there) */
  readonly recordResources = new Set<string>();
  /**
   * Resources another route sits right under (`plantings/:params`, `payments/:stacks_id`): that
   * route owns `#/<resource>/<x>`, so the resource's form moves to `…/<id>/edit`, its page stays
   * at `…/<id>/show` and its create screen is a route of its own (see App), none swallowed.
   */
  readonly shadowedResources = new Set<string>();

  constructor(readonly meta: ClientMeta) {
    for (const e of meta.entities) this.byName.set(e.name, e);
    // the preset filters of visible items travel with the menu
    const menuFilters = new Map<string, Record<string, unknown>>();
    for (const s of meta.menu) {
      for (const c of s.children) if (c.filter) menuFilters.set(`/${trimSlashes(`${s.route}/${c.route}`)}`, c.filter);
    }
    this.routes = meta.routes.map((r) => {
      const path = trimSlashes(r.route);
      const params = paramsOf(path);
      const e = r.entity ? this.byName.get(r.entity) : undefined;
      // the server sends each route's filter; the menu's copy serves older servers (visible items only)
      const filter = r.filter ?? menuFilters.get(`/${path}`);
      let kind: RouteKind = 'screen';
      if (r.report) kind = 'report';
      else if (e && !params.length) kind = 'list';
      else if (
        e &&
        (params.includes(PARAMS_SEGMENT) || (filter && Object.values(filter).some((v) => typeof v === 'string' && v.startsWith(':'))))
      )
        kind = 'param-list';
      else if (e && params.length === 1 && path.endsWith(`/:${params[0]}`)) kind = 'record';
      return { ...r, filter, path, params, kind };
    });

    // list routes, the ones the user may open first, then those without a preset filter, then visible ones
    const rank = (r: RouteInfo) => (r.allowed ? 0 : 4) + (r.filter ? 2 : 0) + (r.nomenu ? 1 : 0);
    const lists = this.routes
      .filter((r) => r.kind === 'list')
      .map((r, i) => ({ r, i }))
      .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
      .map((x) => x.r);
    for (const r of lists) {
      if (this.byResource.has(r.path)) continue;
      r.resource = r.path;
      this.byResource.set(r.path, this.byName.get(r.entity!)!);
      this.captionOf.set(r.path, r.caption);
      this.routeOfResource.set(r.path, r);
      if (!this.resourceOfEntity.has(r.entity!)) this.resourceOfEntity.set(r.entity!, r.path);
    }
    for (const e of meta.entities) {
      if (this.resourceOfEntity.has(e.name)) continue;
      const resource = `${e.module}/${e.name}`;
      this.byResource.set(resource, e);
      this.captionOf.set(resource, e.caption);
      this.resourceOfEntity.set(e.name, resource);
    }
    for (const r of this.routes) {
      if (r.kind === 'param-list') {
        r.resource = r.path;
        this.paramResources.set(r.path, this.byName.get(r.entity!)!);
        this.captionOf.set(r.path, r.caption);
        this.routeOfResource.set(r.path, r);
      } else if (r.kind === 'record') {
        const base = r.path.slice(0, r.path.lastIndexOf('/'));
        if (this.byResource.get(base)?.name === r.entity) {
          r.resource = base;
          this.recordResources.add(base);
        } else {
          r.kind = 'screen';
        }
      }
    }
    // a custom route (param list, report, screen) of the form `<resource>/:x` matches `<resource>/create` and `<resource>/<id>` first
    for (const r of this.routes) {
      if (r.kind === 'record' || r.kind === 'list') continue;
      const segs = r.path.split('/');
      const base = segs.slice(0, -1).join('/');
      if (segs[segs.length - 1].startsWith(':') && this.byResource.has(base)) this.shadowedResources.add(base);
    }
  }

  /** Whether a resource's form lives at `…/<id>/edit` (its `…/<id>` is its page or another route's). */
  formMoved(resource: string): boolean {
    return this.recordResources.has(resource) || this.shadowedResources.has(resource);
  }

  /** The entity of a resource, registered or of a param-list route. */
  entity(resource: string): EntityMeta | undefined {
    return this.byResource.get(resource) ?? this.paramResources.get(resource);
  }

  resourceOf(entityName: string | undefined): string | undefined {
    return entityName ? this.resourceOfEntity.get(entityName) : undefined;
  }

  /** A declared field, or one of the system columns. */
  field(e: EntityMeta, name: string): FieldMeta | undefined {
    return e.fields.find((f) => f.name === name) ?? SYSTEM_FIELDS.find((f) => f.name === name);
  }

  /** The preset filter of a list route (no `:params`: those are substituted by the screen). */
  presetFilter(resource: string): Record<string, unknown> | undefined {
    const r = this.routeOfResource.get(resource);
    return r?.kind === 'list' ? r.filter : undefined;
  }

  /** Whether the user's actions open the list of a resource (its menu route's action). */
  listAllowed(resource: string): boolean {
    return this.routeOfResource.get(resource)?.allowed ?? true;
  }

  /** Where a row's show page is: `#/<resource>/<id>` when a record route points there. */
  showPath(resource: string, id: unknown): string {
    return this.recordResources.has(resource) ? `/${resource}/${id}` : `/${resource}/${id}/show`;
  }

  /** Where a row's form is: `#/<resource>/<id>`, or `…/<id>/edit` when that path is its show page. */
  editPath(resource: string, id: unknown): string {
    return this.formMoved(resource) ? `/${resource}/${id}/edit` : `/${resource}/${id}`;
  }

  /**
   * The lists on a row's show page: rows of every readable entity that reference the entity
   * through a field its list can filter on (a subject's branches, payments, reports…), under the
   * param-list route that shows the same list when there is one.
   */
  relatedLists(e: EntityMeta): RelatedList[] {
    const out: RelatedList[] = [];
    for (const other of this.meta.entities) {
      for (const f of other.fields) {
        if (f.type !== 'ref' || f.ref !== e.name) continue;
        if (!other.list.filters.some((x) => x.name === f.name && x.op === 'eq')) continue;
        const route = this.routes.find(
          (r) =>
            r.kind === 'param-list' &&
            r.allowed &&
            r.entity === other.name &&
            Object.keys(r.filter ?? {}).length === 1 &&
            typeof r.filter?.[f.name] === 'string',
        );
        const resource = route?.resource ?? this.resourceOf(other.name);
        if (!resource || !this.listAllowed(resource)) continue;
        const caption =
          route?.caption ??
          (other.name === e.name ? (this.selfCaption(e) ?? f.label) : (this.captionOf.get(this.resourceOf(other.name)!) ?? other.caption));
        out.push({ entity: other, field: f.name, resource, caption, route });
      }
    }
    // rows of the entity itself (branches) first, then in menu order
    const order = (r: RelatedList) => {
      if (r.entity.name === e.name) return -1;
      const i = this.routes.findIndex((x) => x.entity === r.entity.name);
      return i < 0 ? this.routes.length : i;
    };
    return out
      .map((r, i) => ({ r, i }))
      .sort((a, b) => order(a.r) - order(b.r) || a.i - b.i)
      .map((x) => x.r);
  }

  /**
   * The caption of a list of an entity's own rows under a row (a subject's branches): the hidden
   * route with a parameter over the entity that is neither its list nor its record page, when the
   * server has not said its filter (`subject-branchs/:id`).
   */
  private selfCaption(e: EntityMeta): string | undefined {
    const other = this.routes.filter((r) => r.entity === e.name && r.kind === 'screen' && r.params.length === 1);
    return other.length === 1 ? other[0].caption : undefined;
  }

  /** A report's declaration in /api/meta `reports[]`. */
  report(name: string | undefined): ReportMeta | undefined {
    return name ? this.meta.reports?.find((r) => r.name === name) : undefined;
  }

  /** The route of the menu tree a path belongs to (hidden ones and `:param` ones included). */
  routeFor(pathname: string): RouteInfo | undefined {
    const path = `/${trimSlashes(pathname)}`;
    let best: RouteInfo | undefined;
    let bestLen = -1;
    for (const r of this.routes) {
      const re = new RegExp(
        `^/${r.path
          .split('/')
          .map((seg) => (seg.startsWith(':') ? '[^/]+' : escapeRe(seg)))
          .join('/')}(?:/.*)?$`,
      );
      if (re.test(path) && r.route.length > bestLen) {
        best = r;
        bestLen = r.route.length;
      }
    }
    return best;
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
