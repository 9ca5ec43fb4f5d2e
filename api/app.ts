import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Knex } from 'knex';
import type { MetaModel } from './meta/types.ts';
import { type AppState, authenticate, cors, errorHandler, language, securityHeaders } from './http/middleware.ts';
import { authRoutes } from './http/auth-routes.ts';
import { entityRoutes } from './http/entity-routes.ts';
import { clientMeta } from './meta/client-meta.ts';
import { appRoutes } from './http/app-routes.ts';
import { accessRoutes } from './http/access-routes.ts';
import { fundRoutes } from './http/fund-routes.ts';
import { resourceRoutes } from './http/resource-routes.ts';
import { publicRoutes } from './http/public-routes.ts';
import { reportRoutes } from './http/report-routes.ts';
import { publicEntityRoutes } from './http/public-entity-routes.ts';
import { inputGuard } from './http/input-guard.ts';

export interface AppOptions {
  knex: Knex;
  model: MetaModel;
  /** extra middleware mounted after the API (static back-office and public site) */
  statics?: Koa.Middleware[];
}

/** The Koa application: /api with the generic entity routes derived from the metadata. */
export function createApp({ knex, model, statics = [] }: AppOptions): Koa<AppState> {
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
  api.get('/health', async (ctx) => {
    await knex.raw('select 1');
    ctx.body = { status: 'ok', entities: model.entities.size, time: new Date().toISOString() };
  });
  if (model.entities.has('public-plantings')) {
    const pub = publicRoutes(model, knex);
    api.use(pub.routes(), pub.allowedMethods());
  }
  const pubEntities = publicEntityRoutes(model, knex);
  api.use(pubEntities.routes(), pubEntities.allowedMethods());
  const auth = authRoutes(knex, model);
  api.use(auth.routes(), auth.allowedMethods());

  const guard = authenticate(knex);
  api.get('/meta', guard, async (ctx) => {
    ctx.body = clientMeta(model, ctx.state.principal!, ctx.state.lang);
  });
  const appApi = appRoutes(model, knex, guard);
  api.use(appApi.routes(), appApi.allowedMethods());
  const resources = resourceRoutes(knex, guard);
  api.use(resources.routes(), resources.allowedMethods());
  const access = accessRoutes(model, knex, guard);
  api.use(access.routes(), access.allowedMethods());
  if (model.entities.has('payments')) {
    const fund = fundRoutes(model, knex, guard);
    api.use(fund.routes(), fund.allowedMethods());
  }
  const reports = reportRoutes(model, knex, guard);
  api.use(reports.routes(), reports.allowedMethods());
  const entities = entityRoutes(model, knex, guard);
  api.use(entities.routes(), entities.allowedMethods());

  app.use(api.routes());
  app.use(api.allowedMethods());
  for (const s of statics) app.use(s);
  return app;
}
