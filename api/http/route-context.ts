import type { Knex } from 'knex';
import type { EntityMeta, Lang, MetaModel, RouteMeta } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import type { Repository } from '../engine/repository.ts';
import type { LiveModel } from '../meta/live.ts';
import type { AppContext } from './middleware.ts';

/** What a module route's handler receives besides Koa's context. */
export interface RouteContext {
  /** the primary's pool; the read pool (a replica's, when set) for routes declared `"reads": "replica"` */
  knex: Knex;
  model: MetaModel;
  /** the reloadable model, when the app runs on one (docs/reference-books.md) */
  live?: LiveModel;
  route: RouteMeta;
  lang: Lang;
  /** the signed-in caller; null on public routes and optional ones called without a token */
  principal: Principal | null;
  /** the route's entity (when it names one) */
  entity?: EntityMeta;
  /** the caller's repository of an entity (default: the route's) */
  repo(entity?: string): Repository;
  /**
   * An entity's repository writing (and reading) on the caller's behalf — as nobody on a public
   * route — after the handler checked what the route must (a limit, a form's own rule): the caller's
   * right and scope are not asked again; validation, references, the hook and the one audit row
   * are the engine's as always. On the primary pool, in `trx` when given.
   */
  trustedRepo(entity: string, trx?: Knex.Transaction): Repository;
  /** the row at `:id`, read in the caller's scope for the route's operation */
  row?: Record<string, unknown>;
  /** `:id`, checked */
  id?: number;
  /** the declared path parameters, checked and typed */
  params: Record<string, unknown>;
}

export type RouteHandler = (ctx: AppContext, rc: RouteContext) => Promise<void>;
