import type { RouteHandler } from '../types.ts';
import { clientMeta, menuFor } from '../../meta/client-meta.ts';
import { translate } from '../../meta/captions.ts';

/** The health check, the metadata the back-office is generated from, and the spec's two menu calls (ordered by `ordering`, cut to the caller's actions). */
export const APP_HANDLERS: Record<string, RouteHandler> = {
  'system.health': async (ctx, { knex, model }) => {
    await knex.raw('select 1');
    ctx.body = { status: 'ok', entities: model.entities.size, time: new Date().toISOString() };
  },
  'system.meta': async (ctx, { model, principal, lang }) => {
    ctx.body = clientMeta(model, principal!, lang, { api: String(ctx.query.include ?? '').split(',').includes('api') });
  },
  'system.moduleCategories': async (ctx, { model, principal, lang }) => {
    ctx.body = menuFor(model.menu, principal!).map((s) => ({
      id: s.route.slice(1), route: s.route, name: translate(model, lang, s.caption), icon: s.icon, ordering: s.ordering ?? 0,
    }));
  },
  'system.modules': async (ctx, { model, principal, lang }) => {
    ctx.body = menuFor(model.menu, principal!).flatMap((s) => s.children.map((c) => ({
      category_id: s.route.slice(1), route: `${s.route}/${c.route}`, name: translate(model, lang, c.caption),
      icon: c.icon, action_id: c.action ?? null, ordering: c.ordering ?? 0,
    })));
  },
};
