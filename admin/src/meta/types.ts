/** The shape of `GET /api/meta` (api/meta/client-meta.ts): the back-office's only input for its screens. */

export type FieldType =
  | 'string' | 'text' | 'integer' | 'decimal' | 'money' | 'boolean' | 'date' | 'datetime' | 'enum'
  | 'ref' | 'refs' | 'text3' | 'file' | 'files' | 'image' | 'point' | 'children' | 'password';

export interface FieldMeta {
  name: string;
  type: FieldType;
  /** caption key */
  label: string;
  required?: boolean;
  readOnly?: boolean;
  unique?: boolean;
  hidden?: boolean;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  min?: number | string;
  max?: number | string;
  scale?: number;
  precision?: number;
  values?: string[];
  ref?: string;
  accept?: string[];
  maxSizeMb?: number;
  fields?: FieldMeta[];
  computedBy?: string;
  from?: string;
}

export type FilterOp = 'eq' | 'search' | 'range' | 'in' | 'bool';

export interface FilterMeta {
  name: string;
  op: FilterOp;
  label: string;
  alwaysOn?: boolean;
  fields?: string[];
  fieldType?: FieldType;
  ref?: string;
  values?: string[];
}

export interface Can {
  read: boolean;
  create: boolean;
  update: boolean;
  delete: boolean;
  export: boolean;
}

export interface WorkflowActionMeta {
  name: string;
  from: string[];
  to?: string;
  action: number;
  label: string;
  confirm?: boolean;
  allowed: boolean;
}

export interface EntityMeta {
  name: string;
  module: string;
  /** full API path, e.g. /api/ecofund-sprav/areas */
  path: string;
  kind: 'reference' | 'document' | 'system';
  caption: string;
  icon?: string;
  titleField: string;
  fields: FieldMeta[];
  list: {
    columns: string[];
    sort: [string, 'asc' | 'desc'];
    perPage: number;
    sortable?: string[];
    filters: FilterMeta[];
  };
  form?: { sections?: { label?: string; fields: string[] }[] };
  can: Can;
  workflow?: { field: string; initial: string; actions: WorkflowActionMeta[] };
}

export interface MenuItemMeta {
  route: string;
  caption: string;
  action?: number;
  icon?: string;
  entity?: string;
  ordering?: number;
}

export interface MenuSectionMeta {
  route: string;
  caption: string;
  icon?: string;
  ordering?: number;
  children: MenuItemMeta[];
}

export interface RouteMeta {
  section: string;
  route: string;
  caption: string;
  action?: number;
  entity?: string;
  nomenu: boolean;
  allowed: boolean;
}

export interface ClientMeta {
  lang: string;
  entities: EntityMeta[];
  menu: MenuSectionMeta[];
  routes: RouteMeta[];
  captions: Record<string, string>;
  fallbackCaptions?: Record<string, string>;
}
