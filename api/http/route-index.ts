import type Router from '@koa/router';

/** The first segment after /api of a route's path, when it is plain text (lower case: routes match case-insensitively). */
const routeKey = (layer: { methods: string[]; path: unknown }): string | undefined =>
  layer.methods.length && typeof layer.path === 'string'
    ? /^\/api\/([^/:*(?{\\]+)(?:\/|$)/i.exec(layer.path)?.[1]?.toLowerCase()
    : undefined;

/**
 * Makes a router find a request's routes among those of its path's first segment after /api only,
 * instead of trying each of its ~950 routes' patterns in turn (a quarter of a cheap read's time in
 * the router): the routes are grouped once by that segment, every route without a plain one (and
 * every middleware layer) kept in every group, all in their order. Two routes of different plain
 * first segments never match the same path, so the matches — and which route answers — are the same.
 * Call it once every route is registered.
 */
export function indexRoutes<S, C>(router: Router<S, C>): void {
  type Layer = Router<S, C>['stack'][number];
  const stack = router.stack;
  const keys = new Set(stack.map(routeKey).filter((k): k is string => k !== undefined));
  const groups = new Map<string, Layer[]>();
  for (const key of keys)
    groups.set(
      key,
      stack.filter((l) => {
        const k = routeKey(l);
        return k === undefined || k === key;
      }),
    );
  const others = stack.filter((l) => routeKey(l) === undefined);
  router.match = (path: string, method: string) => {
    const first = /^\/api\/([^/]+)/i.exec(path)?.[1]?.toLowerCase();
    const layers = (first !== undefined && groups.get(first)) || others;
    const result: ReturnType<Router<S, C>['match']> = { path: [], pathAndMethod: [], route: false };
    const m = method.toUpperCase();
    for (const layer of layers) {
      if (!layer.match(path)) continue;
      result.path.push(layer);
      if (layer.methods.length === 0 || layer.methods.includes(m)) {
        result.pathAndMethod.push(layer);
        if (layer.methods.length > 0) result.route = true;
      }
    }
    return result;
  };
}
