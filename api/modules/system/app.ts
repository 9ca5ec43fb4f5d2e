import type { RouteHandler } from '../types.ts';
import { clientMeta, menuFor } from '../../meta/client-meta.ts';
import { translate } from '../../meta/captions.ts';
import { createHash } from 'node:crypto';

/**
 * /api/meta's version: the digest of the answer itself. It follows everything the answer depends
 * on — the metadata the live model has now (a book added at run time included), the caller's
 * rights and scope, the language — where a model's counter would miss a change of rights.
 */
export function metaETag(body: string): string {
  return `"m-${createHash('sha1').update(body).digest('base64url')}"`;
}

/** The health check, the metadata the back-office is generated from, and the spec's two menu calls (ordered by `ordering`, cut to the caller's actions). */
export const APP_HANDLERS: Record<string, RouteHandler> = {
  'system.health': async (ctx, { knex, model }) => {
    await knex.raw('select 1');
    ctx.body = { status: 'ok', entities: model.entities.size, time: new Date().toISOString() };
  },
  'system.meta': async (ctx, { model, principal, lang }) => {
    const body = JSON.stringify(
      clientMeta(model, principal!, lang, {
        api: String(ctx.query.include ?? '')
          .split(',')
          .includes('api'),
      }),
    );
    // the answer is the caller's (their rights cut it) and changes with the metadata: the browser
    // keeps it and asks again with If-None-Match, and an unchanged one goes back as a bodiless 304
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.set('ETag', metaETag(body));
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = body;
  },
  'system.moduleCategories': async (ctx, { model, principal, lang }) => {
    ctx.body = menuFor(model.menu, principal!).map((s) => ({
      id: s.route.slice(1),
      route: s.route,
      name: translate(model, lang, s.caption),
      icon: s.icon,
      ordering: s.ordering ?? 0,
    }));
  },
  'system.modules': async (ctx, { model, principal, lang }) => {
    ctx.body = menuFor(model.menu, principal!).flatMap((s) =>
      s.children.map((c) => ({
        category_id: s.route.slice(1),
        route: `${s.route}/${c.route}`,
        name: translate(model, lang, c.caption),
        icon: c.icon,
        action_id: c.action ?? null,
        ordering: c.ordering ?? 0,
      })),
    );
  },
};
