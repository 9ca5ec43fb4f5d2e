import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Knex } from 'knex';
import type { MetaModel } from './meta/types.ts';
import { MetadataInvalid } from './meta/load.ts';
import { type AppContext, type AppState, authenticate, cors, errorHandler, language, securityHeaders } from './http/middleware.ts';
import { entityRoutes } from './http/entity-routes.ts';
import { documentRoutes } from './http/document-routes.ts';
import { moduleRoutes } from './http/module-routes.ts';
import { reportRoutes } from './http/report-routes.ts';
import { publicEntityRoutes } from './http/public-entity-routes.ts';
import { buildRegistry, type Registry } from './registry.ts';
import { inputGuard } from './http/input-guard.ts';
import { compression } from './http/compress.ts';
import { indexRoutes } from './http/route-index.ts';
import { LiveModel } from './meta/live.ts';
import { AUTH_CHANNEL, sessionCacheOf } from './auth/session-cache.ts';
import { observeRequests } from './http/observe.ts';
import { handleTus } from './http/tus.ts';

export interface AppOptions {
  knex: Knex;
  /**
   * the pool the public reads use — the public API, map viewports, statistics, public reports, and
   * module routes declared `"reads": "replica"` — a read replica's (DATABASE_READ_URL); default `knex`
   */
  reads?: Knex;
  model: MetaModel;
  /** the reloadable model (docs/reference-books.md): the app follows its swaps; without it, `model` for good */
  live?: LiveModel;
  /** the modules' registry (api/registry.ts), built once by start-up; default: every module's */
  registry?: Registry;
  /** extra middleware mounted after the API (static back-office and public site) */
  statics?: Koa.Middleware[];
}

/**
 * The Koa application: /api with the modules' declared routes (metadata/modules/), the public
 * blocks' and the reports' routes, and the generic entity routes — all derived from the metadata
 * (api/meta/catalogue.ts lists them). Refuses to start when the metadata names a hook or handler
 * no module defines. The model (and each one the live model swaps in) is bound to the registry, so
 * the engine finds the modules' hooks, forms and listeners through it.
 */
export function createApp({ knex, reads = knex, model, live, statics = [], registry = buildRegistry() }: AppOptions): Koa<AppState> {
  const problems = registry.check(live?.current ?? model);
  if (problems.length) throw new MetadataInvalid(problems);
  registry.bind(model);
  const app = new Koa<AppState>();
  app.proxy = process.env.ECOFOND_TRUST_PROXY === '1';
  app.use(securityHeaders());
  app.use(observeRequests());
  app.use(cors());
  app.use(language());
  // Brotli or gzip for every text answer above 1 KB, the API's and the sites' (api/http/compress.ts)
  app.use(compression());
  // everything derived from the model — the error captions, every route — is built once per model;
  // a request takes the stack of the model current when it starts and keeps it to its end. Every app
  // runs on a reloadable model (a server's own, shared with its LISTEN; or one of its own here)
  const liveModel = live ?? new LiveModel(model, knex, model.dir, registry);
  if (liveModel.modelSetup !== registry) liveModel.use(registry);
  const stacks = new WeakMap<MetaModel, ApiStack>();
  const stackOf = (m: MetaModel) => {
    let s = stacks.get(m);
    if (!s) {
      s = apiStack(m, knex, reads, liveModel, registry);
      stacks.set(m, s);
    }
    return s;
  };
  liveModel.onPrepare(stackOf);
  // the sessions this process keeps (docs/sessions.md) forget what another process changes: its
  // writes NOTIFY on AUTH_CHANNEL, heard on the model's LISTEN connection when the server has one
  const sessions = sessionCacheOf(knex);
  liveModel.subscribe(AUTH_CHANNEL, { notify: (payload) => sessions.applyPayload(payload), away: (away) => sessions.suspend(away) });
  const dispatch: Koa.Middleware<AppState> = (ctx, next) => {
    const m = liveModel.current;
    ctx.state.model = m;
    return stackOf(m).middleware(ctx, next);
  };
  // the router of the model answering now, for whoever inspects what the app mounts (test/access.test.ts)
  Object.defineProperty(dispatch, 'router', { get: () => stackOf(liveModel.current).router });
  app.use(dispatch);
  for (const s of statics) app.use(s);
  return app;
}

interface ApiStack {
  middleware: Koa.Middleware<AppState>;
  router: Router<AppState>;
}

/** The API of one model: its error handler and every route the catalogue lists. */
function apiStack(model: MetaModel, knex: Knex, reads: Knex, live: LiveModel, registry: Registry): ApiStack {
  const api = new Router<AppState>({ prefix: '/api' });
  const guard = authenticate(knex);
  for (const r of [
    moduleRoutes(model, knex, registry.handlers, live, reads),
    publicEntityRoutes(model, reads),
    reportRoutes(model, knex, guard, reads),
    documentRoutes(model, knex, guard),
    entityRoutes(model, knex, guard),
  ]) {
    api.use(r.routes(), r.allowedMethods());
  }
  // a resumable upload's own requests (tus: HEAD, PATCH, DELETE of /uploads/tus/<id>); its creation is the module route system.tus
  api.register('/uploads/tus/:id', ['HEAD', 'PATCH', 'DELETE'], [guard, (ctx: AppContext) => handleTus(ctx, knex, model)]);
  indexRoutes(api);
  return {
    router: api,
    middleware: compose([
      errorHandler(model, knex),
      bodyParser({ enableTypes: ['json'], jsonLimit: '2mb' }) as Koa.Middleware<AppState>,
      // NUL and lone surrogates are refused here, named by their field, before any route or SQL
      inputGuard(),
      api.routes() as Koa.Middleware<AppState>,
      api.allowedMethods() as Koa.Middleware<AppState>,
    ]),
  };
}

/** Koa's own chaining of middleware, for one model's stack. */
function compose(mws: Koa.Middleware<AppState>[]): Koa.Middleware<AppState> {
  return (ctx, next) => {
    const step = (i: number): Promise<void> =>
      i === mws.length
        ? Promise.resolve(next()).then(() => undefined)
        : Promise.resolve(mws[i](ctx, () => step(i + 1))).then(() => undefined);
    return step(0);
  };
}
