import { createHash, timingSafeEqual } from 'node:crypto';
import type { RouteHandler } from '../../http/route-context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { METRICS_CONTENT_TYPE, renderMetrics } from '../../observability/metrics.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * GET /api/metrics, Prometheus' format (docs/operations.md): only with `Authorization: Bearer
 * <ECOFOND_METRICS_TOKEN>` (Prometheus' `authorization` of a scrape job); a wrong or missing token
 * is a 401, and without the setting the route does not exist (404) — the metrics are never public.
 */
export const METRICS_HANDLERS: Record<string, RouteHandler> = {
  'system.metrics': async (ctx, { knex }) => {
    const token = process.env.ECOFOND_METRICS_TOKEN;
    if (!token) throw new ApiError('notFound');
    const given = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1] ?? '';
    if (!timingSafeEqual(digest(given), digest(token))) throw new ApiError('unauthorized');
    ctx.set('Content-Type', METRICS_CONTENT_TYPE);
    ctx.body = await renderMetrics(knex);
  },
};
