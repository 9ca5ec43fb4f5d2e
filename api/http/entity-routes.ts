import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Knex } from 'knex';
import type { EntityMeta, MetaModel } from '../meta/types.ts';
import type { AppState, AppContext } from './middleware.ts';
import { Repository } from '../engine/repository.ts';
import { parseListParams } from '../engine/list-params.ts';
import { exportGeoJson, exportXlsx } from '../engine/export.ts';
import { GEOJSON_TYPE, geometryFields } from '../engine/geojson.ts';
import { Workflow } from '../engine/workflow.ts';
import { badRequest } from './errors.ts';
import { idParam } from './module-routes.ts';
import { exportQuery, queueListExport } from '../jobs/export-kinds.ts';
import { queueEntityImport } from '../jobs/import-kinds.ts';
import { importMaxBytes, mapHeader, readHeader } from '../engine/import.ts';
import { rawBody } from './raw-body.ts';
import { jobView } from '../jobs/queue.ts';
import { IDEMPOTENCY_HEADER, idempotencyClaim, REPLAYED_HEADER } from '../engine/idempotency.ts';

/**
 * The whole generic REST surface: for every entity of the metadata, list, export (and, for an
 * entity with a point or polygon field, its GeoJSON export), an import from .xlsx for an entity
 * that allows it (a background job: api/jobs/import-kinds.ts), get one (and its
 * audit history), create, update, delete and bulk delete at its path (either with `?dryRun=1`: the
 * answer the delete would get, rolled back), and its workflow actions and flows. No entity has handler code of its own; api/meta/catalogue.ts lists the same routes.
 */
export function entityRoutes(model: MetaModel, knex: Knex, guard: Middleware<AppState>): Router<AppState> {
  const router = new Router<AppState>();
  const repo = (ctx: AppContext, e: EntityMeta) =>
    new Repository({ knex, model, principal: ctx.state.principal!, lang: ctx.state.lang }, e);

  for (const e of model.entities.values()) {
    router.get(e.path, guard, async (ctx) => {
      const params = parseListParams(e, ctx.query);
      const { rows, total, exact } = await repo(ctx, e).list(params);
      const end = params.offset + rows.length - 1;
      ctx.set('Content-Range', rows.length ? `${e.name} ${params.offset}-${end}/${total}` : `${e.name} */${total}`);
      ctx.set('X-Total-Count', String(total));
      ctx.set('X-Total-Exact', String(exact));
      ctx.body = rows;
    });

    // a list over the setting `exports.background_rows` (or `?background=1`) becomes a job: 202 (api/jobs/export-kinds.ts)
    router.get(`${e.path}/export`, guard, async (ctx) => {
      if (await queueListExport(ctx, knex, model, e, 'xlsx')) return;
      const { stream, filename } = await exportXlsx(repo(ctx, e), parseListParams(e, exportQuery(ctx.query)));
      ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
      ctx.type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
      ctx.body = stream;
    });

    if (geometryFields(e)) {
      router.get(`${e.path}/export.geojson`, guard, async (ctx) => {
        if (await queueListExport(ctx, knex, model, e, 'geojson')) return;
        const { stream, filename } = await exportGeoJson(repo(ctx, e), parseListParams(e, exportQuery(ctx.query)));
        ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
        ctx.type = GEOJSON_TYPE;
        ctx.body = stream;
      });
    }

    if (e.import) {
      // an .xlsx laid out as the export (api/engine/import.ts): its header checked now, its rows imported by a job of the caller's — 202 and the job
      router.post(`${e.path}/import`, guard, async (ctx) => {
        repo(ctx, e).assertCan('create');
        const file = await rawBody(ctx, importMaxBytes(), 'errors.import_file');
        mapHeader(model, e, ctx.state.lang, await readHeader(file));
        const job = await queueEntityImport(knex, model, e, { userId: ctx.state.principal!.id, lang: ctx.state.lang, file });
        ctx.status = 202;
        ctx.set('Location', `/api/jobs/${job.id}`);
        ctx.body = jobView(model, ctx.state.lang, job);
      });
    }

    router.post(`${e.path}/delete-many`, guard, async (ctx) => {
      const ids = (ctx.request.body as { ids?: unknown })?.ids;
      if (!Array.isArray(ids) || !ids.length || !ids.every((x) => Number.isSafeInteger(x) && x > 0)) throw badRequest('errors.select_rows');
      if (dryRun(ctx)) {
        await repo(ctx, e).remove(ids as number[], { dryRun: true });
        ctx.body = { data: ids, dryRun: true };
        return;
      }
      await repo(ctx, e).remove(ids as number[]);
      ctx.body = { data: ids };
    });

    if (e.workflow) {
      const workflow = (ctx: AppContext) => new Workflow(repo(ctx, e));
      if (Object.values(e.workflow.actions).some((a) => a.bulk)) {
        router.post(`${e.path}/actions/:action`, guard, async (ctx) => {
          const b = body(ctx);
          ctx.body = await workflow(ctx).runMany(String(ctx.params.action), b, b.all === true ? parseListParams(e, ctx.query) : undefined);
        });
      }
      router.post(`${e.path}/:id/actions/:action`, guard, async (ctx) => {
        ctx.body = await workflow(ctx).run(idParam(ctx.params.id), String(ctx.params.action), body(ctx));
      });
      router.get(`${e.path}/:id/flows`, guard, async (ctx) => {
        ctx.body = await workflow(ctx).flows(idParam(ctx.params.id));
      });
    }

    router.get(`${e.path}/:id/history`, guard, async (ctx) => {
      ctx.body = await repo(ctx, e).history(idParam(ctx.params.id));
    });

    router.get(`${e.path}/:id`, guard, async (ctx) => {
      ctx.body = await repo(ctx, e).getOne(idParam(ctx.params.id));
    });

    // a create with `Idempotency-Key` happens once: a retry is answered the first result (docs/field-app.md)
    router.post(e.path, guard, async (ctx) => {
      const data = body(ctx);
      const claim = idempotencyClaim(ctx.get(IDEMPOTENCY_HEADER) || undefined, ctx.state.principal!.id, e.name, data);
      if (!claim) {
        ctx.status = 201;
        ctx.body = await repo(ctx, e).create(data);
        return;
      }
      const once = await repo(ctx, e).createOnce(data, claim);
      if (once.replayed) ctx.set(REPLAYED_HEADER, 'true');
      ctx.status = once.status;
      ctx.body = once.row;
    });

    router.put(`${e.path}/:id`, guard, async (ctx) => {
      const data = body(ctx);
      const version = ctx.get('If-Match') ? ctx.get('If-Match').replace(/^W\//, '').replace(/"/g, '') : data.version;
      ctx.body = await repo(ctx, e).update(idParam(ctx.params.id), data, version);
    });

    router.delete(`${e.path}/:id`, guard, async (ctx) => {
      const id = idParam(ctx.params.id);
      await repo(ctx, e).remove([id], { dryRun: dryRun(ctx) });
      ctx.body = dryRun(ctx) ? { id, dryRun: true } : { id };
    });
  }
  return router;
}

/** `?dryRun=1` on a delete: everything the delete checks and does, rolled back — whether it would go, without it going. */
const dryRun = (ctx: AppContext): boolean => ctx.query.dryRun === '1' || ctx.query.dryRun === 'true';

function body(ctx: AppContext): Record<string, unknown> {
  const b = ctx.request.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('errors.bad_body');
  return b as Record<string, unknown>;
}
