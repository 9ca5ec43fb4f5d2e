import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Pending } from './generic/LoadingText';

/**
 * A component of another chunk, loaded when first shown: `lazyNamed(() => import('./X'), 'X')`.
 * It waits in a Suspense of its own (`fallback`, default nothing to see but an `aria-busy` mark for
 * the tests to wait on), so it can stand anywhere — a tab, a toolbar, a route outside react-admin's
 * layout. What it costs the first screen: nothing (bench/bundle-size measures what index.html
 * loads; docs/performance.md).
 */
export function lazyNamed<M extends Record<K, ComponentType<never>>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
  fallback: ReactNode = <Pending />,
): M[K] {
  const Lazy = lazy(async () => ({ default: (await load())[name] as unknown as ComponentType<object> }));
  const Loaded = (props: object) => (
    <Suspense fallback={fallback}>
      <Lazy {...props} />
    </Suspense>
  );
  Loaded.displayName = `Lazy(${name})`;
  return Loaded as unknown as M[K];
}
