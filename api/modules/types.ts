import type { Knex } from 'knex';
import type { EntityMeta, Lang, MetaModel, RouteMeta } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import type { Repository } from '../engine/repository.ts';
import type { AppContext } from '../http/middleware.ts';

/**
 * What a hook receives: the transaction of the write it belongs to, the entity, the row as it now
 * stands (children included), the row before the write (null on create), the caller, and a way to
 * write other entities' rows through the engine in the same transaction.
 */
export interface HookContext {
  trx: Knex.Transaction;
  model: MetaModel;
  entity: EntityMeta;
  /** the row after the write, as the engine reads it (children included) */
  row: Record<string, unknown>;
  /** the row before the write; null when it was created */
  before: Record<string, unknown> | null;
  /** 'create', 'update', or the workflow action's name */
  action: string;
  /** a workflow move's states (empty for plain writes) */
  from: string;
  to: string;
  /** a workflow action's parameters, validated */
  params?: Record<string, unknown>;
  /** the fields this write set */
  changed: ReadonlySet<string>;
  principal: Principal;
  lang: Lang;
  /**
   * Another entity's repository in this transaction, writing on the caller's behalf: the write
   * that runs the hook was allowed, so the caller's rights are not asked again; validation, the
   * after-check of what is written and the audit row are the engine's as always.
   */
  repo(entity: string): Repository;
}

/**
 * What a hook may give back: new values of the row's own computed fields (`computedBy`, read-only),
 * and of its read-only child tables — an array of rows replaces the child rows, an array of rows
 * that all carry `id` updates those child rows' computed columns. The engine writes them in the
 * same transaction and they are part of the write's one audit row.
 */
export type HookResult = Record<string, unknown>;

export type Hook = (ctx: HookContext) => Promise<HookResult | void>;

/** What a module route's handler receives besides Koa's context. */
export interface RouteContext {
  /** the primary's pool; the read pool (a replica's, when set) for routes declared `"reads": "replica"` */
  knex: Knex;
  model: MetaModel;
  /** the reloadable model, when the app runs on one (docs/reference-books.md) */
  live?: import('../meta/live.ts').LiveModel;
  route: RouteMeta;
  lang: Lang;
  /** the signed-in caller; null on public routes and optional ones called without a token */
  principal: Principal | null;
  /** the route's entity (when it names one) */
  entity?: EntityMeta;
  /** the caller's repository of an entity (default: the route's) */
  repo(entity?: string): Repository;
  /** the row at `:id`, read in the caller's scope for the route's operation */
  row?: Record<string, unknown>;
  /** `:id`, checked */
  id?: number;
  /** the declared path parameters, checked and typed */
  params: Record<string, unknown>;
}

export type RouteHandler = (ctx: AppContext, rc: RouteContext) => Promise<void>;

/**
 * A module: the behaviour of a part of the domain that metadata cannot say. Its hooks are found by
 * name from entities' `afterWrite` and workflow actions' `hook`; its handlers answer the routes its
 * `metadata/modules/<module>.json` declares. Names are `<group>.<name>`; the loader refuses a name
 * no module defines.
 */
export interface ModuleDef {
  name: string;
  hooks?: Record<string, Hook>;
  handlers?: Record<string, RouteHandler>;
  /** form schemas of `json` fields with a `form`: found by name from the field's `form.schema` */
  forms?: Record<string, FormSchemaProvider>;
}

/**
 * The JSON Schema a form's values must meet, for the row's `form.by` reference (a zone's fields),
 * in the caller's language, with a caption per property so that an error names the field; and a
 * way to turn ajv's errors into field errors keyed by the form's property names.
 */
export interface FormSchema {
  schema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  /** property name → its caption in the caller's language */
  captions: Record<string, string>;
  errors(ajvErrors: { keyword: string; instancePath: string; params: Record<string, unknown> }[]): { code: string; key: string; args: Record<string, unknown> }[];
}

export type FormSchemaProvider = (db: Knex | Knex.Transaction, byId: number, lang: Lang) => Promise<FormSchema | null>;
