import Router from '@koa/router';
import type { Knex } from 'knex';
import type { FieldMeta, MetaModel } from '../meta/types.ts';
import type { AppState, AppContext } from './middleware.ts';
import { authenticate } from './middleware.ts';
import { forbidden, validationError } from './errors.ts';
import { ANONYMOUS } from '../auth/ability.ts';
import { Repository } from '../engine/repository.ts';
import { FORMATS, normaliseFormatted } from '../meta/formats.ts';
import type { RouteHandler } from './route-context.ts';
import type { LiveModel } from '../meta/live.ts';
import { IDEMPOTENCY_HEADER, idempotencyClaim, KeyTaken, REPLAYED_HEADER, type IdempotencyClaim } from '../engine/idempotency.ts';

/** `:id` of a path: a positive safe integer, else a 400 naming it. */
export function idParam(raw: string | undefined, name = 'id'): number {
  if (!raw || !/^\d{1,16}$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < 1)
    throw validationError({ [name]: { key: 'validation.wrong_format' } });
  return Number(raw);
}

/** A declared path parameter, typed as its field says; a 400 naming it otherwise. */
function pathParam(name: string, f: FieldMeta, raw: string | undefined): unknown {
  if (['integer', 'ref', 'file', 'image'].includes(f.type)) return idParam(raw, name);
  const s = f.format ? String(normaliseFormatted(f.format, raw ?? '')) : (raw ?? '');
  if (!s || s.length > (f.maxLength ?? 255))
    throw validationError({ [name]: { key: s ? 'validation.max_length' : 'validation.required', args: { limit: f.maxLength ?? 255 } } });
  if (f.format && !new RegExp(FORMATS[f.format].pattern).test(s)) throw validationError({ [name]: { key: FORMATS[f.format].message } });
  if (f.pattern && !new RegExp(f.pattern).test(s)) throw validationError({ [name]: { key: 'validation.wrong_format' } });
  return s;
}

/** Reads a bearer token when one is sent; calls without one go on as anonymous. */
export function optionalAuth(knex: Knex) {
  const guard = authenticate(knex);
  return async (ctx: AppContext, next: () => Promise<unknown>) => (ctx.get('Authorization') ? guard(ctx, next) : next());
}

/**
 * The modules' routes (metadata/modules/*.json), each behind what it declares: sign-in (or not),
 * the action id, the operation on its entity — the row at `:id` read in the caller's scope for it,
 * so another's row is a 404 before any handler runs — and its typed path parameters.
 */
export function moduleRoutes(
  model: MetaModel,
  knex: Knex,
  handlers: Readonly<Record<string, RouteHandler>>,
  live?: LiveModel,
  reads: Knex = knex,
): Router<AppState> {
  const router = new Router<AppState>();
  const guard = authenticate(knex);
  const optional = optionalAuth(knex);
  for (const r of model.routes) {
    const handler = handlers[r.handler];
    if (!handler) throw new Error(`no module defines the handler "${r.handler}" (${r.file})`);
    const auth = r.auth === 'public' ? [] : r.auth === 'optional' ? [optional] : [guard];
    // a route declared `"reads": "replica"` (a GET that writes nothing and needs no read of its own
    // writes) reads from the read pool; sign-in and rights are still read from the primary
    const db = r.reads === 'replica' ? reads : knex;
    router[r.method](r.path, ...auth, async (ctx: AppContext) => {
      const principal = r.auth === 'public' ? null : (ctx.state.principal ?? null);
      if (r.action !== undefined && !principal?.actions.has(r.action)) throw forbidden();
      const lang = ctx.state.lang;
      // a route that creates its entity's row honours `Idempotency-Key` as the generic create does: its first create of that entity claims the key
      let idempotency: IdempotencyClaim | undefined;
      if (r.method === 'post' && r.op === 'create' && r.entity && ctx.get(IDEMPOTENCY_HEADER))
        idempotency =
          idempotencyClaim(ctx.get(IDEMPOTENCY_HEADER), principal?.id ?? null, r.entity, {
            path: ctx.path,
            query: ctx.querystring,
            body: ctx.request.body ?? null,
          }) ?? undefined;
      const repo = (name = r.entity) => {
        const e = name ? model.entities.get(name) : undefined;
        if (!e) throw new Error(`route ${r.name}: no entity "${name}"`);
        return new Repository({ knex: db, model, principal: principal ?? ANONYMOUS, lang, idempotency }, e);
      };
      const trustedRepo = (name: string, trx?: Knex.Transaction) => {
        const e = model.entities.get(name);
        if (!e) throw new Error(`route ${r.name}: no entity "${name}"`);
        return new Repository({ knex, model, principal: principal ?? ANONYMOUS, lang, trusted: true, trx, idempotency }, e);
      };
      const replay = async (): Promise<boolean> => {
        const first = idempotency && (await repo().replayed(idempotency));
        if (!first) return false;
        ctx.set(REPLAYED_HEADER, 'true');
        ctx.status = first.status;
        ctx.body = first.row;
        return true;
      };
      if (await replay()) return;
      const id = r.path.includes('/:id') ? idParam(ctx.params.id) : undefined;
      const params = Object.fromEntries(Object.entries(r.params ?? {}).map(([name, f]) => [name, pathParam(name, f, ctx.params[name])]));
      let row: Record<string, unknown> | undefined;
      if (r.entity && r.op) {
        const own = repo();
        own.assertCan(r.op);
        // the route's row as the caller may see it (personal fields masked unless theirs in clear); the handler shows what it chooses
        if (id !== undefined) row = own.masked(await own.findOne(id, r.op));
      }
      try {
        await runHandler();
      } catch (err) {
        if (!(err instanceof KeyTaken && (await replay()))) throw err;
      }
      return;
      async function runHandler() {
        await handler(ctx, {
          knex: db,
          model,
          live,
          route: r,
          lang,
          principal,
          entity: r.entity ? model.entities.get(r.entity) : undefined,
          repo,
          trustedRepo,
          row,
          id,
          params,
        });
      }
    });
  }
  return router;
}
