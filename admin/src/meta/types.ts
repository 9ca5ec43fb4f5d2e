/**
 * The shape of `GET /api/meta` (api/meta/client-meta.ts): the back-office's only input for its
 * screens. What the server declares once (field kinds, formats, filter operators, workflow
 * actions, menu items, access) is imported from its own types, type-only, so nothing of the API
 * reaches the bundle; what is kept here is only the shapes `clientMeta()` builds on the way out
 * (a field carries its name and caption key, lists of filters instead of maps, `can`, `allowed`…),
 * which the server does not export as types.
 */
import type {
  AccessMeta,
  EntityMeta as ServerEntityMeta,
  ListMeta as ServerListMeta,
  FieldMeta as ServerFieldMeta,
  FieldType,
  FilterMeta as ServerFilterMeta,
  FilterOp,
  FormatName,
  Lang,
  MenuItemMeta,
  MenuSectionMeta,
  ScopeMeta,
  WorkflowActionMeta as ServerWorkflowActionMeta,
  WorkflowMeta as ServerWorkflowMeta,
} from '../../../api/meta/types.ts';

import type { ReportMeta } from '../reports/types';

export type { ReportMeta };
export type { AccessMeta, FieldType, FilterOp, FormatName, Lang, MenuItemMeta, MenuSectionMeta, ScopeMeta, ServerFieldMeta };

/**
 * A field as the client gets it: the server's field with its name, its caption key always set
 * (`fields.<name>` unless `label`), the pattern of its named format, and child fields as a list.
 */
export interface FieldMeta extends Omit<ServerFieldMeta, 'label' | 'fields'> {
  name: string;
  /** caption key */
  label: string;
  fields?: FieldMeta[];
}

/** A list filter: the server's filter with its name, caption key and the kind of the field it reads. */
export interface FilterMeta extends Omit<ServerFilterMeta, 'label'> {
  name: string;
  label: string;
  fieldType?: FieldType;
  ref?: string;
  values?: string[];
}

/** What the caller may do with an entity (from their actions). */
export interface Can {
  read: boolean;
  create: boolean;
  update: boolean;
  delete: boolean;
  export: boolean;
}

/**
 * A workflow action: the server's, with its name, caption key and whether the caller's actions
 * allow it. `params` are the server's raw field declarations (no name, caption optional).
 */
export interface WorkflowActionMeta extends Omit<ServerWorkflowActionMeta, 'label' | 'hook' | 'set' | 'clear'> {
  name: string;
  label: string;
  allowed: boolean;
}

export interface WorkflowMeta extends Omit<ServerWorkflowMeta, 'actions'> {
  actions: WorkflowActionMeta[];
}

export interface EntityMeta
  extends Pick<
    ServerEntityMeta,
    'name' | 'module' | 'kind' | 'caption' | 'icon' | 'titleField' | 'form' | 'scope' | 'import' | 'undeletable'
  > {
  /** full API path, e.g. /api/ecofund-sprav/areas */
  path: string;
  access?: AccessMeta;
  fields: FieldMeta[];
  list: {
    columns: string[];
    sort: [string, 'asc' | 'desc'];
    perPage: number;
    sortable?: string[];
    filters: FilterMeta[];
    cookie?: ServerListMeta['cookie'];
    empty?: ServerListMeta['empty'];
  };
  can: Can;
  workflow?: WorkflowMeta;
  /** the record prints documents of a template-document type (docs/template-documents.md) */
  documents?: { type: string };
}

/** A route of the menu tree, hidden ones included, with whether the caller may open it. */
export interface RouteMeta {
  /** the section's route, `/ecofund` */
  section: string;
  /** the whole route, `/ecofund/payments/:stacks_id` */
  route: string;
  caption: string;
  action?: number;
  entity?: string;
  nomenu: boolean;
  allowed: boolean;
  /** the list's preset filter on this route; `":param"` values come from the URL */
  filter?: Record<string, unknown>;
  /** the report the route shows (its declaration is in `reports`) */
  report?: string;
}

export interface ClientMeta {
  lang: Lang;
  entities: EntityMeta[];
  menu: MenuSectionMeta[];
  routes: RouteMeta[];
  /** the reports the caller may run, with their parameters, columns, chart and drill */
  reports?: ReportMeta[];
  captions: Record<string, string>;
  fallbackCaptions?: Record<string, string>;
}
