import type { ClientMeta, EntityMeta, FieldMeta, RouteMeta } from './types';

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
 * Lookups over one /api/meta answer. An entity's react-admin resource is named after its menu
 * route without the leading slash (`ecofund-sprav/areas`), so its screens live at
 * `#/ecofund-sprav/areas`, `#/ecofund-sprav/areas/create`, `#/ecofund-sprav/areas/12`. An entity
 * two menu items name gets a resource for each; one no menu item names gets `<module>/<name>`.
 * Routes with `:params` are not lists: they are left to the catch-all (a shown screen there is
 * still to be built).
 */
export class MetaModel {
  readonly byName = new Map<string, EntityMeta>();
  readonly byResource = new Map<string, EntityMeta>();
  readonly resourceOfEntity = new Map<string, string>();
  /** the caption key of each resource: its menu item's, else its entity's */
  readonly captionOf = new Map<string, string>();

  constructor(readonly meta: ClientMeta) {
    const byName = new Map(meta.entities.map((e) => [e.name, e]));
    // menu routes that show an entity's list: those without `:params`, shown ones first
    const routes = meta.routes
      .filter((r) => r.entity && byName.has(r.entity) && !r.route.includes(':'))
      .sort((a, b) => Number(a.nomenu) - Number(b.nomenu));
    for (const r of routes) {
      const resource = r.route.replace(/^\/+|\/+$/g, '');
      if (this.byResource.has(resource)) continue;
      this.byResource.set(resource, byName.get(r.entity!)!);
      this.captionOf.set(resource, r.caption);
      if (!this.resourceOfEntity.has(r.entity!)) this.resourceOfEntity.set(r.entity!, resource);
    }
    for (const e of meta.entities) {
      this.byName.set(e.name, e);
      if (this.resourceOfEntity.has(e.name)) continue;
      const resource = `${e.module}/${e.name}`;
      this.byResource.set(resource, e);
      this.captionOf.set(resource, e.caption);
      this.resourceOfEntity.set(e.name, resource);
    }
  }

  entity(resource: string): EntityMeta | undefined {
    return this.byResource.get(resource);
  }

  resourceOf(entityName: string | undefined): string | undefined {
    return entityName ? this.resourceOfEntity.get(entityName) : undefined;
  }

  /** A declared field, or one of the system columns. */
  field(e: EntityMeta, name: string): FieldMeta | undefined {
    return e.fields.find((f) => f.name === name) ?? SYSTEM_FIELDS.find((f) => f.name === name);
  }

  /** The route of the menu tree a path belongs to (hidden ones and `:param` ones included). */
  routeFor(pathname: string): RouteMeta | undefined {
    const path = `/${pathname.replace(/^\/+|\/+$/g, '')}`;
    let best: RouteMeta | undefined;
    let bestLen = -1;
    for (const r of this.meta.routes) {
      const re = new RegExp(`^${r.route.replace(/\/+$/, '').split('/').map((seg) => (seg.startsWith(':') ? '[^/]+' : escapeRe(seg))).join('/')}(?:/.*)?$`);
      if (re.test(path) && r.route.length > bestLen) { best = r; bestLen = r.route.length; }
    }
    return best;
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
