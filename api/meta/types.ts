/**
 * The typed shape of the metadata tree (metadata/*.json), as validated by
 * metadata/schema/*.schema.json. The JSON Schema is the truth for what a
 * file may say; these types are what the engine reads after validation.
 * FieldMeta and EntityMeta are checked against the types `npx ecofond meta:types` generates from
 * entity.schema.json (schema.generated.ts, the checks at the end): a property the schema gains,
 * loses or retypes is a type error here until these say the same.
 */
import type { EntityField, EntityFile } from './schema.generated.ts';

export type Lang = 'uz' | 'uk' | 'ru';
export const LANGS: readonly Lang[] = ['uz', 'uk', 'ru'];

export type Text3 = { uz: string; uk?: string; ru?: string };

export type FieldType =
  | 'string'
  | 'integer'
  | 'decimal'
  | 'money'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'enum'
  | 'ref'
  | 'refs'
  | 'text3'
  | 'text'
  | 'file'
  | 'files'
  | 'image'
  | 'point'
  | 'polygon'
  | 'password'
  | 'children'
  /**
   * a JSON value: written by the engine only (an audit row's before and after), or — with `form` —
   * a form's values whose fields are data, checked against the JSON Schema a module gives
   */
  | 'json';

/** Named formats with their pattern and message key (see api/meta/formats.ts). */
/** What kind of personal data a field holds, which says how it is masked (api/engine/personal.ts, docs/personal-data.md). */
export type PersonalKind = 'pinfl' | 'passport' | 'phone' | 'email' | 'address' | 'birthdate' | 'document' | 'name';

export type FormatName = 'inn' | 'pinfl' | 'mfo' | 'account' | 'phone' | 'passport' | 'email' | 'digits5' | 'soato' | 'inn_or_pinfl';

export interface FieldMeta {
  type: FieldType;
  /** a file (file, files, image) the document expects: saving the form without one asks whether to continue */
  expected?: boolean;
  /** text / text3: rich text, sanitised to an allow-list on the server when stored and served (api/engine/rich-html.ts) */
  html?: boolean;
  /** caption key; default `fields.<name>` */
  label?: string;
  required?: boolean;
  readOnly?: boolean;
  unique?: boolean;
  /** hidden from lists and forms (still stored) */
  hidden?: boolean;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: FormatName;
  /** personal data of a natural person: masked for readers without the entity's `access.personal` */
  personal?: PersonalKind;
  min?: number | string;
  max?: number | string;
  /** decimal: digits after the point */
  scale?: number;
  precision?: number;
  values?: string[];
  /** ref / refs: target entity name */
  ref?: string;
  /** ref: what happens to this row when the target is deleted */
  onDelete?: 'restrict' | 'cascade' | 'set null';
  /** files: accepted MIME types and size */
  accept?: string[];
  maxSizeMb?: number;
  /** boolean: shown as a badge with the field's caption in this tone where true, nothing where false */
  badge?: 'warning' | 'info' | 'success' | 'error';
  /** children: the child table and its fields */
  table?: string;
  fields?: Record<string, FieldMeta>;
  /** read-only value computed by a named hook */
  computedBy?: string;
  /** read-only value copied from a referenced row: "<refField>.<column>" */
  from?: string;
  /** a string that must exist in another entity's unique column: "<entity>.<column>" (e.g. an MFO in banks-mfo) */
  lookup?: string;
  /**
   * ref: the referenced row must agree with this row's other fields — `{ "<column of the
   * referenced row>": "<field of this row>" }` (a mahalla `within` the chosen district:
   * `{ "area_id": "area_id" }`). The server refuses a row that disagrees (400 beside the field) and
   * the form offers only the rows that agree (each column is an `eq` filter of the referenced list).
   */
  within?: Record<string, string>;
  /**
   * refs kept in a join table instead of an array column; with `flag`, a row of the join table is
   * a member while its flag column is 1, and leaving sets it to 0 (the row stays, so a closed
   * grant is remembered)
   */
  through?: { table: string; key: string; refKey: string; flag?: string };
  /**
   * the field carries rights: `roles` (role ids) or `actions` (action ids). Whoever changes a row
   * of such an entity must hold every action the row carries before and after the change, so
   * nobody grants, takes away or takes over rights they do not hold themselves.
   */
  privilege?: 'roles' | 'actions';
  /** children: caption of what the page says when there is no child row (spec §8: no offender, no witnesses) */
  empty?: string;
  /** children kept by another key than `parent_id` (a table of the engine's, without id and ordering) */
  parentKey?: string;
  /** children: the child field their rows are ordered by (instead of `ordering`) */
  orderBy?: string;
  /**
   * json: the values of a form whose fields are data (a control zone's). `schema` names a module's
   * form schema (`ModuleDef.forms`) built for the row's `by` reference (the zone); `route` is the
   * module route under that reference's entity answering the same schema to the back-office
   */
  form?: { schema: string; by: string; route: string };
}

export type FilterOp = 'eq' | 'search' | 'range' | 'in' | 'bool';

export interface FilterMeta {
  op: FilterOp;
  /** the columns a search filter looks in; default: the filter's own name */
  fields?: string[];
  /** caption key; default the field's caption */
  label?: string;
  /** shown in the filter bar without being added */
  alwaysOn?: boolean;
  /** a search filter the global search (GET /api/search, Ctrl+K in the back-office) looks in too */
  global?: boolean;
}

export interface ListMeta {
  columns: string[];
  sort: [string, 'asc' | 'desc'];
  perPage?: 7 | 10 | 20 | 25 | 50 | 100;
  /** fields (besides the columns) that may be sorted on; default: columns */
  sortable?: string[];
  filters?: Record<string, FilterOp | FilterMeta>;
  /**
   * the cookie that keeps the list's filter for an hour (spec §3), under the old system's name:
   * `filter_[a-z_]+`, one list each
   */
  cookie?: string;
  /** caption of what the list says when it has no row (spec §8: no payments…); default admin.empty.no_data */
  empty?: string;
}

export interface AccessMeta {
  read: number;
  /** other action ids that also open the list (e.g. a second menu route over the same rows) */
  readAlso?: number[];
  create?: number;
  update?: number;
  delete?: number;
  export?: number;
  /** the action that reads the entity's personal fields in clear (docs/personal-data.md); may be shared by several entities */
  personal?: number;
}

/** Row-level scope: which column of this entity holds the user's subject, branch or region. */
export interface ScopeMeta {
  subject?: string;
  branch?: string;
  region?: string;
}

/**
 * A set of rows within the scope that callers holding its action are narrowed to (an inspector's
 * own offences, the police's offences sent to the ministry): the column values of `where`, "$user"
 * being the caller's user id. A caller holding several sees any of them; one holding none is not
 * narrowed (every row of their scope).
 */
export interface RowSetMeta {
  action: number;
  /** caption of the action in the catalogue; default `rows.<name>` */
  label?: string;
  where: Record<string, string | number | boolean>;
}

export interface WorkflowActionMeta {
  from: string[];
  to?: string;
  action: number;
  label?: string;
  confirm?: boolean;
  /** the caption of the confirmation's own question (the spec's "Do you really want to block the user?"); default "change the status of id N?" */
  prompt?: string;
  comment?: 'required' | 'optional';
  /** a verified e-signature over the row's signable content is asked for (the signing dialog) */
  signature?: 'required';
  /** the action (of the same workflow, keeping the state) the signing dialog's "save without signature" runs */
  skip?: string;
  file?: 'required' | 'optional';
  hook?: string;
  /** values the action asks for; those that are fields of the entity are written to the row */
  params?: Record<string, FieldMeta>;
  /** fields the action empties */
  clear?: string[];
  /** constant values the action writes (e.g. who a report was escalated to) */
  set?: Record<string, string | number | boolean>;
  /** rows already in the target state with the same values are left alone */
  idempotent?: boolean;
  /** offered on several selected rows (or all rows of the list) at once */
  bulk?: boolean;
  /** the action deletes the row (after its hook) rather than moving its state: a "full deletion" with its own right */
  delete?: boolean;
  /** a deleting action: the entities whose rows its hook deletes with the row (named in its confirmation) */
  removes?: string[];
  /** a notification the move queues (docs/notifications.md): its type's code and to whom */
  notify?: NotifyMeta;
}

/** Whom an action's notification goes to: the users of the row's scope (its subject's, region's or branch's), those of a role, or those of both. */
export interface NotifyMeta {
  type: string;
  to: { scope?: 'subject' | 'region' | 'branch'; role?: string };
}

export interface WorkflowMeta {
  field: string;
  initial: string;
  history?: boolean;
  /** the states in which a row may be edited or deleted (default: all); in others only its actions move it */
  editable?: string[];
  actions: Record<string, WorkflowActionMeta>;
  /** work waiting for someone, by name: each a count on the dashboard of those holding one of its actions (docs/dashboard.md) */
  queues?: Record<string, WorkflowQueueMeta>;
}

/** Rows in `states` wait for whoever holds one of `actions` (actions of the same workflow that move such a row on). */
export interface WorkflowQueueMeta {
  states: string[];
  actions: string[];
  /** caption; default `queues.<name>` */
  label?: string;
}

export interface ConstraintMeta {
  name: string;
  check: string;
  message: string;
  fields: string[];
}

export interface EntityMeta {
  name: string;
  module: string;
  table: string;
  /** API path under /api; default `/<module>/<name>` */
  path: string;
  kind: 'reference' | 'document' | 'system';
  caption: string;
  /** field whose value names a row (in selects, exports of references) */
  titleField: string;
  icon?: string;
  access: AccessMeta;
  scope?: ScopeMeta;
  /** sets of rows that narrow what callers holding their actions see (the union of those they hold); holding none: every row of the scope */
  rows?: Record<string, RowSetMeta>;
  fields: Record<string, FieldMeta>;
  list: ListMeta;
  form?: { sections?: { label?: string; fields: string[] }[] };
  workflow?: WorkflowMeta;
  constraints?: ConstraintMeta[];
  softDelete?: boolean;
  /** a boolean field whose true marks a row the system needs (a seeded role): nobody deletes it (409) */
  undeletable?: string;
  /** false: a log table without version/updated_at/created_by/updated_by (read and delete only) */
  tracking?: boolean;
  /** the record prints documents of a template-document type (docs/template-documents.md) */
  documents?: DocumentsMeta;
  /** a server hook run inside every create and update, after the row and its children are written */
  afterWrite?: string;
  /** a server hook run inside a delete's transaction for each row before it goes (it may refuse) */
  beforeDelete?: string;
  /** a view of a table another entity owns: these column values select its rows and are set on create */
  view?: Record<string, string | number | boolean>;
  /** what the public site may read without sign-in */
  public?: PublicExposure;
  /** file the entity was loaded from (set by the loader) */
  file: string;
  /** a reference book held in the database, made on the back-office's screen (docs/reference-books.md) */
  book?: boolean;
  /** rows may be imported from an .xlsx laid out as the entity's export (POST <path>/import, a job; docs/reference-books.md) */
  import?: boolean;
}

/**
 * What a record prints: the code of its template-document type, and where each reserved field of
 * a template is read from in the record — a field (`protocol_date`), a column of a referenced row
 * (`subject_id.name`, `created_by.fio`) or of its child rows (`offenders.full_name`, joined).
 */
export interface DocumentsMeta {
  type: string;
  fields?: Record<string, string>;
  /** the documents no longer stand while this enum field holds one of these values (a revoked permit) */
  withdrawnWhen?: { field: string; values: string[] };
}

export interface PublicExposure {
  /** the fields the public sees (id always) */
  fields: string[];
  /** only rows with these column values are public */
  where?: Record<string, string | number | boolean>;
  /** list filters the public may use */
  filters?: string[];
  sort?: [string, 'asc' | 'desc'];
  /** numeric public fields a public list sums over every row it finds */
  totals?: string[];
  /** a map layer of the entity: its point or polygon field and title */
  map?: { point?: string; shape?: string; title?: string; kind?: string };
}

export interface MenuItemMeta {
  route: string;
  caption: string;
  action?: number;
  icon?: string;
  entity?: string;
  nomenu?: boolean;
  ordering?: number;
  /** the list's preset filter on this route (e.g. the inspector's queue of sent reports) */
  filter?: Record<string, unknown>;
  /** the report this route shows (metadata/reports/) */
  report?: string;
}

export interface MenuSectionMeta {
  route: string;
  caption: string;
  icon?: string;
  ordering?: number;
  children: MenuItemMeta[];
}

/** An action id of the catalogue: what names it and where it is used. */
export interface ActionInfo {
  caption: string;
  module: string;
  kind: string;
  /** the entity's caption, for entity operations and workflow actions */
  entityCaption?: string;
}

export type ReportParamType = 'year' | 'ref' | 'enum' | 'date' | 'string' | 'integer';
export interface ReportParamMeta {
  type: ReportParamType;
  ref?: string;
  values?: string[];
  required?: boolean;
  /** a value, or "current": this year / today in Tashkent */
  default?: unknown;
  caption?: string;
}
export type ReportColumnType = 'string' | 'integer' | 'decimal' | 'money' | 'percent' | 'date';
export interface ReportColumnMeta {
  name: string;
  type: ReportColumnType;
  caption?: string;
  scale?: number;
  total?: 'sum' | { ratio: [string, string] };
  /** a caption key prefix: the value v shows as the caption `${translate}.${v}` */
  translate?: string;
}

/** A report (metadata/reports/): one SQL query with declared parameters, columns, totals, chart and drill-down. */
export interface ReportMeta {
  name: string;
  module: string;
  caption: string;
  access?: number;
  public?: boolean;
  params: Record<string, ReportParamMeta>;
  scope?: { region?: string; branch?: string; subject?: string };
  query: string;
  columns: ReportColumnMeta[];
  chart?: { type: 'bar' | 'line' | 'pie' | 'doughnut'; label: string; series: string[]; stacked?: boolean; horizontal?: boolean };
  drill?: { route: string; column: string; params: Record<string, string> };
  maxRows?: number;
  file: string;
}

/** How a caller reaches a route: without sign-in, signed in, or either (a token is read when sent). */
export type RouteAuth = 'public' | 'session' | 'optional';

/**
 * A route of a module (metadata/modules/*.json): its method and path, who may call it, and the
 * named handler that answers it. The engine checks the sign-in, the action id, and loads the row at
 * `:id` in the caller's scope for the route's operation before the handler runs.
 */
export interface RouteMeta {
  name: string;
  module: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** the full path under /api */
  path: string;
  auth: RouteAuth;
  /** an action id the caller must hold */
  action?: number;
  /** the entity whose row (`:id`) or rows the route works on */
  entity?: string;
  /** the operation (read, update, delete, export, create or `wf:<action>`) the caller must be allowed on the entity, and the row at `:id` is read for */
  op?: string;
  /** fields of the entity the route may write although clients may not */
  writes?: string[];
  /** path parameters other than `:id`, typed like fields */
  params?: Record<string, FieldMeta>;
  /** the request body: JSON (default), a file, or none */
  body?: 'json' | 'file' | 'none';
  /** what it answers: JSON (default), a file, a page (HTML) or a script — for the OpenAPI document */
  answer?: 'json' | 'file' | 'html' | 'script';
  /** the module's handler: "<module>.<name>" */
  handler: string;
  /** "replica": a public read that may be served by the read replica (DATABASE_READ_URL); GET only */
  reads?: 'primary' | 'replica';
  /** caption key of what the route does */
  caption?: string;
  file: string;
}

export interface MetaModel {
  entities: Map<string, EntityMeta>;
  /** the modules' own routes, in the order they are declared */
  routes: RouteMeta[];
  reports: Map<string, ReportMeta>;
  menu: MenuSectionMeta[];
  captions: Record<Lang, Record<string, string>>;
  /** action ids named anywhere, with a caption key for the catalogue */
  actions: Map<number, ActionInfo>;
  /** the database-held reference books it was built with (docs/reference-books.md) */
  books?: DbBook[];
  /** the metadata folder it was loaded from (a reload reads the same one) */
  dir?: string;
}

/**
 * A reference book held in the database (docs/reference-books.md): its entity metadata exactly as
 * a file would hold it, its own captions, and where the menu shows it.
 */
export interface DbBook {
  name: string;
  definition: Record<string, unknown>;
  captions: Record<Lang, Record<string, string>>;
  menu?: { section: string; ordering?: number };
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Same, and the same properties (an optional property one side lacks is assignable, so keys are compared too). */
type Exact<A, B> = Same<A, B> extends true ? Same<keyof A, keyof B> : false;
type Agree<T extends true> = T;
type Part<K extends keyof EntityFile> = NonNullable<EntityFile[K]>;
/** An entity file as the loader completes it: table, path, kind and title field filled in, the file named. */
type LoadedFile = Omit<EntityFile, '$schema' | 'table' | 'path' | 'kind' | 'titleField'> &
  Required<Pick<EntityFile, 'table' | 'path' | 'kind' | 'titleField'>>;
/** These types say exactly what entity.schema.json does (an entity's `file` and `book` are the loader's). */
export type MetaTypesAgreeWithSchema = [
  Agree<Exact<FieldMeta, EntityField>>,
  Agree<Exact<Omit<EntityMeta, 'file' | 'book'>, LoadedFile>>,
  Agree<Exact<AccessMeta, Part<'access'>>>,
  Agree<Exact<ScopeMeta, Part<'scope'>>>,
  Agree<Exact<RowSetMeta, Part<'rows'>[string]>>,
  Agree<Exact<ListMeta, Part<'list'>>>,
  Agree<Exact<WorkflowMeta, Part<'workflow'>>>,
  Agree<Exact<WorkflowActionMeta, Part<'workflow'>['actions'][string]>>,
  Agree<Exact<NotifyMeta, NonNullable<Part<'workflow'>['actions'][string]['notify']>>>,
  Agree<Exact<WorkflowQueueMeta, NonNullable<Part<'workflow'>['queues']>[string]>>,
  Agree<Exact<ConstraintMeta, Part<'constraints'>[number]>>,
  Agree<Exact<DocumentsMeta, Part<'documents'>>>,
  Agree<Exact<PublicExposure, Part<'public'>>>,
];
