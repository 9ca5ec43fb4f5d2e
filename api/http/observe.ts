import type Koa from 'koa';
import type { AppState } from './middleware.ts';
import { httpDuration, httpRequests } from '../observability/metrics.ts';
import { errorFields, log } from '../observability/log.ts';

/**
 * Every request, counted and logged once it is answered (docs/operations.md): its route's template
 * (`/api/ecofund-sprav/rank/:id`; `unmatched` under /api when no route took it, `static` for the
 * sites' files) — never the path itself, which may carry a PINFL or an INN — its method, status
 * and duration, with the request id the error answers carry and the signed-in user's id.
 */
export function observeRequests(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const t = performance.now();
    let failure: unknown;
    try {
      await next();
    } catch (err) {
      failure = err;
      throw err;
    } finally {
      const status = failure ? Number((failure as { status?: number }).status) || 500 : ctx.status;
      const matched = (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute;
      const route = typeof matched === 'string' ? matched : ctx.path.startsWith('/api') ? 'unmatched' : 'static';
      const seconds = (performance.now() - t) / 1000;
      const labels = { method: ctx.method, route, status: String(status) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
      const line = {
        reqId: ctx.state.requestId,
        userId: ctx.state.principal?.id ?? null,
        ...labels,
        status,
        ms: Math.round(seconds * 10000) / 10,
      };
      if (failure) log.error({ ...line, err: errorFields(failure) }, 'request failed');
      else if (status >= 500) log.error(line, 'request');
      else log.info(line, 'request');
    }
  };
}
