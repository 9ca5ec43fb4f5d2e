import type Koa from 'koa';
import type { AppState } from './middleware.ts';
import { badTextError, findBadText, isBadText, shown, tooDeep, tooDeepError } from '../kernel/input-text.ts';

export { badTextError, findBadText, isBadText, MAX_JSON_DEPTH, tooDeep, tooDeepError } from '../kernel/input-text.ts';

/**
 * Mounted right after the body parser: refuses a JSON body nested deeper than MAX_JSON_DEPTH
 * (before anything else walks it), then NUL and lone surrogates in the query and the body.
 */
export function inputGuard(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    for (const [k, v] of Object.entries(ctx.query)) {
      if (isBadText(k) || (v !== undefined && findBadText(v) !== null)) throw badTextError(shown(k));
    }
    const body = (ctx.request as { body?: unknown }).body;
    if (body !== undefined) {
      const deep = tooDeep(body);
      if (deep !== null) throw tooDeepError(deep);
      const hit = findBadText(body);
      if (hit !== null) throw badTextError(hit);
    }
    await next();
  };
}
