import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Knex } from 'knex';
import type { MetaModel } from '../meta/types.ts';
import type { AppState, AppContext } from './middleware.ts';
import { Repository } from '../engine/repository.ts';
import { documentsOf, issueDocument, issuedDocument, publicSiteBase } from '../engine/documents.ts';
import { sendResource } from './uploads.ts';
import { ApiError, badRequest, notFound } from './errors.ts';
import { idParam } from './module-routes.ts';

/**
 * The documents of the entities that print them (`documents` in their metadata,
 * docs/template-documents.md): at a record — what it may print and what was issued, and printing
 * one — and an issued document's page and PDF, for whoever may read its record.
 * api/meta/catalogue.ts lists the same routes.
 */
export function documentRoutes(model: MetaModel, knex: Knex, guard: Middleware<AppState>): Router<AppState> {
  const router = new Router<AppState>();
  const caller = (ctx: AppContext) => ({ knex, model, principal: ctx.state.principal!, lang: ctx.state.lang });
  const printing = [...model.entities.values()].filter((e) => e.documents);
  for (const e of printing) {
    router.get(`${e.path}/:id/documents`, guard, async (ctx) => {
      const id = idParam(ctx.params.id);
      await new Repository(caller(ctx), e).findOne(id, 'read');
      ctx.body = await documentsOf(knex, e, id);
    });
    router.post(`${e.path}/:id/documents`, guard, async (ctx) => {
      const row = await new Repository(caller(ctx), e).getOne(idParam(ctx.params.id));
      const b = ctx.request.body;
      if (b !== undefined && (!b || typeof b !== 'object' || Array.isArray(b))) throw badRequest('errors.bad_body');
      try {
        ctx.body = await issueDocument(
          caller(ctx),
          e,
          row,
          (b ?? {}) as Record<string, unknown>,
          new Date(),
          publicSiteBase(`${ctx.protocol}://${ctx.host}`),
        );
      } catch (err) {
        // every print worker busy and the queue full (api/engine/document-print.ts)
        if (err instanceof ApiError && err.kind === 'busy') ctx.set('Retry-After', '5');
        throw err;
      }
      ctx.status = 201;
    });
  }
  if (printing.length) {
    router.get('/issued-documents/:id', guard, async (ctx) => {
      const { page, ...doc } = await issuedDocument(caller(ctx), idParam(ctx.params.id), publicSiteBase(`${ctx.protocol}://${ctx.host}`));
      ctx.body = { ...doc, page };
    });
    router.get('/issued-documents/:id/pdf', guard, async (ctx) => {
      const doc = await issuedDocument(caller(ctx), idParam(ctx.params.id));
      if (!doc.pdf) throw notFound();
      await sendResource(ctx, knex, Number(doc.pdf), 'private, no-store');
      ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${String(doc.title)}.pdf`)}`);
    });
  }
  return router;
}
