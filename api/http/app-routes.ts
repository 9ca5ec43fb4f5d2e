import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import type { MetaModel } from '../meta/types.ts';
import { LANGS } from '../meta/types.ts';
import type { AppState } from './middleware.ts';
import { validationError } from './errors.ts';
import { menuFor } from '../meta/client-meta.ts';
import { translate } from '../meta/captions.ts';

/**
 * `admin/app/setlang` (the user's language) and the spec's menu calls: user module categories and
 * user modules, each ordered by `ordering`, cut to the caller's actions.
 */
export function appRoutes(model: MetaModel, knex: Knex, guard: Middleware<AppState>): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/admin' });

  router.post('/app/setlang', guard, async (ctx) => {
    const lang = (ctx.request.body as { lang?: unknown } | undefined)?.lang;
    if (typeof lang !== 'string' || !(LANGS as string[]).includes(lang)) throw validationError({ lang: { key: 'validation.wrong_value' } });
    await knex('users').where({ id: ctx.state.principal!.id }).update({ lang_code: lang, updated_at: knex.fn.now() });
    ctx.body = { lang };
  });

  router.get('/user-module-categories', guard, async (ctx) => {
    const lang = ctx.state.lang;
    ctx.body = menuFor(model.menu, ctx.state.principal!).map((s) => ({
      id: s.route.slice(1), route: s.route, name: translate(model, lang, s.caption), icon: s.icon, ordering: s.ordering ?? 0,
    }));
  });

  router.get('/user-modules', guard, async (ctx) => {
    const lang = ctx.state.lang;
    ctx.body = menuFor(model.menu, ctx.state.principal!).flatMap((s) => s.children.map((c) => ({
      category_id: s.route.slice(1), route: `${s.route}/${c.route}`, name: translate(model, lang, c.caption),
      icon: c.icon, action_id: c.action ?? null, ordering: c.ordering ?? 0,
    })));
  });
  return router;
}
