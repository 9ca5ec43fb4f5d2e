import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Knex } from 'knex';
import type { MetaModel } from './meta/types.ts';
import { MetadataInvalid } from './meta/load.ts';
import { type AppState, authenticate, cors, errorHandler, language, securityHeaders } from './http/middleware.ts';
import { entityRoutes } from './http/entity-routes.ts';
import { documentRoutes } from './http/document-routes.ts';
import { moduleRoutes } from './http/module-routes.ts';
import { reportRoutes } from './http/report-routes.ts';
import { publicEntityRoutes } from './http/public-entity-routes.ts';
import { checkModules } from './modules/index.ts';
import { inputGuard } from './http/input-guard.ts';

export interface AppOptions {
  knex: Knex;
  model: MetaModel;
  /** extra middleware mounted after the API (static back-office and public site) */
  statics?: Koa.Middleware[];
}

/**
 * The Koa application: /api with the modules' declared routes (metadata/modules/), the public
 * blocks' and the reports' routes, and the generic entity routes — all derived from the metadata
 * (api/http/catalogue.ts lists them). Refuses to start when the metadata names a hook or handler
 * no module defines.
 */
export function createApp({ knex, model, statics = [] }: AppOptions): Koa<AppState> {
  const problems = checkModules(model);
  if (problems.length) throw new MetadataInvalid(problems);
  const app = new Koa<AppState>();
  app.proxy = process.env.ECOFOND_TRUST_PROXY === '1';
  app.use(securityHeaders());
  app.use(cors());
  app.use(language());
  app.use(errorHandler(model, knex));
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '2mb' }));
  // NUL and lone surrogates are refused here, named by their field, before any route or SQL
  app.use(inputGuard());

  const api = new Router<AppState>({ prefix: '/api' });
  const guard = authenticate(knex);
  for (const r of [moduleRoutes(model, knex), publicEntityRoutes(model, knex), reportRoutes(model, knex, guard), documentRoutes(model, knex, guard), entityRoutes(model, knex, guard)]) {
    api.use(r.routes(), r.allowedMethods());
  }
  app.use(api.routes());
  app.use(api.allowedMethods());
  for (const s of statics) app.use(s);
  return app;
}
